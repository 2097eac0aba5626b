"""Swiss (Monrad) rounds: pair, preview, swap, re-pair, publish, start, close.

The computation itself is ``pairing_core.pair_round_core`` on plain data;
this module gathers that data from the database, stores the result and
guards the round's life cycle (DRAFT -> PUBLISHED -> IN_PROGRESS -> CLOSED).
"""

from __future__ import annotations

import secrets
from collections import Counter, defaultdict

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from competition.models import HandOver
from competition.selectors import standings_for_tournament
from core.errors import ApplicationError, Conflict, Text
from core.users import Actor
from games.models import Game
from games.services.tables import (
    TablePlan,
    round_games_create,
    round_games_start,
    round_games_started,
)
from tournament.models import Bye, Pair, Round, Tournament
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.services.pairing_core import PairingEntry, PairingResult, pair_round_core
from tournament.services.status import status_change_guarded

METHODS = ("auto", "seed", "random")


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _lock_round(round_: Round) -> Round:
    """Lock the row and refresh the caller's instance, so it sees the change."""
    Round.objects.select_for_update().filter(pk=round_.pk).values_list("pk").get()
    round_.refresh_from_db()
    return round_


def new_random_seed() -> int:
    # Fits a signed 64-bit column; recorded on the round so the draw can be
    # reproduced and checked afterwards.
    return secrets.randbits(62)


def require_complete(round_: Round) -> None:
    """Refuse unless every game of the round has a result."""
    missing = list(
        round_.games.filter(winner="")
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )
    if round_.status == Round.Status.DRAFT or missing:
        tables = ", ".join(str(t) for t in missing[:20]) or "-"
        raise Conflict(
            "round_not_complete",
            _("Round %(number)s is not complete (tables without a result: %(tables)s)."),
            params={"number": round_.number, "tables": tables},
            extra={"tables": missing},
        )


def _history(
    tournament: Tournament, before_round: int
) -> tuple[set[frozenset[int]], dict[int, list[str]], Counter[int]]:
    """Earlier meetings, colours per pair (oldest first) and Swiss byes per pair."""
    played: set[frozenset[int]] = set()
    colours: dict[int, list[str]] = defaultdict(list)
    games = (
        Game.objects.filter(round__tournament=tournament, round__number__lt=before_round)
        .order_by("round__number")
        .values_list("pair_yb_id", "pair_rg_id")
    )
    for yb, rg in games:
        played.add(frozenset((yb, rg)))
        colours[yb].append("YB")
        colours[rg].append("RG")
    byes = Counter(
        Bye.objects.filter(
            round__tournament=tournament,
            round__kind=Round.Kind.SWISS,
            round__number__lt=before_round,
        ).values_list("pair_id", flat=True)
    )
    return played, colours, byes


def _entries(
    tournament: Tournament, number: int, method: str
) -> tuple[list[PairingEntry], set[frozenset[int]]]:
    active = {
        p.pk: p
        for p in Pair.objects.filter(
            tournament=tournament, status=Pair.Status.CHECKED_IN
        ).select_related("player_1", "player_2")
    }
    played, colours, byes = _history(tournament, number)
    if method == "seed":
        order = sorted(active.values(), key=lambda p: (p.seed is None, p.seed or 0, p.start_number))
        ids = [p.pk for p in order]
        points = dict.fromkeys(ids, 0)
    elif method == "random":
        ids = sorted(active, key=lambda pk: active[pk].start_number)
        points = dict.fromkeys(ids, 0)
    else:
        rows = standings_for_tournament(tournament=tournament, up_to_round=number - 1)
        ids = [r.pair_id for r in rows if r.pair_id in active]
        ids += sorted(set(active) - set(ids), key=lambda pk: active[pk].start_number)
        points = {r.pair_id: r.points for r in rows}
    entries = [
        PairingEntry(
            pair_id=pk,
            points=points.get(pk, 0),
            start_number=active[pk].start_number,
            byes=byes[pk],
            colours=tuple(colours.get(pk, ())),
            fixed_table=active[pk].fixed_table,
            name=active[pk].display_name,
        )
        for pk in ids
    ]
    return entries, played


def _store(round_: Round, result: PairingResult, tournament: Tournament) -> None:
    round_games_create(
        round_=round_,
        tables=[
            TablePlan(
                table_number=t.table_number,
                pair_yb_id=t.pair_yb,
                pair_rg_id=t.pair_rg,
                first_dealer=t.first_dealer,
            )
            for t in result.tables
        ],
    )
    if result.bye is not None:
        Bye.objects.create(round=round_, pair_id=result.bye, points=tournament.points_bye)
    round_.warnings = result.warnings
    round_.explanation = {
        str(t.table_number): {"en": t.explanation_en, "da": t.explanation_da} for t in result.tables
    }
    round_.save(update_fields=["warnings", "explanation"])


def _pair_into(round_: Round, tournament: Tournament) -> PairingResult:
    method = round_.pairing_method
    entries, played = _entries(tournament, round_.number, method)
    if len(entries) < 2:
        raise ApplicationError(
            "not_enough_pairs",
            _("At least two checked-in pairs are needed to pair a round."),
        )
    result = pair_round_core(
        entries,
        played,
        seed=round_.random_seed or 0,
        first_round=method if method in ("seed", "random") else None,
        seats=tournament.seats,
    )
    _store(round_, result, tournament)
    return result


@transaction.atomic
def round_pair(
    *, tournament: Tournament, actor: Actor, method: str = "auto", random_seed: int | None = None
) -> Round:
    """Pair the next Swiss round as a DRAFT (preview) with its games and bye."""
    require_organiser(actor, tournament)
    tournament = _lock(tournament)
    if HandOver.objects.filter(tournament=tournament, state=HandOver.State.AT_VENUE).exists():
        # Rounds paired in two places never merge: the venue's return would be refused.
        raise Conflict(
            "handover_at_venue",
            _(
                "This event is at the venue: pair its rounds on the venue laptop (or take "
                "it back here first)."
            ),
        )
    if method not in METHODS:
        raise ApplicationError(
            "pairing_method_unknown",
            _("Pairing method must be auto, seed or random."),
        )
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.kind == Round.Kind.KNOCKOUT:
        raise Conflict(
            "knockout_started",
            _("The knockout has started; no more Swiss rounds can be paired."),
        )
    swiss = tournament.rounds.filter(kind=Round.Kind.SWISS).count()
    if swiss >= tournament.swiss_rounds:
        raise Conflict(
            "swiss_rounds_done",
            _(
                "All %(swiss_rounds)s Swiss rounds are paired; raise the number of "
                "rounds in the settings to add one."
            ),
            params={"swiss_rounds": tournament.swiss_rounds},
        )
    if last is not None:
        require_complete(last)
    if swiss == 0:
        if method == "auto":
            seeded = Pair.objects.filter(
                tournament=tournament, status=Pair.Status.CHECKED_IN, seed__isnull=False
            ).exists()
            method = "seed" if seeded else "random"
    else:
        method = "monrad"
    number = (tournament.rounds.aggregate(m=Max("number"))["m"] or 0) + 1
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        kind=Round.Kind.SWISS,
        status=Round.Status.DRAFT,
        random_seed=new_random_seed() if random_seed is None else int(random_seed),
        pairing_method=method,
    )
    result = _pair_into(round_, tournament)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="round_pair",
        target=round_,
        data={
            "method": method,
            "random_seed": round_.random_seed,
            "tables": len(result.tables),
            "bye": result.bye,
            "rematches": result.rematches,
        },
    )
    tournament_data_changed(tournament=tournament)
    return round_


def _require_not_started(round_: Round, *, action: Text) -> None:
    if round_.status not in (Round.Status.DRAFT, Round.Status.PUBLISHED):
        raise Conflict(
            "round_started",
            _("Round %(number)s has started; it can no longer be %(action)s."),
            params={"number": round_.number, "action": action},
        )
    if round_games_started(round_=round_):
        raise Conflict(
            "round_started",
            _("Games of round %(number)s have started; it can no longer be %(action)s."),
            params={"number": round_.number, "action": action},
        )


def _require_swiss_latest(round_: Round) -> None:
    if round_.kind != Round.Kind.SWISS:
        raise Conflict(
            "round_is_knockout",
            _("Knockout pairings follow the bracket and cannot be changed by hand."),
        )
    if round_.tournament.rounds.filter(number__gt=round_.number).exists():
        raise Conflict(
            "round_not_latest",
            _("Only the latest round can be changed."),
        )


@transaction.atomic
def round_repair(*, round: Round, actor: Actor) -> Round:
    """Re-pair a round whose games have not started, with the same method and
    recorded seed, from the current check-ins and fixed tables."""
    require_organiser(actor, round.tournament)
    tournament = _lock(round.tournament)
    round_ = _lock_round(round)
    _require_swiss_latest(round_)
    _require_not_started(round_, action=pgettext_lazy("a round can no longer be", "re-paired"))
    before = sorted(round_.games.values_list("table_number", "pair_yb_id", "pair_rg_id"))
    round_.games.all().delete()
    round_.byes.all().delete()
    result = _pair_into(round_, tournament)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="round_repair",
        target=round_,
        data={"before": before, "tables": len(result.tables), "bye": result.bye},
    )
    tournament_data_changed(tournament=tournament)
    return round_


def _seat_of(round_: Round, pair: Pair) -> tuple[Game | None, str | None, Bye | None]:
    game = round_.games.filter(Q(pair_yb=pair) | Q(pair_rg=pair)).first()
    if game is not None:
        return game, ("pair_yb" if game.pair_yb_id == pair.pk else "pair_rg"), None
    bye = round_.byes.filter(pair=pair).first()
    if bye is not None:
        return None, None, bye
    raise ApplicationError(
        "pair_not_in_round",
        _("Start number %(start_number)s is not in round %(number)s."),
        params={"start_number": pair.start_number, "number": round_.number},
    )


def _opponent(game: Game, side: str) -> int:
    return game.pair_rg_id if side == "pair_yb" else game.pair_yb_id


@transaction.atomic
def round_swap_pairs(
    *,
    round: Round,
    actor: Actor,
    pair_a: Pair,
    pair_b: Pair,
    allow_rematch: bool = False,
) -> Round:
    """Swap two pairs between tables (or one with the bye) before games start."""
    require_organiser(actor, round.tournament)
    tournament = _lock(round.tournament)
    round_ = _lock_round(round)
    _require_swiss_latest(round_)
    _require_not_started(round_, action=pgettext_lazy("a round can no longer be", "changed"))
    if pair_a.pk == pair_b.pk:
        raise ApplicationError("swap_same_pair", _("Choose two different pairs."))
    game_a, side_a, bye_a = _seat_of(round_, pair_a)
    game_b, side_b, bye_b = _seat_of(round_, pair_b)
    if game_a is not None and game_b is not None and game_a.pk == game_b.pk:
        raise ApplicationError(
            "swap_same_table",
            _("The two pairs already play each other at table %(table_number)s."),
            params={"table_number": game_a.table_number},
        )
    played, _colours, byes = _history(tournament, round_.number)
    # After the swap pair_b sits where pair_a sat, and the other way round.
    new_meetings = []
    if game_a is not None:
        new_meetings.append((pair_b, _opponent(game_a, side_a or "")))
    if game_b is not None:
        new_meetings.append((pair_a, _opponent(game_b, side_b or "")))
    rematches = [(p, o) for p, o in new_meetings if frozenset((p.pk, o)) in played]
    if rematches and not allow_rematch:
        who = ", ".join(str(p.start_number) for p, _ in rematches)
        raise Conflict(
            "swap_rematch",
            _("The swap creates a rematch (start number %(who)s); confirm to allow it."),
            params={"who": who},
        )
    for bye, gets_it in ((bye_a, pair_b), (bye_b, pair_a)):
        # Fair byes: never to a pair that has had more of them than the pair it replaces.
        if bye is not None and byes[gets_it.pk] > byes[bye.pair_id]:
            raise Conflict(
                "swap_second_bye",
                _(
                    "Start number %(start_number)s has had %(byes)s bye(s), more than start "
                    "number %(other)s (%(other_byes)s)."
                ),
                params={
                    "start_number": gets_it.start_number,
                    "byes": byes[gets_it.pk],
                    "other": bye.pair.start_number,
                    "other_byes": byes[bye.pair_id],
                },
            )
    changed_tables = []
    for game, side, newcomer in ((game_a, side_a, pair_b), (game_b, side_b, pair_a)):
        if game is not None and side is not None:
            setattr(game, side, newcomer)
            game.save(update_fields=[side])
            changed_tables.append(game.table_number)
    for bye, newcomer in ((bye_a, pair_b), (bye_b, pair_a)):
        if bye is not None:
            bye.pair = newcomer
            bye.save(update_fields=["pair"])
    for table in changed_tables:
        round_.explanation[str(table)] = {
            "en": "Changed by hand by the organiser.",
            "da": "Ændret manuelt af arrangøren.",
        }
    if rematches:
        round_.warnings = [
            *round_.warnings,
            {
                "code": "manual_rematch",
                "en": "A manual swap created a rematch.",
                "da": "Et manuelt byt gav en omkamp.",
            },
        ]
    round_.save(update_fields=["explanation", "warnings"])
    audit_record(
        tournament=tournament,
        actor=actor,
        action="round_swap_pairs",
        target=round_,
        data={"pairs": [pair_a.start_number, pair_b.start_number], "rematch": bool(rematches)},
    )
    tournament_data_changed(tournament=tournament)
    return round_


@transaction.atomic
def round_publish(*, round: Round, actor: Actor) -> Round:
    require_organiser(actor, round.tournament)
    return status_change_guarded(
        round,
        actor=actor,
        allowed_from=(Round.Status.DRAFT,),
        to=Round.Status.PUBLISHED,
        action="round_publish",
        also={"published_at": timezone.now()},
        params={"number": round.number},
        refusal=("round_not_draft", _("Round %(number)s is already published.")),
    )


@transaction.atomic
def round_start(*, round: Round, actor: Actor) -> Round:
    require_organiser(actor, round.tournament)
    round_ = status_change_guarded(
        round,
        actor=actor,
        allowed_from=(Round.Status.PUBLISHED,),
        to=Round.Status.IN_PROGRESS,
        action="round_start",
        also={"started_at": timezone.now()},
        params={"number": round.number},
        refusal=(
            "round_not_published",
            _("Round %(number)s can only start once it is published and not yet started."),
        ),
    )
    round_games_start(round_=round_, at=round_.started_at)
    return round_


@transaction.atomic
def round_close(*, round: Round, actor: Actor) -> Round:
    """Close a round once every game has a result; its table links die."""
    require_organiser(actor, round.tournament)
    round_ = _lock_round(round)
    if round_.status in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        require_complete(round_)
    return status_change_guarded(
        round_,
        actor=actor,
        allowed_from=(Round.Status.PUBLISHED, Round.Status.IN_PROGRESS),
        to=Round.Status.CLOSED,
        action="round_close",
        also={"closed_at": timezone.now()},
        params={"number": round_.number},
        refusal=(
            "round_not_open",
            _("Round %(number)s is not being played (draft or already closed)."),
        ),
    )


@transaction.atomic
def pair_fixed_table_set(*, pair: Pair, actor: Actor, table_number: int | None) -> Pair:
    """Give a pair a fixed table (e.g. for accessibility), or clear it."""
    require_organiser(actor, pair.tournament)
    _lock(pair.tournament)
    if table_number is not None:
        if (
            isinstance(table_number, bool)
            or not isinstance(table_number, int)
            or not (1 <= table_number <= 999)
        ):
            raise ApplicationError(
                "fixed_table_invalid",
                _("A fixed table must be a number from 1 to 999."),
            )
        holder = (
            Pair.objects.filter(tournament=pair.tournament, fixed_table=table_number)
            .exclude(pk=pair.pk)
            .exclude(status=Pair.Status.DROPPED)
            .first()
        )
        if holder is not None:
            raise Conflict(
                "fixed_table_taken",
                _("Table %(table_number)s is already fixed for start number %(start_number)s."),
                params={"table_number": table_number, "start_number": holder.start_number},
            )
    before = pair.fixed_table
    Pair.objects.filter(pk=pair.pk).update(fixed_table=table_number)
    pair.fixed_table = table_number
    audit_record(
        tournament=pair.tournament,
        actor=actor,
        action="pair_fixed_table_set",
        target=pair,
        data={"from": before, "to": table_number},
    )
    tournament_data_changed(tournament=pair.tournament)
    return pair
