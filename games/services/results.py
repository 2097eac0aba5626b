"""Game results: record, correct and clear them (every change audited).

The organiser types results (``source="typed"``); the move log (``"log"``,
no actor), judges (``"judge"``) and time-out adjudication (``"adjudicated"``)
call the same service.

A result stopped at the time limit must agree with the event's adjudication
(RULES W3: fewer steps left wins, or more locked pawns first and then fewer
steps), or carry a judge's reason for deciding otherwise
(``override_reason``, stored, shown and audited): otherwise a winner with
more distance left would feed the distance tiebreak as if it had been ahead.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, PermissionDenied, Text, bilingual
from core.users import Actor
from games.models import Game
from games.push import game_changed
from games.selectors.adjudication import (
    adjudication_order,
    adjudication_proposal,
    adjudication_winner,
)
from games.signals import game_result_changed
from games.validators import PAWNS_PER_TEAM
from tournament.models import Round
from tournament.permissions import is_organiser, require_judge, require_organiser
from tournament.services.audit import audit_record, tournament_data_changed

_RESULT_FIELDS = (
    "winner", "locked_yb", "locked_rg", "distance_yb", "distance_rg", "timed_out",
    "result_source", "result_note", "result_override",
)  # fmt: skip


def _invalid(code: str, message: Text, *, params: dict[str, Any] | None = None) -> ApplicationError:
    return ApplicationError(code, message, params=params)


def _check_pawns(locked: dict[str, int | None], pawns: int) -> None:
    """No side locks more pawns than it has: 8 for a pair, 6 for a DUO player."""
    for side, name in (("YB", "locked_yb"), ("RG", "locked_rg")):
        count = locked[side]
        if count is not None and count > pawns:
            raise _invalid(
                "result_value_invalid",
                _("%(name)s must be a whole number from 0 to %(high)s."),
                params={"name": name, "high": pawns},
            )


def _check_consistent(
    winner: str,
    locked: dict[str, int | None],
    distance: dict[str, int | None],
    timed_out: bool,
    pawns: int = PAWNS_PER_TEAM,
) -> None:
    """``pawns``: a side's pawns (8 for a pair; 6 for a DUO player, duo.md W1)."""
    loser = "RG" if winner == "YB" else "YB"
    if locked[loser] == pawns:
        raise ApplicationError(
            "W1",
            _("The losing side cannot have all %(pawns)d pawns locked (RULES W1)."),
            params={"pawns": pawns},
        )
    if not timed_out:
        if locked[winner] is not None and locked[winner] != pawns:
            raise ApplicationError(
                "W1",
                _(
                    "A game that was not stopped on time is won with all %(pawns)d pawns "
                    "locked (RULES W1); mark it as timed out otherwise."
                ),
                params={"pawns": pawns},
            )
        if distance[winner] not in (None, 0):
            raise _invalid(
                "W1",
                _("The winner of a finished game has no distance left (RULES W1)."),
            )
    if distance[loser] == 0 and distance[winner] not in (None, 0):
        raise _invalid(
            "W3",
            _("The losing pair cannot have less distance left than the winner."),
        )


_TEAM_NAMES = {"YB": _("Yellow/Blue"), "RG": _("Red/Green")}


def _timeout_override(
    game: Game,
    winner: str,
    locked: dict[str, int | None],
    distance: dict[str, int | None],
    override_reason: str,
) -> str:
    """The override reason to store for a time-out result, or a W3 refusal.

    "" when the result agrees with W3 or W3 cannot be worked out (the numbers
    are missing and there is no readable move log to take them from).
    """
    order = adjudication_order(game.round.tournament)
    decided = adjudication_winner(order, locked, distance)
    if decided is None:
        decided = _adjudication_from_log(game)
    if decided is None:
        return ""
    expected, why_en, why_da = decided
    if expected == winner:
        return ""
    if override_reason:
        return override_reason
    if expected is None:
        raise ApplicationError(
            "W3",
            _(
                "Stopped at the time limit with the pairs level (%(why)s): W3 does not decide "
                "the game, so write why this pair wins (RULES W3)."
            ),
            params={"why": bilingual(why_en, why_da)},
            extra={"rule": "W3", "adjudicated_winner": None},
        )
    raise ApplicationError(
        "W3",
        _(
            "Stopped at the time limit, W3 gives the game to %(team)s (%(expected)s): %(why)s. "
            "Enter that winner, or write the judge's reason for deciding otherwise (RULES W3)."
        ),
        params={
            "team": _TEAM_NAMES[expected],
            "expected": expected,
            "why": bilingual(why_en, why_da),
        },
        extra={"rule": "W3", "adjudicated_winner": expected},
    )


def _side_pawns(tournament: Any) -> int:
    """The pawns of one side: 8 for a pair, 6 for a DUO player (duo.md S2)."""
    from games.engine import get_ruleset

    return get_ruleset(tournament.ruleset).pawns_per_side


_RULE_SUFFIX = re.compile(r" \(W\d\)\.$")
"""The rule a proposal's reason ends with: W3, or DUO's W2."""


def _adjudication_from_log(game: Game) -> tuple[str | None, str, str] | None:
    """W3 from the table's move log when the result carries no numbers (None without a log)."""
    from games.engine import EngineError

    if not game.move_entries.filter(withdrawn_at__isnull=True).exists():
        return None
    try:
        proposal = adjudication_proposal(game=game)
    except EngineError:
        return None  # a log the engine cannot read decides nothing
    return (
        proposal.winner,
        "from the table's move log: " + _RULE_SUFFIX.sub("", proposal.reason_en),
        "ifølge bordets træklog: " + _RULE_SUFFIX.sub("", proposal.reason_da),
    )


def _authorise(game: Game, actor: Actor | None, source: str) -> None:
    tournament = game.round.tournament
    if source == Game.ResultSource.TYPED:
        require_organiser(actor, tournament)
    elif source in (Game.ResultSource.JUDGE, Game.ResultSource.ADJUDICATED):
        require_judge(actor, tournament)
    elif source == Game.ResultSource.LOG:
        # The table's own token is checked by the move-log service; a
        # signed-in caller must be staff of this event.
        if actor is not None:
            require_judge(actor, tournament)
    else:
        raise _invalid("result_source_invalid", _("Unknown result source."))
    if game.round.status == Round.Status.DRAFT:
        raise Conflict(
            "round_not_published",
            _("This round is not published yet; results cannot be entered."),
        )
    if game.round.status == Round.Status.CLOSED and not is_organiser(actor, tournament):
        raise PermissionDenied(
            _("This round is closed; only an organiser can change its results."),
        )
    if (
        game.round.kind in (Round.Kind.KNOCKOUT, Round.Kind.PLAYOFF)
        and tournament.rounds.filter(number__gt=game.round.number).exists()
    ):
        raise Conflict(
            "knockout_moved_on",
            _("The next knockout round has been made from this result; it can no longer change."),
        )


def _snapshot(game: Game) -> dict[str, Any]:
    return {f: getattr(game, f) for f in _RESULT_FIELDS}


@transaction.atomic
def game_result_record(
    *,
    game: Game,
    actor: Actor | None,
    winner: str,
    locked_yb: int | None = None,
    locked_rg: int | None = None,
    distance_yb: int | None = None,
    distance_rg: int | None = None,
    timed_out: bool = False,
    source: str = "typed",
    note: str = "",
    override_reason: str = "",
) -> Game:
    """Record (or correct) the result of a game; corrections are audited.

    The values come checked field by field (``games.validators``: the API's
    ``ResultInputSerializer``, the page's ``ResultForm``, a ruling's
    serializer): ``winner`` is ``"YB"`` or ``"RG"``, the numbers are whole
    and in range, the texts at most ``MAX_NOTE`` characters. Here: the
    permissions, the pawns of this ruleset's side, and W1/W3.

    A time-out result that W3 decides the other way (or not at all, the
    pairs being level) is refused unless ``override_reason`` says why.
    """
    game = (
        Game.objects.select_for_update()
        .select_related("round__tournament", "pair_yb", "pair_rg")
        .get(pk=game.pk)
    )
    _authorise(game, actor, source)
    pawns = _side_pawns(game.round.tournament)
    locked = {"YB": locked_yb, "RG": locked_rg}
    distance = {"YB": distance_yb, "RG": distance_rg}
    _check_pawns(locked, pawns)
    _check_consistent(winner, locked, distance, timed_out, pawns)
    override = (
        _timeout_override(game, winner, locked, distance, override_reason) if timed_out else ""
    )
    before = _snapshot(game)
    now = timezone.now()
    game.winner = winner
    game.locked_yb, game.locked_rg = locked["YB"], locked["RG"]
    game.distance_yb, game.distance_rg = distance["YB"], distance["RG"]
    game.timed_out = timed_out
    game.result_source = source
    game.result_note = note
    game.result_override = override
    game.result_recorded_at = now
    game.status = Game.Status.FINISHED
    game.finished_at = game.finished_at or now
    after = _snapshot(game)
    if before == after:
        return game
    game.save()
    tournament = game.round.tournament
    audit_record(
        tournament=tournament,
        actor=actor,
        action="game_result_correct" if before["winner"] else "game_result_record",
        target=game,
        data={"before": before, "after": after},
    )
    tournament_data_changed(tournament=tournament)
    game_result_changed.send(sender=Game, game=game)
    game_changed(game=game, kind="result")
    return game


@transaction.atomic
def game_result_clear(*, game: Game, actor: Actor, reason: str) -> Game:
    """Remove a result (organiser only, with a reason)."""
    game = Game.objects.select_for_update().select_related("round__tournament").get(pk=game.pk)
    require_organiser(actor, game.round.tournament)
    _authorise(game, actor, Game.ResultSource.TYPED)
    reason = str(reason or "").strip()
    if not reason:
        raise _invalid(
            "reason_required",
            _("Give a reason for clearing the result."),
        )
    if not game.winner:
        raise Conflict("result_missing", _("This game has no result."))
    before = _snapshot(game)
    game.winner = ""
    game.locked_yb = game.locked_rg = game.distance_yb = game.distance_rg = None
    game.timed_out = False
    game.result_source = ""
    game.result_note = ""
    game.result_override = ""
    game.result_recorded_at = None
    game.finished_at = None
    game.status = Game.Status.IN_PROGRESS if game.started_at else Game.Status.SCHEDULED
    game.save()
    audit_record(
        tournament=game.round.tournament,
        actor=actor,
        action="game_result_clear",
        target=game,
        data={"before": before, "reason": reason[:500]},
    )
    tournament_data_changed(tournament=game.round.tournament)
    game_result_changed.send(sender=Game, game=game)
    game_changed(game=game, kind="result")
    return game
