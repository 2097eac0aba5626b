"""Rulings: uphold, void, correct the position, penalties, warnings, results.

Each ruling that changes the game is written as judge entries into the
game's move log (``games.services.move_log.judge_entries_append``), where the
engine checks the whole record before anything is stored; the ``Ruling`` row
keeps who, when, why and the rule. Both happen in one transaction, so a
refused ruling changes nothing.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict
from core.users import Actor, signed_in
from games.engine import (
    AnyPosition,
    EngineError,
    JudgeEntry,
    Ruleset,
    format_judge_entry,
    get_ruleset,
    parse_judge_entry,
    void_check,
)
from games.models import Game
from games.selectors import game_log
from games.selectors.adjudication import SideStanding
from games.services.judges import JudgeAtGame
from games.services.results import game_result_record
from judging.models import JudgeCall, Ruling
from judging.selectors_timeout import is_timed_out, timeout_proposal
from judging.services.calls import CallClosing, judge_call_close_by_ruling
from judging.services.common import pair_of_seat, seat_check
from judging.services.freshness import judging_changed
from judging.services.ruling_requests import (
    AdjudicationRequest,
    PenaltyRequest,
    PositionRequest,
    ResultRequest,
    RulingRequest,
    UpholdRequest,
    VoidRequest,
    WarningRequest,
)
from tournament.services.audit import audit_record


def checked_entry(text: str, game: Game) -> str:
    """The canonical judge entry in the notation of ``game``'s ruleset (DUO: its players
    and codes), or a 400 naming what cannot be read."""
    try:
        ruleset = get_ruleset(game.round.tournament.ruleset)
        return format_judge_entry(parse_judge_entry(text, ruleset))
    except EngineError as err:
        raise ApplicationError(
            "N", err.message_en, err.message_da, status=400, extra={"rule": err.rule}
        ) from None


def _position_text(position: AnyPosition) -> str:
    return format_judge_entry(JudgeEntry("SET", position=position))


def _call(game: Game, call_id: int | None) -> JudgeCall | None:
    """The judge call a ruling answers (one of this table's), or None."""
    if call_id is None:
        return None
    return JudgeCall.objects.filter(pk=call_id, game=game).first()


@dataclasses.dataclass(frozen=True)
class JudgeAtTable(JudgeAtGame):
    """A judge of the game's event at its table: made only after the check that they are.

    The ruling services take it instead of a game and an actor, so a ruling
    checks who rules once, where it enters (the API, the review page), and
    reads the game's log at most once however many entries it names. It is a
    ``JudgeAtGame``: closing the ruling's call resumes the clock without a
    second check.
    """

    @property
    def ruleset(self) -> Ruleset:
        return get_ruleset(self.game.round.tournament.ruleset)

    @functools.cached_property
    def entries(self) -> dict[int, str]:
        """The log's active entries, number to text, read once."""
        return {entry.seq: entry.text for entry in game_log(game=self.game).entries}

    def entry_check(self, seq: int) -> None:
        if seq not in self.entries:
            raise ApplicationError(
                "entry_not_found",
                _("There is no entry %(seq)s in this game's log."),
                params={"seq": seq},
                status=404,
            )


def rule_of(
    *,
    game: Game,
    actor: Actor,
    kind: str,
    reason: str,
    texts: list[str],
    rule: str = "",
    seat: str = "",
    entry_seq: int | None = None,
    call: int | None = None,
    data: dict[str, Any] | None = None,
) -> Ruling:
    from games.services.move_log import judge_entries_append

    tournament = game.round.tournament
    with transaction.atomic():
        entries = judge_entries_append(game=game, texts=texts) if texts else []
        ruling = Ruling.objects.create(
            tournament=tournament,
            game=game,
            call=_call(game, call),
            kind=kind,
            rule=rule,
            seat=seat,
            pair=pair_of_seat(game, seat) if seat else None,
            entry_seq=entry_seq,
            log_entries=[{"seq": e.seq, "text": e.text} for e in entries],
            reason=reason,
            judge=signed_in(actor),
            data=data or {},
        )
        audit_record(
            tournament=tournament,
            actor=actor,
            action=f"ruling_{kind}",
            target=game,
            data={"ruling": ruling.pk, "rule": rule, "entries": ruling.log_entries},
        )
        judging_changed(tournament_id=tournament.pk)
    return ruling


# The services take checked values (``judging.services.ruling_requests``, made by
# ``judging.serializers``): a reason, stripped and not empty where a ruling needs
# one; entry numbers; a seat letter; a rule id in capitals; a position read in the
# game's ruleset. They check what needs the game: the entries its log holds, the
# seats of its ruleset. ``ruling_make`` is the one entry point of the API and the
# review page; ``ruling_<kind>`` make one kind for a game and an actor.


def _uphold(table: JudgeAtTable, request: UpholdRequest) -> Ruling:
    """The log stands as it is (an ``! UPHOLD n`` entry records it)."""
    table.entry_check(request.seq)
    return rule_of(
        game=table.game, actor=table.actor, kind=Ruling.Kind.UPHOLD, reason=request.reason,
        rule=request.rule, texts=[checked_entry(f"! UPHOLD {request.seq}", table.game)],
        entry_seq=request.seq, call=request.call,
    )  # fmt: skip


def _void(table: JudgeAtTable, request: VoidRequest) -> Ruling:
    """Void entry ``seq`` (and ``also``); later entries that become illegal are void or kept.

    A kept entry needs a position correction (``position``): the engine
    counts it as played but cannot move its pawns any more.
    """
    voided = sorted({request.seq, *request.also})
    kept = sorted(set(request.keep) - set(voided))
    for n in (*voided, *kept):
        table.entry_check(n)
    if kept and request.position is None:
        raise ApplicationError(
            "position_required",
            _("Kept entries need the corrected position: set the pawns where they really stand."),
        )
    text = (
        "! VOID "
        + " ".join(map(str, voided))
        + (" KEEP " + " ".join(map(str, kept)) if kept else "")
    )
    texts = [checked_entry(text, table.game)]
    if request.position is not None:
        texts.append(_position_text(request.position))
    return rule_of(
        game=table.game, actor=table.actor, kind=Ruling.Kind.VOID, reason=request.reason,
        texts=texts, rule=request.rule, entry_seq=request.seq, call=request.call,
        data={"void": voided, "keep": kept},
    )  # fmt: skip


def _position_set(table: JudgeAtTable, request: PositionRequest) -> Ruling:
    """Set the pawns where they really stand."""
    text = _position_text(request.position)
    return rule_of(
        game=table.game, actor=table.actor, kind=Ruling.Kind.POSITION, reason=request.reason,
        texts=[text], call=request.call, data={"position": text[len("! SET "):]},
    )  # fmt: skip


def _penalty(table: JudgeAtTable, request: PenaltyRequest) -> Ruling:
    """P1 (3 cards next deal), P2 (a pawn of the talker home), P3/P4 (with the forced move)."""
    penalty, pawn, move = request.penalty, request.pawn, request.move
    seat = seat_check(request.seat, table.ruleset.seats)
    if penalty == "P1":
        text = f"! P1 {seat}"
    elif penalty == "P2":
        if not pawn:
            raise ApplicationError(
                "pawn_required",
                _("Pick the talker's pawn that goes back to its start circle."),
            )
        text = f"! P2 {seat} {pawn.strip().upper()}"
    else:
        text = f"! {penalty} {seat}" + (f" {move.strip()}" if move and move.strip() else "")
    return rule_of(
        game=table.game, actor=table.actor, kind=Ruling.Kind.PENALTY, reason=request.reason,
        texts=[checked_entry(text, table.game)], rule=penalty, seat=seat, call=request.call,
        data={"pawn": pawn, "move": move},
    )  # fmt: skip


def _warning(table: JudgeAtTable, request: WarningRequest) -> Ruling:
    """A warning to one player (e.g. P5, signalling); no effect on the game."""
    seat = seat_check(request.seat, table.ruleset.seats)
    rule = request.rule
    return rule_of(
        game=table.game, actor=table.actor, kind=Ruling.Kind.WARNING, reason=request.reason,
        texts=[checked_entry(f"! WARN {seat}" + (f" {rule}" if rule else ""), table.game)],
        rule=rule, seat=seat, call=request.call,
    )  # fmt: skip


def _result(table: JudgeAtTable, request: ResultRequest) -> Ruling:
    """Award or adjust a result (e.g. a forfeit); it goes to the standings at once."""
    game, winner, reason = table.game, request.winner, request.reason
    with transaction.atomic():
        ruling = rule_of(
            game=game, actor=table.actor, kind=Ruling.Kind.RESULT, reason=reason,
            texts=[checked_entry(f"! RESULT {winner}", game)], call=request.call,
            data={"winner": winner},
        )  # fmt: skip
        game_result_record(
            game=game, actor=table.actor, winner=winner, source="judge", note=reason[:500]
        )
    return ruling


# --- time-out adjudication (RULES W3; the proposal: judging.selectors_timeout) ----


def _adjudicate(table: JudgeAtTable, request: AdjudicationRequest | ResultRequest) -> Ruling:
    """Decide a game stopped at the time limit: confirm the engine's proposal or
    choose otherwise (a reason is then required).

    The one way a timed-out game is decided or re-decided (``ruling_make``
    sends an awarded result of such a game here too). The proposal is
    ``judging.selectors_timeout.timeout_proposal``: from the move log, else
    from the recorded result's numbers, else none (the judge writes why). The
    result goes to the standings marked as decided on time
    (``source="adjudicated"``, ``timed_out=True``). The game is read fresh
    before (``ruling_make``).
    """
    game, actor, winner, reason = table.game, table.actor, request.winner, request.reason
    if not is_timed_out(game):
        raise Conflict(
            "not_time_up",
            _("Only a game stopped at the time limit is adjudicated."),
        )
    proposal = timeout_proposal(game=game)
    override = winner != proposal.winner
    if override and not reason:
        raise ApplicationError("reason_required", _("Write the reason for the ruling."))
    if not reason:
        reason = proposal.reason_en
    unknown = SideStanding(distance=None, locked=None)
    teams = proposal.teams or {"YB": unknown, "RG": unknown}
    with transaction.atomic():
        ruling = rule_of(
            game=game, actor=actor, kind=Ruling.Kind.ADJUDICATION, reason=reason,
            rule=proposal.rule,
            texts=[checked_entry(f"! RESULT {winner} TIME", game)], call=request.call,
            data={"winner": winner, "proposal": proposal.winner, "override": override,
                  "teams": proposal.teams_json(), "order": proposal.order,
                  "source": proposal.source},
        )  # fmt: skip
        game_result_record(
            game=game,
            actor=actor,
            winner=winner,
            source="adjudicated",
            timed_out=True,
            locked_yb=teams["YB"].locked,
            locked_rg=teams["RG"].locked,
            distance_yb=teams["YB"].distance,
            distance_rg=teams["RG"].distance,
            note=reason[:500],
            override_reason=reason[:500] if override else "",
        )
    return ruling


@dataclasses.dataclass(frozen=True)
class RulingOutcome:
    """A ruling and, when it answered a judge call, what closing that call did."""

    ruling: Ruling
    call: CallClosing | None = None


def ruling_make(*, table: JudgeAtTable, request: RulingRequest) -> RulingOutcome:
    """One entry point for the judge's page and the API: the ruling ``request`` asks for.

    ``table`` has checked the judge; ``request`` comes checked
    (``judging.serializers.RulingInputSerializer``). A ruling that answers a judge
    call closes it in the same transaction, and a clock the call paused runs
    again, unless ``request.keep_call_open`` (more rulings to come there).
    """
    with transaction.atomic():
        ruling = _ruling_by_kind(table, request)
        if ruling.call_id is None or request.keep_call_open:
            return RulingOutcome(ruling=ruling)
        return RulingOutcome(
            ruling=ruling, call=judge_call_close_by_ruling(ruling=ruling, judge=table)
        )


def _ruling_by_kind(table: JudgeAtTable, request: RulingRequest) -> Ruling:
    table.game.refresh_from_db()
    finished = table.game.status == Game.Status.FINISHED
    if finished and not isinstance(request, ResultRequest | AdjudicationRequest | WarningRequest):
        raise Conflict(
            "game_finished",
            _("This game is finished: award or adjust its result instead."),
        )
    match request:
        case UpholdRequest():
            return _uphold(table, request)
        case VoidRequest():
            return _void(table, request)
        case PositionRequest():
            return _position_set(table, request)
        case PenaltyRequest():
            return _penalty(table, request)
        case WarningRequest():
            return _warning(table, request)
        case AdjudicationRequest():
            return _adjudicate(table, request)
        case ResultRequest():
            if is_timed_out(table.game):
                return _adjudicate(table, request)
            return _result(table, request)
    raise TypeError(f"not a ruling: {request!r}")


# --- one kind for a game and an actor (scripts, tests, other services) ----------


def ruling_uphold(
    *, game: Game, actor: Actor, seq: int, reason: str, call: int | None = None, rule: str = ""
) -> Ruling:
    """The log stands as it is (an ``! UPHOLD n`` entry records it)."""
    request = UpholdRequest(seq=seq, reason=reason, call=call, rule=rule)
    return _uphold(JudgeAtTable(game, actor), request)


def ruling_void(
    *,
    game: Game,
    actor: Actor,
    seq: int,
    reason: str,
    also: Sequence[int] = (),
    keep: Sequence[int] = (),
    position: AnyPosition | None = None,
    call: int | None = None,
    rule: str = "",
) -> Ruling:
    """Void entry ``seq`` (and ``also``), keeping ``keep`` with ``position`` corrected."""
    request = VoidRequest(
        seq=seq, reason=reason, also=tuple(also), keep=tuple(keep), position=position,
        call=call, rule=rule,
    )  # fmt: skip
    return _void(JudgeAtTable(game, actor), request)


def ruling_position_set(
    *, game: Game, actor: Actor, position: AnyPosition, reason: str, call: int | None = None
) -> Ruling:
    """Set the pawns where they really stand."""
    request = PositionRequest(position=position, reason=reason, call=call)
    return _position_set(JudgeAtTable(game, actor), request)


def ruling_penalty(
    *,
    game: Game,
    actor: Actor,
    penalty: str,
    seat: str,
    reason: str,
    pawn: str = "",
    move: str = "",
    call: int | None = None,
) -> Ruling:
    """P1 (3 cards next deal), P2 (a pawn of the talker home), P3/P4 (with the forced move)."""
    request = PenaltyRequest(
        penalty=penalty, seat=seat, reason=reason, pawn=pawn, move=move, call=call
    )
    return _penalty(JudgeAtTable(game, actor), request)


def ruling_warning(
    *, game: Game, actor: Actor, seat: str, reason: str, rule: str = "", call: int | None = None
) -> Ruling:
    """A warning to one player (e.g. P5, signalling); no effect on the game."""
    request = WarningRequest(seat=seat, reason=reason, rule=rule, call=call)
    return _warning(JudgeAtTable(game, actor), request)


def ruling_result(
    *, game: Game, actor: Actor, winner: str, reason: str, call: int | None = None
) -> Ruling:
    """Award or adjust a result (e.g. a forfeit); it goes to the standings at once."""
    request = ResultRequest(winner=winner, reason=reason, call=call)
    return _result(JudgeAtTable(game, actor), request)


def adjudication_decide(
    *, game: Game, actor: Actor, winner: str, reason: str = "", call: int | None = None
) -> Ruling:
    """Decide a game stopped at the time limit (``_adjudicate``), the game read fresh."""
    table = JudgeAtTable(game, actor)
    game.refresh_from_db()
    return _adjudicate(table, AdjudicationRequest(winner=winner, reason=reason, call=call))


def void_preview(
    *, table: JudgeAtTable, seq: int, also: Sequence[int] = ()
) -> list[dict[str, Any]]:
    """Later entries that become illegal if ``seq`` (and ``also``) are voided."""
    voided = sorted({seq, *also})
    game = table.game
    record = {"ruleset": game.round.tournament.ruleset, "first_dealer": game.first_dealer,
              "moves": list(table.entries.values())}  # fmt: skip
    try:
        return void_check(record, voided)
    except EngineError as err:
        raise ApplicationError(
            err.rule, err.message_en, err.message_da, status=422, extra={"rule": err.rule}
        ) from None
