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

import dataclasses
import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, PermissionDenied
from core.users import Actor
from games.models import Game
from games.signals import game_result_changed
from tournament.models import Round
from tournament.permissions import is_organiser, require_judge, require_organiser
from tournament.services.audit import audit_record, tournament_data_changed

PAWNS_PER_TEAM = 8
# RULES W3: start circle = 61 steps for each of a team's 8 pawns.
MAX_DISTANCE = 8 * 61
_RESULT_FIELDS = (
    "winner", "locked_yb", "locked_rg", "distance_yb", "distance_rg", "timed_out",
    "result_source", "result_note", "result_override",
)  # fmt: skip
MAX_NOTE = 500


def _invalid(code: str, en: str, da: str) -> ApplicationError:
    return ApplicationError(code, en, da)


def _number(value: Any, *, name: str, high: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise _invalid(
            "result_value_invalid",
            f"{name} must be a whole number from 0 to {high}.",
            f"{name} skal være et helt tal fra 0 til {high}.",
        )
    return value


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
                "The winner of a finished game has no distance left (RULES W1).",
                "Vinderen af et færdigspillet spil har ingen restdistance (regel W1).",
            )
    if distance[loser] == 0 and distance[winner] not in (None, 0):
        raise _invalid(
            "W3",
            "The losing pair cannot have less distance left than the winner.",
            "Det tabende par kan ikke have mindre restdistance end vinderen.",
        )


def adjudication_winner(
    order: str, locked: dict[str, int | None], distance: dict[str, int | None]
) -> tuple[str | None, str, str] | None:
    """The winner W3 gives from a result's numbers, with the reason in English and Danish.

    The same order as the engine's ``adjudicate`` applies to a position
    (``tests/games/test_results.py`` checks the two agree), here on the numbers
    as recorded, since a typed result has no position. The winner is None when
    the pairs are level; the answer is None when the numbers W3 needs are
    missing.
    """
    if order == "locked_then_distance":
        yb, rg = locked["YB"], locked["RG"]
        if yb is None or rg is None:
            return None
        if yb != rg:
            winner, loser = ("YB", "RG") if yb > rg else ("RG", "YB")
            return (
                winner,
                f"more locked pawns ({locked[winner]} against {locked[loser]})",
                f"flere brikker låst fast ({locked[winner]} mod {locked[loser]})",
            )
    yb, rg = distance["YB"], distance["RG"]
    if yb is None or rg is None:
        return None
    if yb == rg and order == "distance_to_house":
        # The printed rulebook's W3: level on distance to House, more pawns in House wins.
        in_house_yb, in_house_rg = locked["YB"], locked["RG"]
        if in_house_yb is not None and in_house_rg is not None and in_house_yb != in_house_rg:
            winner, loser = ("YB", "RG") if in_house_yb > in_house_rg else ("RG", "YB")
            return (
                winner,
                f"more pawns in House ({locked[winner]} against {locked[loser]})",
                f"flere brikker i Hus ({locked[winner]} mod {locked[loser]})",
            )
    if yb == rg:
        return None, f"{yb} steps left each", f"{yb} felter tilbage hver"
    winner, loser = ("YB", "RG") if yb < rg else ("RG", "YB")
    return (
        winner,
        f"less distance left ({distance[winner]} against {distance[loser]} steps)",
        f"kortere vej tilbage ({distance[winner]} mod {distance[loser]} felter)",
    )


_TEAM_NAMES = {"YB": ("Yellow/Blue", "Gul/Blå"), "RG": ("Red/Green", "Rød/Grøn")}


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
            f"Stopped at the time limit with the pairs level ({why_en}): W3 does not decide "
            "the game, so write why this pair wins (RULES W3).",
            f"Stoppet ved tidsgrænsen med parrene lige ({why_da}): W3 afgør ikke spillet, så "
            "skriv, hvorfor dette par vinder (regel W3).",
            extra={"rule": "W3", "adjudicated_winner": None},
        )
    name_en, name_da = _TEAM_NAMES[expected]
    raise ApplicationError(
        "W3",
        f"Stopped at the time limit, W3 gives the game to {name_en} ({expected}): {why_en}. "
        "Enter that winner, or write the judge's reason for deciding otherwise (RULES W3).",
        f"Stoppet ved tidsgrænsen giver W3 spillet til {name_da} ({expected}): {why_da}. "
        "Indtast den vinder, eller skriv dommerens begrundelse for at afgøre det anderledes "
        "(regel W3).",
        extra={"rule": "W3", "adjudicated_winner": expected},
    )


def _side_pawns(tournament: Any) -> int:
    """The pawns of one side: 8 for a pair, 6 for a DUO player (duo.md S2)."""
    from games.engine import get_ruleset

    return get_ruleset(tournament.ruleset).pawns_per_side


def adjudication_order(tournament: Any) -> str:
    """The W3 order of an event: the organiser's choice, unless the ruleset's
    reading fixes its own (the printed rulebook: distance to House, then more
    pawns in House)."""
    from games.engine import get_ruleset

    rules = get_ruleset(tournament.ruleset)
    own = rules.adjudication
    if rules.adjudication_fixed or own not in tournament.Adjudication.values:
        return own  # DUO W2: remaining distance, whatever the event's setting
    return str(tournament.adjudication)


def adjudication_proposal(*, game: Game) -> dict[str, Any]:
    """The engine's W3 proposal from the table's logged position, in the event's order."""
    from games.engine import adjudicate, get_ruleset, position_from_json
    from games.services.move_log import game_state

    tournament = game.round.tournament
    state = game_state(game=game, with_entries=False)
    ruleset = dataclasses.replace(
        get_ruleset(tournament.ruleset), adjudication=adjudication_order(tournament)
    )
    proposal = adjudicate(position_from_json(state["position"], ruleset), ruleset)
    return {**proposal, "position": state["position"], "locked": state["locked"]}


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
        proposal["winner"],
        "from the table's move log: " + _RULE_SUFFIX.sub("", proposal["reason_en"]),
        "ifølge bordets træklog: " + _RULE_SUFFIX.sub("", proposal["reason_da"]),
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
        raise _invalid("result_source_invalid", "Unknown result source.", "Ukendt resultatkilde.")
    if game.round.status == Round.Status.DRAFT:
        raise Conflict(
            "round_not_published",
            "This round is not published yet; results cannot be entered.",
            "Runden er ikke offentliggjort endnu; der kan ikke indtastes resultater.",
        )
    if game.round.status == Round.Status.CLOSED and not is_organiser(actor, tournament):
        raise PermissionDenied(
            "This round is closed; only an organiser can change its results.",
            "Runden er lukket; kun en arrangør kan ændre dens resultater.",
        )
    if (
        game.round.kind in (Round.Kind.KNOCKOUT, Round.Kind.PLAYOFF)
        and tournament.rounds.filter(number__gt=game.round.number).exists()
    ):
        raise Conflict(
            "knockout_moved_on",
            "The next knockout round has been made from this result; it can no longer change.",
            "Næste knockout-runde er lavet ud fra dette resultat; det kan ikke længere ændres.",
        )


def _text(value: Any, name_en: str, name_da: str) -> str:
    text = str(value or "").strip()
    if len(text) > MAX_NOTE:
        raise _invalid(
            "note_too_long",
            f"{name_en} may be at most {MAX_NOTE} characters.",
            f"{name_da} må højst være {MAX_NOTE} tegn.",
        )
    return text


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

    A time-out result that W3 decides the other way (or not at all, the
    pairs being level) is refused unless ``override_reason`` says why.
    """
    game = (
        Game.objects.select_for_update()
        .select_related("round__tournament", "pair_yb", "pair_rg")
        .get(pk=game.pk)
    )
    _authorise(game, actor, source)
    if winner not in (Game.Winner.YB, Game.Winner.RG):
        raise _invalid(
            "result_winner_invalid",
            "The winner must be Yellow/Blue (YB) or Red/Green (RG).",
            "Vinderen skal være Gul/Blå (YB) eller Rød/Grøn (RG).",
        )
    pawns = _side_pawns(game.round.tournament)
    locked = {
        "YB": _number(locked_yb, name="locked_yb", high=pawns),
        "RG": _number(locked_rg, name="locked_rg", high=pawns),
    }
    distance = {
        "YB": _number(distance_yb, name="distance_yb", high=MAX_DISTANCE),
        "RG": _number(distance_rg, name="distance_rg", high=MAX_DISTANCE),
    }
    _check_consistent(winner, locked, distance, bool(timed_out), pawns)
    note = _text(note, "The note", "Noten")
    override_reason = _text(override_reason, "The reason", "Begrundelsen")
    override = (
        _timeout_override(game, winner, locked, distance, override_reason) if timed_out else ""
    )
    before = _snapshot(game)
    now = timezone.now()
    game.winner = winner
    game.locked_yb, game.locked_rg = locked["YB"], locked["RG"]
    game.distance_yb, game.distance_rg = distance["YB"], distance["RG"]
    game.timed_out = bool(timed_out)
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
            "Give a reason for clearing the result.",
            "Angiv en begrundelse for at slette resultatet.",
        )
    if not game.winner:
        raise Conflict("result_missing", "This game has no result.", "Spillet har intet resultat.")
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
    return game
