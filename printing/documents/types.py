"""Plain data the document builders read: no models, no queries.

``printing.data`` fills these from the database; tests and the benchmark
build them by hand.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from games.engine import DM2023, Ruleset

SEAT_ORDER = ("Y", "R", "B", "G")


@dataclass(frozen=True)
class TableKind:
    """What a document draws of a ruleset's table: the seats of each side, the pawns
    a side brings, and whether a side is one player. Taken from the engine's
    registry (:meth:`of`), so a new ruleset prints without a change here."""

    sides: tuple[tuple[str, tuple[str, ...]], ...]  # ("YB", ("Y", "B")), ("RG", …)
    pawns_per_side: int
    singles: bool

    @classmethod
    def of(cls, ruleset: Ruleset) -> TableKind:
        return cls(
            sides=tuple(ruleset.teams.items()),
            pawns_per_side=ruleset.pawns_per_side,
            singles=ruleset.singles,
        )

    def seats_of(self, team: str) -> tuple[str, ...]:
        """The seats of one side (``"YB"`` or ``"RG"``); within a pair, player 1 takes
        the first (Yellow or Red) and player 2 the partner's seat opposite."""
        return dict(self.sides)[team]

    @property
    def seats(self) -> tuple[str, ...]:
        """Every seat at the table, in the order of play's colours (Y, R, B, G)."""
        return tuple(seat for seat in SEAT_ORDER if any(seat in s for _, s in self.sides))


# The table of pairs (four seats, eight pawns a side): the default of a document built by hand.
PAIRS_TABLE = TableKind.of(DM2023)


@dataclass(frozen=True)
class PairInfo:
    start_number: int
    player_1: str
    player_2: str = ""  # empty for a singles entrant
    name: str = ""
    club: str = ""

    @property
    def player_names(self) -> tuple[str, ...]:
        return (self.player_1, self.player_2) if self.player_2 else (self.player_1,)

    @property
    def players(self) -> str:
        return " & ".join(self.player_names)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.players})" if self.name else self.players


@dataclass(frozen=True)
class ScoreSheet:
    tournament: str
    round_number: int
    table_number: int
    pair_yb: PairInfo
    pair_rg: PairInfo
    first_dealer: str
    alert_minutes: int = 50
    limit_minutes: int = 60
    round_title: str = ""  # e.g. "Semi-final"; empty for Swiss rounds
    date: datetime.date | None = None
    venue: str = ""
    started_at: datetime.datetime | None = None  # aware; printed in Copenhagen time
    table_url: str = ""  # the secret table link (QR code); empty prints no QR
    short_code: str = ""
    seating: TableKind = PAIRS_TABLE  # the ruleset's seats and pawns

    @property
    def singles(self) -> bool:
        return self.seating.singles

    def seat_player(self, seat: str) -> str:
        team = "YB" if seat in self.seating.seats_of("YB") else "RG"
        pair = self.pair_yb if team == "YB" else self.pair_rg
        return pair.player_1 if self.seating.seats_of(team)[0] == seat else pair.player_2


@dataclass(frozen=True)
class PairingRow:
    table_number: int
    pair_yb: PairInfo
    pair_rg: PairInfo
    first_dealer: str = ""


@dataclass(frozen=True)
class PairingsList:
    tournament: str
    round_number: int
    rows: list[PairingRow]
    byes: list[PairInfo] = field(default_factory=list)
    round_title: str = ""
    published: bool = True
    seating: TableKind = PAIRS_TABLE  # the ruleset's seats (one player per side in singles)

    @property
    def singles(self) -> bool:
        return self.seating.singles


@dataclass(frozen=True)
class StandingLine:
    rank: int
    pair: PairInfo
    points: float
    games_played: int
    wins: int
    losses: int
    byes: int
    buchholz: float
    locked_for: int
    locked_against: int
    locked_diff: int
    distance_diff: int
    head_to_head: str = ""
    shared_rank: bool = False
    tiebreak_note: str = ""  # already in the document's language


@dataclass(frozen=True)
class StandingsTable:
    tournament: str
    lines: list[StandingLine]
    up_to_round: int | None = None
    tiebreaks: list[str] = field(default_factory=list)  # keys in the event's order
    singles: bool = False  # entrants are players, not pairs


@dataclass(frozen=True)
class BracketMatch:
    slot: int
    pair_a: PairInfo | None  # None: a bye or not yet decided
    pair_b: PairInfo | None
    winner: str = ""  # "a", "b" or ""
    table_number: int | None = None
    is_third_place: bool = False


@dataclass(frozen=True)
class BracketRound:
    title: str
    round_number: int
    matches: list[BracketMatch]


@dataclass(frozen=True)
class Bracket:
    tournament: str
    rounds: list[BracketRound]


@dataclass(frozen=True)
class RecordEntry:
    number: int  # 1-based position in the record
    text: str  # the entry as logged, e.g. "Y 5: Y3+5"
    seat: str = ""  # "" for judge entries
    hits: list[str] = field(default_factory=list)  # e.g. "R@Y8"
    locks: list[str] = field(default_factory=list)  # e.g. "Y@YM1"
    ruling: bool = False  # a judge entry (ruling, correction, penalty)
    rule: str = ""  # RULES.md id for rulings and for the first rejected entry
    note: str = ""  # a ruling's reason or the engine's verdict, document language


@dataclass(frozen=True)
class RulingNote:
    """What the judging app knows about a judge entry of the log."""

    reason: str = ""
    rule: str = ""  # RULES.md id, e.g. F6 or P2
    judge: str = ""


@dataclass(frozen=True)
class BoardDiagram:
    after_entry: int  # 0 = the starting position
    position: dict[str, list[str]]  # NOTATION.md position (DUO: areas YK RK YO RO)
    ruling: bool = False
    board_fields: int = 14  # numbered fields per quarter (the ruleset's B2)


@dataclass(frozen=True)
class GameRecord:
    tournament: str
    round_number: int
    table_number: int
    players: dict[str, str]  # seat -> name
    first_dealer: str
    entries: list[RecordEntry]
    diagrams: list[BoardDiagram]
    winner: str = ""  # "YB", "RG" or ""
    result_note: str = ""
    final_hash: str = ""
    checked: int | None = None  # entries the engine accepted; None = not replayed
    seating: TableKind = PAIRS_TABLE  # the ruleset's seats (a DUO game: Y and R)

    @property
    def singles(self) -> bool:
        return self.seating.singles


@dataclass(frozen=True)
class Incident:
    # "alert", "call", "ruling", "warning", "penalty", "adjudication", "time_out"
    kind: str
    round_number: int
    table_number: int
    text: str
    rule: str = ""
    at: datetime.datetime | None = None
    judge: str = ""


@dataclass(frozen=True)
class JudgeReport:
    tournament: str
    incidents: list[Incident]
    generated_at: datetime.datetime | None = None
    sources_note: str = ""


@dataclass(frozen=True)
class FinalLine:
    place: int
    pair: PairInfo
    how: str  # how the place was decided, in the document's language
    shared: bool = False


@dataclass(frozen=True)
class FinalStandings:
    """The end of the event: places 1, 2, 3 … (``finished`` False while undecided)."""

    tournament: str
    finished: bool
    lines: list[FinalLine] = field(default_factory=list)
    date: datetime.date | None = None
    venue: str = ""
    singles: bool = False  # entrants are players, not pairs
