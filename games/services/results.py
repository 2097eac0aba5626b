"""Game results: record, correct and clear them (every change audited).

The organiser types results for now (``source="typed"``); the move log
(``"log"``, no actor), judges (``"judge"``) and time-out adjudication
(``"adjudicated"``) call the same service later.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game
from tournament.errors import ApplicationError, Conflict, PermissionDenied
from tournament.models import Round
from tournament.permissions import is_organiser, require_judge, require_organiser
from tournament.services.audit import audit_record, tournament_data_changed

PAWNS_PER_TEAM = 8
# RULES W3: start circle = 61 steps for each of a team's 8 pawns.
MAX_DISTANCE = 8 * 61
_RESULT_FIELDS = (
    "winner", "locked_yb", "locked_rg", "distance_yb", "distance_rg", "timed_out",
    "result_source", "result_note",
)  # fmt: skip


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
    winner: str, locked: dict[str, int | None], distance: dict[str, int | None], timed_out: bool
) -> None:
    loser = "RG" if winner == "YB" else "YB"
    if locked[loser] == PAWNS_PER_TEAM:
        raise _invalid(
            "W1",
            "The losing pair cannot have all 8 pawns locked (RULES W1).",
            "Det tabende par kan ikke have alle 8 brikker i hus (regel W1).",
        )
    if not timed_out:
        if locked[winner] is not None and locked[winner] != PAWNS_PER_TEAM:
            raise _invalid(
                "W1",
                "A game that was not stopped on time is won with all 8 pawns locked (RULES W1); "
                "mark it as timed out otherwise.",
                "Et spil, der ikke blev stoppet på tid, vindes med alle 8 brikker i hus "
                "(regel W1); markér det ellers som tidsudløb.",
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


def _authorise(game: Game, actor: Any, source: str) -> None:
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
        game.round.kind == Round.Kind.KNOCKOUT
        and tournament.rounds.filter(number__gt=game.round.number).exists()
    ):
        raise Conflict(
            "knockout_moved_on",
            "The next knockout round has been made from this result; it can no longer change.",
            "Næste knockout-runde er lavet ud fra dette resultat; det kan ikke længere ændres.",
        )


def _snapshot(game: Game) -> dict[str, Any]:
    return {f: getattr(game, f) for f in _RESULT_FIELDS}


@transaction.atomic
def game_result_record(
    *,
    game: Game,
    actor: Any,
    winner: str,
    locked_yb: int | None = None,
    locked_rg: int | None = None,
    distance_yb: int | None = None,
    distance_rg: int | None = None,
    timed_out: bool = False,
    source: str = "typed",
    note: str = "",
) -> Game:
    """Record (or correct) the result of a game; corrections are audited."""
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
    locked = {
        "YB": _number(locked_yb, name="locked_yb", high=PAWNS_PER_TEAM),
        "RG": _number(locked_rg, name="locked_rg", high=PAWNS_PER_TEAM),
    }
    distance = {
        "YB": _number(distance_yb, name="distance_yb", high=MAX_DISTANCE),
        "RG": _number(distance_rg, name="distance_rg", high=MAX_DISTANCE),
    }
    _check_consistent(winner, locked, distance, bool(timed_out))
    note = str(note or "").strip()
    if len(note) > 500:
        raise _invalid("note_too_long", "The note is too long.", "Noten er for lang.")
    before = _snapshot(game)
    now = timezone.now()
    game.winner = winner
    game.locked_yb, game.locked_rg = locked["YB"], locked["RG"]
    game.distance_yb, game.distance_rg = distance["YB"], distance["RG"]
    game.timed_out = bool(timed_out)
    game.result_source = source
    game.result_note = note
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
    return game


@transaction.atomic
def game_result_clear(*, game: Game, actor: Any, reason: str) -> Game:
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
    return game
