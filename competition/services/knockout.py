"""The knockout stage: a seeded single-elimination bracket.

Seed 1 meets the lowest seed, and seeds 1 and 2 can only meet in the final
(standard bracket order). With fewer pairs than bracket lines the top seeds
get byes. The pair from the upper line of a match plays Yellow/Blue.

A cut that falls inside a shared rank is never decided silently: the
organiser chooses the next tiebreak, the seed list or a playoff round
(``competition.selectors_knockout``) before the bracket is made.

Nor is the cut made before its time: only once the planned Swiss rounds are
played and closed, or when the organiser chose an early cut (``early``)
after at least one closed Swiss round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from competition.selectors import (
    BracketMatch,
    BracketRound,
    bracket_for_tournament,
    knockout_stage_names,
)
from competition.selectors_knockout import (
    CUT_CHOICES,
    CutTie,
    KnockoutReadiness,
    knockout_qualifiers,
    knockout_readiness,
    playoff_matches,
)
from competition.services.pairing import new_random_seed, require_complete
from core.errors import ApplicationError, Conflict
from core.users import Actor
from games.services.tables import TablePlan, round_games_create
from tournament.models import Bye, Pair, Round, Tournament
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.services.pairing_core import PairingEntry, number_tables

__all__ = [
    "BracketMatch",
    "BracketRound",
    "bracket_for_tournament",
    "bracket_order",
    "knockout_advance",
    "knockout_create",
]

SOURCES = ("standings", "seeds")


def bracket_order(size: int) -> list[int]:
    """Seed numbers down the bracket lines: 4 -> [1, 4, 2, 3],
    8 -> [1, 8, 4, 5, 2, 7, 3, 6]. Adjacent lines meet in the first round."""
    order = [1]
    while len(order) < size:
        width = len(order) * 2
        order = [s for seed in order for s in (seed, width + 1 - seed)]
    return order


def _bracket_size(pairs: int, limit: int) -> int:
    size = 2
    while size < pairs:
        size *= 2
    return min(size, limit)


def _create_round(
    tournament: Tournament,
    *,
    stage: int | None,
    matches: list[tuple[Pair, Pair]],
    slots: Sequence[int | None],
    byes: list[tuple[int, Pair]],
    bracket_matches: int | None,
    labels: list[tuple[str, str]],
    kind: str = Round.Kind.KNOCKOUT,
) -> Round:
    seed = new_random_seed()
    rng = random.Random(seed)
    number = (tournament.rounds.aggregate(m=Max("number"))["m"] or 0) + 1
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        kind=kind,
        knockout_stage=stage,
        bracket_matches=bracket_matches,
        status=Round.Status.DRAFT,
        random_seed=seed,
        pairing_method=str(kind),
    )
    entries = [
        PairingEntry(
            pair_id=p.pk, start_number=p.start_number, fixed_table=p.fixed_table,
            name=p.display_name,
        )
        for match in matches
        for p in match
    ]  # fmt: skip
    numbers, warnings = number_tables([(2 * k, 2 * k + 1) for k in range(len(matches))], entries)
    explanation = {}
    tables = []
    for (upper, lower), slot, table, (en, da) in zip(matches, slots, numbers, labels, strict=True):
        tables.append(
            TablePlan(
                table_number=table,
                pair_yb_id=upper.pk,
                pair_rg_id=lower.pk,
                first_dealer=rng.choice(tournament.seats),
                bracket_slot=slot,
            )
        )
        explanation[str(table)] = {"en": en, "da": da}
    round_games_create(round_=round_, tables=tables)
    for slot, pair in byes:
        Bye.objects.create(round=round_, pair=pair, points=0, bracket_slot=slot)
    round_.explanation = explanation
    round_.warnings = warnings
    round_.save(update_fields=["explanation", "warnings"])
    return round_


def _by_seed(tournament: Tournament) -> list[Pair]:
    pairs = Pair.objects.filter(tournament=tournament, status=Pair.Status.CHECKED_IN)
    ordered = sorted(pairs, key=lambda p: (p.seed is None, p.seed or 0, p.start_number))
    return ordered[: tournament.knockout_size]


def _cut_refused(tie: CutTie) -> Conflict:
    choices = [key for key, option in tie.options.items() if option.available]
    return Conflict(
        "knockout_cut_tie",
        _("The knockout cut falls inside a tie: rank %(rank)s= is shared by %(labels)s, "
          "and %(places)s of them go through. Choose how to decide it: %(choices)s."),
        params={"rank": tie.rank, "labels": tie.labels, "places": tie.places,
                "choices": format_lazy(", ".join("{}" for _c in choices),
                                       *(_CHOICE_NAMES[c] for c in choices))},
        extra={"rank": tie.rank, "places": tie.places, "choices": choices,
               "pairs": [p.start_number for p in tie.pairs]},
    )  # fmt: skip


# In English the choices are named by the words the API takes.
_CHOICE_NAMES = {
    "tiebreak": pgettext_lazy("deciding a knockout cut", "tiebreak"),
    "seed": pgettext_lazy("deciding a knockout cut", "seed"),
    "playoff": pgettext_lazy("deciding a knockout cut", "playoff"),
}


_DECIDED_BY = {
    "tiebreak": ("the next tiebreak", "næste tiebreak"),
    "seed": ("the seed list", "seedningen"),
    "playoff": ("the playoff", "omspillet"),
}


def _cut_warning(tie: CutTie, decided: str, qualified: list[Pair]) -> dict[str, str]:
    inside = {p.pk for p in qualified}
    through = ", ".join(f"#{p.start_number} {p.display_name}" for p in tie.pairs if p.pk in inside)
    by_en, by_da = _DECIDED_BY[decided]
    return {
        "code": "knockout_cut",
        "en": f"Rank {tie.rank}= was shared by {tie.labels}; decided by {by_en}: {through} "
        "through.",
        "da": f"{tie.rank}.-pladsen blev delt af {tie.labels}; afgjort ved {by_da}: {through} "
        "gik videre.",
    }


def _playoff_create(tournament: Tournament, actor: Actor, tie: CutTie) -> Round:
    """A playoff round between the pairs tied at the cut; its winners go through."""
    matches = playoff_matches(tie.pairs)
    labels = [
        (f"Playoff for the knockout (rank {tie.rank}=): the winner goes through.",
         f"Omspil om knockout-pladsen ({tie.rank}.-pladsen delt): vinderen går videre.")
        for _ in matches
    ]  # fmt: skip
    round_ = _create_round(
        tournament, stage=None, matches=matches, slots=[None] * len(matches), byes=[],
        bracket_matches=None, labels=labels, kind=Round.Kind.PLAYOFF,
    )  # fmt: skip
    audit_record(
        tournament=tournament, actor=actor, action="knockout_playoff_create", target=round_,
        data={"rank": tie.rank, "places": tie.places, "pairs": [p.start_number for p in tie.pairs]},
    )  # fmt: skip
    tournament_data_changed(tournament=tournament)
    return round_


def _require_cut_due(tournament: Tournament, *, early: bool) -> KnockoutReadiness:
    """Refuse the cut while a Swiss round is open, and before the planned Swiss
    rounds are closed unless the organiser chose an early cut (after one round at least)."""
    readiness = knockout_readiness(tournament=tournament)
    if readiness.open_round is not None:
        raise Conflict(
            "knockout_swiss_round_open",
            _("Round %(number)s is not closed yet: close it before the knockout cut."),
            params={"number": readiness.open_round},
        )
    if readiness.cut_allowed:
        return readiness
    if readiness.closed == 0:
        raise Conflict(
            "knockout_no_swiss_played",
            _("No Swiss round has been played yet, so the standings cannot choose who goes "
              "through. Play and close a round first (an event that is only a knockout has "
              "0 Swiss rounds in its settings)."),
        )  # fmt: skip
    if not early:
        raise Conflict(
            "knockout_swiss_unfinished",
            _("The Swiss rounds are not done: %(closed)s of %(planned)s are played and closed. "
              "The bracket is made after the last one, unless you choose to cut early."),
            params={"closed": readiness.closed, "planned": readiness.planned},
            extra={"closed": readiness.closed, "planned": readiness.planned},
        )  # fmt: skip
    return readiness


@transaction.atomic
def knockout_create(
    *,
    tournament: Tournament,
    actor: Actor,
    source: str = "standings",
    cut: str = "",
    early: bool = False,
) -> Round:
    """The first knockout round from the top of the standings (or by seed).

    The cut is due once the planned Swiss rounds are played and closed;
    ``early`` is the organiser's choice to cut before that (refused before
    the first closed round). When the cut falls inside a shared rank, ``cut``
    says how to decide it (``"tiebreak"``, ``"seed"``, or ``"playoff"``,
    which makes a playoff round instead of the bracket); without it the
    bracket is refused with the tie and the choices, so it is never decided
    silently.
    """
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if source not in SOURCES:
        raise ApplicationError(
            "knockout_source_unknown",
            _("The knockout is seeded from the standings or from the seeds."),
        )
    if not tournament.knockout_size:
        raise Conflict(
            "knockout_disabled",
            _("This tournament has no knockout stage (set the knockout size first)."),
        )
    if tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists():
        raise Conflict(
            "knockout_exists",
            _("The knockout bracket has already been made."),
        )
    if cut and cut not in CUT_CHOICES:
        raise ApplicationError(
            "knockout_cut_unknown",
            _("A tie at the cut is decided by the next tiebreak, the seed list or a playoff."),
        )
    last = tournament.rounds.order_by("-number").first()
    if last is not None:
        require_complete(last)
    swiss = _require_cut_due(tournament, early=early)
    tie, decided = None, ""
    if source == "standings":
        qualified, tie, decided = knockout_qualifiers(tournament=tournament, cut=cut)
        if tie is not None and not decided:
            if cut == "playoff" and tie.options["playoff"].available:
                return _playoff_create(tournament, actor, tie)
            raise _cut_refused(tie)
    else:
        qualified = _by_seed(tournament)
    if len(qualified) < 2:
        raise ApplicationError(
            "not_enough_pairs",
            _("At least two checked-in pairs are needed for a knockout."),
        )
    size = _bracket_size(len(qualified), tournament.knockout_size)
    order = bracket_order(size)
    matches, slots, byes, labels = [], [], [], []
    for k in range(size // 2):
        top, bottom = order[2 * k], order[2 * k + 1]
        if bottom > len(qualified):
            byes.append((k + 1, qualified[top - 1]))
            continue
        matches.append((qualified[top - 1], qualified[bottom - 1]))
        slots.append(k + 1)
        labels.append(
            (f"Knockout: seed {top} against seed {bottom}.",
             f"Knockout: seedet nr. {top} mod seedet nr. {bottom}.")
        )  # fmt: skip
    round_ = _create_round(
        tournament,
        stage=1,
        matches=matches,
        slots=slots,
        byes=byes,
        bracket_matches=size // 2,
        labels=labels,
    )
    if byes:
        seeds = ", ".join(str(order[2 * (slot - 1)]) for slot, _ in byes)
        round_.warnings = [
            *round_.warnings,
            {
                "code": "knockout_byes",
                "en": f"Fewer pairs than bracket lines: seed {seeds} advance without playing.",
                "da": f"Færre par end pladser i træet: seedet nr. {seeds} går videre uden kamp.",
            },
        ]
    if tie is not None:
        round_.warnings = [*round_.warnings, _cut_warning(tie, decided, qualified)]
    round_.save(update_fields=["warnings"])
    audit_record(
        tournament=tournament,
        actor=actor,
        action="knockout_create",
        target=round_,
        data={
            "source": source,
            "size": size,
            "pairs": [p.start_number for p in qualified],
            "cut": decided,
            "tied": [p.start_number for p in tie.pairs] if tie is not None else [],
            "early": not swiss.swiss_done,
            "swiss_closed": swiss.closed,
        },
    )
    tournament_data_changed(tournament=tournament)
    return round_


def _outcomes(round_: Round) -> tuple[dict[int, Pair], dict[int, Pair]]:
    """Winners and losers by bracket slot (a bye's pair wins its slot)."""
    winners: dict[int, Pair] = {}
    losers: dict[int, Pair] = {}
    for game in round_.games.select_related("pair_yb", "pair_rg"):
        slot = game.bracket_slot or 0
        winners[slot] = game.winner_pair
        losers[slot] = game.pair_rg if game.winner == "YB" else game.pair_yb
    for bye in round_.byes.select_related("pair"):
        winners[bye.bracket_slot or 0] = bye.pair
    return winners, losers


@transaction.atomic
def knockout_advance(*, tournament: Tournament, actor: Actor) -> Round | None:
    """Create the next knockout round once every game of the current one has
    a winner; None when the final has been played."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    current = tournament.rounds.order_by("-number").first()
    if current is None or current.kind != Round.Kind.KNOCKOUT:
        raise Conflict(
            "knockout_not_started",
            _("The knockout has not started."),
        )
    require_complete(current)
    matches_now = current.bracket_matches or 1
    if matches_now == 1:
        return None
    winners, losers = _outcomes(current)
    next_matches = matches_now // 2
    name_en, name_da = knockout_stage_names(next_matches)
    matches, slots, labels = [], [], []
    for k in range(1, next_matches + 1):
        matches.append((winners[2 * k - 1], winners[2 * k]))
        slots.append(k)
        labels.append((f"{name_en}, match {k}.", f"{name_da}, kamp {k}."))
    warnings = []
    if next_matches == 1 and tournament.third_place_game:
        if 1 in losers and 2 in losers:
            matches.append((losers[1], losers[2]))
            slots.append(2)
            labels.append(("Third-place game.", "Bronzekamp."))
        else:
            warnings.append(
                {
                    "code": "no_third_place_game",
                    "en": "No third-place game: a semi-final was won on a bye.",
                    "da": "Ingen bronzekamp: en semifinale blev vundet på oversidning.",
                }
            )
    round_ = _create_round(
        tournament,
        stage=(current.knockout_stage or 0) + 1,
        matches=matches,
        slots=slots,
        byes=[],
        bracket_matches=next_matches,
        labels=labels,
    )
    if warnings:
        round_.warnings = [*round_.warnings, *warnings]
        round_.save(update_fields=["warnings"])
    audit_record(tournament=tournament, actor=actor, action="knockout_advance", target=round_)
    tournament_data_changed(tournament=tournament)
    return round_
