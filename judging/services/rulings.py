"""Rulings: uphold, void, correct the position, penalties, warnings, results.

Each ruling that changes the game is written as judge entries into the
game's move log (``games.services.move_log.judge_entries_append``), where the
engine checks the whole record before anything is stored; the ``Ruling`` row
keeps who, when, why and the rule. Both happen in one transaction, so a
refused ruling changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict
from core.users import Actor, signed_in
from games.engine import (
    EngineError,
    JudgeEntry,
    format_judge_entry,
    get_ruleset,
    parse_judge_entry,
    position_from_json,
    void_check,
)
from games.models import Game
from games.selectors import game_log
from games.selectors.adjudication import SideStanding
from games.services.results import game_result_record
from judging.models import JudgeCall, Ruling
from judging.selectors_timeout import is_timed_out, timeout_proposal
from judging.services.calls import CallClosing, judge_call_close
from judging.services.common import pair_of_seat, seat_check
from judging.services.freshness import judging_changed
from tournament.permissions import require_judge
from tournament.services.audit import audit_record

RulingKind = Literal["uphold", "void", "position", "penalty", "warning", "result", "adjudication"]


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


def _position_text(position: Any, game: Game) -> str:
    if isinstance(position, str):
        return checked_entry(f"! SET {position}", game)
    ruleset = get_ruleset(game.round.tournament.ruleset)
    if not isinstance(position, dict):
        if ruleset.players == 2:
            raise ApplicationError(
                "position_invalid",
                _("Give the DUO position as YK, RK, YO, RO with three locations each."),
            )
        raise ApplicationError(
            "position_invalid",
            _("Give the position as Y, R, B, G with four locations each."),
        )
    try:
        pos = position_from_json(position, ruleset)
    except EngineError as err:
        raise ApplicationError(
            err.rule, err.message_en, err.message_da, status=400, extra={"rule": err.rule}
        ) from None
    return format_judge_entry(JudgeEntry("SET", position=pos))


def _call(game: Game, call_id: int | None) -> JudgeCall | None:
    """The judge call a ruling answers (one of this table's), or None."""
    if call_id is None:
        return None
    return JudgeCall.objects.filter(pk=call_id, game=game).first()


def _active_seqs(game: Game, seqs: Sequence[int]) -> None:
    """Each of ``seqs`` is an active entry of the log: read once for all of them,
    as the log's replayed view (the table's state with its legal moves is not needed)."""
    active = {entry["seq"] for entry in game_log(game=game).entries}
    for seq in seqs:
        if seq not in active:
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
            log_entries=[{"seq": e["seq"], "text": e["text"]} for e in entries],
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


# The services take checked values (``judging.serializers``): a reason, stripped
# and not empty where a ruling needs one; entry numbers; a seat letter; a rule id
# in capitals. They check what needs the game: who may rule, the entries its log
# holds, the seats of its ruleset.


def ruling_uphold(
    *, game: Game, actor: Actor, seq: int, reason: str, call: int | None = None, rule: str = ""
) -> Ruling:
    """The log stands as it is (an ``! UPHOLD n`` entry records it)."""
    require_judge(actor, game.round.tournament)
    _active_seqs(game, (seq,))
    return rule_of(
        game=game, actor=actor, kind=Ruling.Kind.UPHOLD, reason=reason, rule=rule,
        texts=[checked_entry(f"! UPHOLD {seq}", game)], entry_seq=seq, call=call,
    )  # fmt: skip


def ruling_void(
    *,
    game: Game,
    actor: Actor,
    seq: int,
    reason: str,
    also: Sequence[int] = (),
    keep: Sequence[int] = (),
    position: Any = None,
    call: int | None = None,
    rule: str = "",
) -> Ruling:
    """Void entry ``seq`` (and ``also``); later entries that become illegal are void or kept.

    A kept entry needs a position correction (``position``): the engine
    counts it as played but cannot move its pawns any more.
    """
    require_judge(actor, game.round.tournament)
    voided = sorted({seq, *also})
    kept = sorted(set(keep) - set(voided))
    _active_seqs(game, (*voided, *kept))
    if kept and position is None:
        raise ApplicationError(
            "position_required",
            _("Kept entries need the corrected position: set the pawns where they really stand."),
        )
    text = (
        "! VOID "
        + " ".join(map(str, voided))
        + (" KEEP " + " ".join(map(str, kept)) if kept else "")
    )
    texts = [checked_entry(text, game)]
    if position is not None:
        texts.append(_position_text(position, game))
    return rule_of(
        game=game, actor=actor, kind=Ruling.Kind.VOID, reason=reason, texts=texts,
        rule=rule, entry_seq=seq, call=call, data={"void": voided, "keep": kept},
    )  # fmt: skip


def ruling_position_set(
    *, game: Game, actor: Actor, position: Any, reason: str, call: int | None = None
) -> Ruling:
    """Set the pawns where they really stand."""
    require_judge(actor, game.round.tournament)
    text = _position_text(position, game)
    return rule_of(
        game=game, actor=actor, kind=Ruling.Kind.POSITION, reason=reason, texts=[text],
        call=call, data={"position": text[len("! SET "):]},
    )  # fmt: skip


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
    require_judge(actor, game.round.tournament)
    seat = seat_check(seat, get_ruleset(game.round.tournament.ruleset).seats)
    if penalty == "P1":
        text = f"! P1 {seat}"
    elif penalty == "P2":
        if not pawn:
            raise ApplicationError(
                "pawn_required",
                _("Pick the talker's pawn that goes back to its start circle."),
            )
        text = f"! P2 {seat} {str(pawn).strip().upper()}"
    else:
        text = f"! {penalty} {seat}" + (f" {move.strip()}" if move and move.strip() else "")
    return rule_of(
        game=game, actor=actor, kind=Ruling.Kind.PENALTY, reason=reason,
        texts=[checked_entry(text, game)], rule=penalty, seat=seat, call=call,
        data={"pawn": pawn, "move": move},
    )  # fmt: skip


def ruling_warning(
    *, game: Game, actor: Actor, seat: str, reason: str, rule: str = "", call: int | None = None
) -> Ruling:
    """A warning to one player (e.g. P5, signalling); no effect on the game."""
    require_judge(actor, game.round.tournament)
    seat = seat_check(seat, get_ruleset(game.round.tournament.ruleset).seats)
    return rule_of(
        game=game, actor=actor, kind=Ruling.Kind.WARNING, reason=reason,
        texts=[checked_entry(f"! WARN {seat}" + (f" {rule}" if rule else ""), game)],
        rule=rule, seat=seat, call=call,
    )  # fmt: skip


def ruling_result(
    *, game: Game, actor: Actor, winner: str, reason: str, call: int | None = None
) -> Ruling:
    """Award or adjust a result (e.g. a forfeit); it goes to the standings at once."""
    require_judge(actor, game.round.tournament)
    with transaction.atomic():
        ruling = rule_of(
            game=game, actor=actor, kind=Ruling.Kind.RESULT, reason=reason,
            texts=[checked_entry(f"! RESULT {winner}", game)], call=call, data={"winner": winner},
        )  # fmt: skip
        game_result_record(game=game, actor=actor, winner=winner, source="judge", note=reason[:500])
    return ruling


# --- time-out adjudication (RULES W3; the proposal: games.services.results) ----


def adjudication_decide(
    *, game: Game, actor: Actor, winner: str, reason: str = "", call: int | None = None
) -> Ruling:
    """Decide a game stopped at the time limit: confirm the engine's proposal or
    choose otherwise (a reason is then required).

    The one way a timed-out game is decided or re-decided (``ruling_make``
    sends an awarded result of such a game here too). The proposal is
    ``judging.selectors_timeout.timeout_proposal``: from the move log, else
    from the recorded result's numbers, else none (the judge writes why). The
    result goes to the standings marked as decided on time
    (``source="adjudicated"``, ``timed_out=True``).
    """
    require_judge(actor, game.round.tournament)
    game.refresh_from_db()
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
            texts=[checked_entry(f"! RESULT {winner} TIME", game)], call=call,
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


def ruling_make(
    *, game: Game, actor: Actor, kind: RulingKind, data: dict[str, Any]
) -> RulingOutcome:
    """One entry point for the judge's page and the API: dispatch on ``kind``.

    ``kind`` and ``data`` come checked (``judging.serializers.ruling_input``).
    A ruling that answers a judge call (``data["call"]``) closes it in the
    same transaction, and a clock the call paused runs again, unless
    ``data["keep_call_open"]`` (more rulings to come at that table).
    """
    with transaction.atomic():
        ruling = _ruling_by_kind(game=game, actor=actor, kind=kind, data=data)
        if ruling.call_id is None or data.get("keep_call_open"):
            return RulingOutcome(ruling=ruling)
        return RulingOutcome(
            ruling=ruling, call=judge_call_close(call_id=ruling.call_id, actor=actor)
        )


def _ruling_by_kind(*, game: Game, actor: Actor, kind: RulingKind, data: dict[str, Any]) -> Ruling:
    reason, call = data["reason"], data.get("call")
    game.refresh_from_db(fields=["status", "timed_out", "winner"])
    if game.status == Game.Status.FINISHED and kind not in ("result", "adjudication", "warning"):
        require_judge(actor, game.round.tournament)
        raise Conflict(
            "game_finished",
            _("This game is finished: award or adjust its result instead."),
        )
    if kind == "uphold":
        return ruling_uphold(
            game=game, actor=actor, seq=data["seq"], reason=reason, call=call,
            rule=data.get("rule", ""),
        )  # fmt: skip
    if kind == "void":
        return ruling_void(
            game=game, actor=actor, seq=data["seq"], reason=reason, call=call,
            also=data.get("also", ()), keep=data.get("keep", ()), position=data.get("position"),
            rule=data.get("rule", ""),
        )  # fmt: skip
    if kind == "position":
        return ruling_position_set(
            game=game, actor=actor, position=data.get("position"), reason=reason, call=call
        )
    if kind == "penalty":
        return ruling_penalty(
            game=game, actor=actor, penalty=data["penalty"], seat=data["seat"], reason=reason,
            pawn=data.get("pawn", ""), move=data.get("move", ""), call=call,
        )  # fmt: skip
    if kind == "warning":
        return ruling_warning(
            game=game, actor=actor, seat=data["seat"], reason=reason,
            rule=data.get("rule", ""), call=call,
        )  # fmt: skip
    if kind == "adjudication" or (kind == "result" and is_timed_out(game)):
        return adjudication_decide(
            game=game, actor=actor, winner=data["winner"], reason=reason, call=call
        )
    return ruling_result(game=game, actor=actor, winner=data["winner"], reason=reason, call=call)


def void_preview(
    *, game: Game, actor: Actor, seq: int, also: Sequence[int] = ()
) -> list[dict[str, Any]]:
    """Later entries that become illegal if ``seq`` (and ``also``) are voided."""
    require_judge(actor, game.round.tournament)
    voided = sorted({seq, *also})
    moves = [e["text"] for e in game_log(game=game).entries]
    record = {"ruleset": game.round.tournament.ruleset, "first_dealer": game.first_dealer,
              "moves": moves}  # fmt: skip
    try:
        return void_check(record, voided)
    except EngineError as err:
        raise ApplicationError(
            err.rule, err.message_en, err.message_da, status=422, extra={"rule": err.rule}
        ) from None
