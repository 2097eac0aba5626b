"""Who goes through to the knockout, and how a cut that falls inside a shared rank is decided.

With a top-4 knockout and two pairs "4=, fully tied", the standings cannot say
which one goes through. The organiser chooses, before the bracket is made:
the next tiebreak (one the event does not use yet), the seed list, or a
playoff game between the tied pairs. ``knockout_cut`` lays the tie and each
choice's outcome out; ``knockout_qualifiers`` applies the choice (or the
playoff's results) and is what ``knockout_create`` seeds the bracket from.

The cut itself is due once the planned Swiss rounds are played and closed
(``knockout_readiness``); before that only an early cut the organiser chose
in words makes the bracket.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from competition.selectors import standings_for_tournament
from tournament.models import DEFAULT_TIEBREAKS, Pair, Round, Tournament
from tournament.services.standings import TIEBREAK_LABELS, StandingRow

CUT_CHOICES = ("tiebreak", "seed", "playoff")


@dataclass(frozen=True)
class KnockoutReadiness:
    """Where the Swiss stage stands, as far as the knockout cut is concerned."""

    planned: int  # the Swiss rounds the event plans (its setting)
    closed: int  # Swiss rounds played and closed
    open_round: int | None  # the number of a paired Swiss round not closed yet
    size: int  # the knockout's size: the top ``size`` go through
    # A playoff round for a tie at the cut exists: the cut was chosen already.
    cut_chosen: bool = False

    @property
    def swiss_done(self) -> bool:
        """The planned Swiss rounds are played and closed: the cut is due."""
        return self.open_round is None and self.closed >= self.planned

    @property
    def early_possible(self) -> bool:
        """An early cut can be chosen: at least one Swiss round closed, none open."""
        return not self.swiss_done and self.open_round is None and self.closed >= 1

    @property
    def cut_allowed(self) -> bool:
        """The bracket may be made without saying "early"."""
        return self.swiss_done or (self.cut_chosen and self.open_round is None)

    @property
    def left(self) -> int:
        return max(self.planned - self.closed, 0)

    @property
    def early_en(self) -> str:
        """What an early cut does, in words (English)."""
        rest = (
            "the last Swiss round is not played"
            if self.left == 1
            else f"the last {self.left} Swiss rounds are not played"
        )
        return (
            f"Cut now after round {self.closed} of {self.planned}: the top {self.size} of the "
            f"standings now go through, and {rest}."
        )

    @property
    def early_da(self) -> str:
        """What an early cut does, in words (Danish)."""
        rest = (
            "den sidste Monrad-runde spilles ikke"
            if self.left == 1
            else f"de sidste {self.left} Monrad-runder spilles ikke"
        )
        return (
            f"Skær nu efter runde {self.closed} af {self.planned}: top {self.size} efter "
            f"stillingen nu går videre, og {rest}."
        )


def knockout_readiness(*, tournament: Tournament) -> KnockoutReadiness:
    """How many Swiss rounds are closed of those planned, and whether one is still open."""
    swiss = list(
        tournament.rounds.filter(kind=Round.Kind.SWISS)
        .order_by("number")
        .values_list("number", "status")
    )
    closed = sum(1 for _number, status in swiss if status == Round.Status.CLOSED)
    open_round = next((n for n, status in swiss if status != Round.Status.CLOSED), None)
    return KnockoutReadiness(
        planned=tournament.swiss_rounds,
        closed=closed,
        open_round=open_round,
        size=tournament.knockout_size,
        cut_chosen=tournament.rounds.filter(kind=Round.Kind.PLAYOFF).exists(),
    )


@dataclass
class CutOption:
    """One way to decide the cut: can it, who goes through, and why (English, Danish)."""

    key: str
    available: bool
    qualified: list[Pair] = field(default_factory=list)
    note_en: str = ""
    note_da: str = ""


@dataclass
class CutTie:
    """The pairs sharing the rank the cut falls in, and the places left for them."""

    rank: int
    places: int
    pairs: list[Pair]
    options: dict[str, CutOption]
    decided_by_playoff: list[Pair] | None = None  # the playoff's winners, once it is played

    @property
    def labels(self) -> str:
        return _labels(self.pairs)


def _label(pair: Pair) -> str:
    return f"#{pair.start_number} {pair.display_name}"


def _labels(pairs: list[Pair]) -> str:
    return ", ".join(_label(p) for p in pairs)


def _checked_in(rows: list[StandingRow]) -> list[StandingRow]:
    return [r for r in rows if r.pair.status == Pair.Status.CHECKED_IN]


def _by_next_tiebreak(tournament: Tournament, group: list[StandingRow], places: int) -> CutOption:
    unused = [k for k in DEFAULT_TIEBREAKS if k not in (tournament.tiebreaks or [])]
    if not unused:
        return CutOption(
            "tiebreak", False,
            note_en="The event already uses every tiebreak; none is left to decide.",
            note_da="Turneringen bruger allerede alle tiebreaks; ingen er tilbage at afgøre med.",
        )  # fmt: skip
    rows = standings_for_tournament(
        tournament=tournament, tiebreaks=[*(tournament.tiebreaks or []), *unused]
    )
    members = {r.pair_id for r in group}
    order = [r for r in _checked_in(rows) if r.pair_id in members]
    if order[places - 1].rank == order[places].rank:
        names_en = ", ".join(TIEBREAK_LABELS[k][0] for k in unused)
        names_da = ", ".join(TIEBREAK_LABELS[k][1] for k in unused)
        return CutOption(
            "tiebreak", False,
            note_en=f"The tiebreaks the event does not use ({names_en}) leave them level too.",
            note_da=f"De tiebreaks, turneringen ikke bruger ({names_da}), skiller dem heller ikke.",
        )  # fmt: skip
    through = [r.pair for r in order[:places]]
    # The first pair left out says why it is below: e.g. "Locked-pawn difference 5 vs 3".
    outside = order[places]
    return CutOption(
        "tiebreak",
        True,
        through,
        f"Next tiebreak: {outside.tiebreak_note_en} — {_labels(through)} through.",
        f"Næste tiebreak: {outside.tiebreak_note_da} — {_labels(through)} går videre.",
    )


def _by_seed(group: list[StandingRow], places: int) -> CutOption:
    pairs = sorted(
        (r.pair for r in group), key=lambda p: (p.seed is None, p.seed or 0, p.start_number)
    )
    through = pairs[:places]

    def seed(pair: Pair, en: bool) -> str:
        if pair.seed is not None:
            return f"seed {pair.seed}" if en else f"seedet nr. {pair.seed}"
        return "no seed" if en else "ikke seedet"

    listing_en = ", ".join(f"{_label(p)} ({seed(p, True)})" for p in pairs)
    listing_da = ", ".join(f"{_label(p)} ({seed(p, False)})" for p in pairs)
    return CutOption(
        "seed",
        True,
        through,
        f"Seed list (seeded pairs first, then start number): {listing_en} — "
        f"{_labels(through)} through.",
        f"Seedningslisten (seedede par først, så startnummer): {listing_da} — "
        f"{_labels(through)} går videre.",
    )


def _by_playoff(group: list[StandingRow], places: int) -> CutOption:
    pairs = [r.pair for r in group]
    if len(pairs) != 2 * places:
        return CutOption(
            "playoff", False,
            note_en=f"A playoff pairs the tied pairs off, winners through: {len(pairs)} pairs for "
            f"{places} place(s) cannot be paired off.",
            note_da=f"Et omspil parrer de lige par mod hinanden, og vinderne går videre: "
            f"{len(pairs)} par til {places} plads(er) kan ikke parres sådan.",
        )  # fmt: skip
    games = playoff_matches(pairs)
    listing = "; ".join(f"{_label(a)} – {_label(b)}" for a, b in games)
    return CutOption(
        "playoff",
        True,
        [],
        f"A playoff round ({listing}); the winners go through. The bracket is made once it "
        "is played.",
        f"En omspilsrunde ({listing}); vinderne går videre. Træet laves, når den er spillet.",
    )


def playoff_matches(pairs: list[Pair]) -> list[tuple[Pair, Pair]]:
    """The playoff's games: the tied pairs in listed order, top half against bottom half."""
    half = len(pairs) // 2
    return [(pairs[k], pairs[k + half]) for k in range(half)]


def _playoff_winners(tournament: Tournament) -> list[Pair] | None:
    playoff = tournament.rounds.filter(kind=Round.Kind.PLAYOFF).order_by("-number").first()
    if playoff is None:
        return None
    games = list(playoff.games.select_related("pair_yb", "pair_rg"))
    if not games or any(not g.winner for g in games):
        return None
    return [g.winner_pair for g in games]


def knockout_standings(*, tournament: Tournament) -> list[StandingRow]:
    """The standings rows of the pairs that can go through (checked in), best first."""
    return _checked_in(standings_for_tournament(tournament=tournament))


def knockout_cut(*, tournament: Tournament, rows: list[StandingRow] | None = None) -> CutTie | None:
    """The tie the knockout cut falls in (standings source), or None when the cut is clean.

    ``rows``: ``knockout_standings`` when the caller has them already.
    """
    size = tournament.knockout_size
    rows = knockout_standings(tournament=tournament) if rows is None else rows
    if not size or len(rows) <= size or rows[size - 1].rank != rows[size].rank:
        return None
    rank = rows[size - 1].rank
    group = [r for r in rows if r.rank == rank]
    places = size - rows.index(group[0])
    return CutTie(
        rank=rank,
        places=places,
        pairs=[r.pair for r in group],
        options={
            "tiebreak": _by_next_tiebreak(tournament, group, places),
            "seed": _by_seed(group, places),
            "playoff": _by_playoff(group, places),
        },
        decided_by_playoff=_playoff_winners(tournament),
    )


def knockout_qualifiers(
    *, tournament: Tournament, cut: str = ""
) -> tuple[list[Pair], CutTie | None, str]:
    """The top ``knockout_size`` of the standings in seeding order, the tie at the cut
    and how it was decided (``"tiebreak"``, ``"seed"``, ``"playoff"``; "" without a tie).

    A tie at the cut needs ``cut`` unless a played playoff decided it; the
    caller refuses to go on without one (``cut`` is "" in the answer then).
    """
    size = tournament.knockout_size
    rows = knockout_standings(tournament=tournament)
    qualified = [r.pair for r in rows[:size]]
    tie = knockout_cut(tournament=tournament, rows=rows)
    if tie is None:
        return qualified, None, ""
    before = qualified[: size - tie.places]
    if tie.decided_by_playoff is not None:
        winners = {p.pk for p in tie.decided_by_playoff}
        return before + [p for p in tie.pairs if p.pk in winners], tie, "playoff"
    option: Any = tie.options.get(cut)
    if option is None or not option.available or option.key == "playoff":
        return qualified, tie, ""
    return before + option.qualified, tie, cut
