"""Plain data the document builders read: no models, no queries.

``printing.data`` fills these from the database; tests and the benchmark
build them by hand.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from games.engine import DM2023, DUO

SEAT_ORDER = ("Y", "R", "B", "G")
# Within a pair, player 1 takes the first seat of the team's colours
# (Yellow or Red) and player 2 the partner's seat opposite (Blue or Green).
TEAM_SEATS = DM2023.teams
# In a singles event (DUO) each side is one player, seated at Yellow or Red.
SINGLES_SEATS = DUO.teams


def side_seats(team: str, *, singles: bool) -> tuple[str, ...]:
    """The seats of one side (``"YB"`` or ``"RG"``): two in pairs, one in singles."""
    return (SINGLES_SEATS if singles else TEAM_SEATS)[team]


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
    singles: bool = False  # a singles event: two seats, Y and R

    def seat_player(self, seat: str) -> str:
        pair, team = (self.pair_yb, "YB") if seat in TEAM_SEATS["YB"] else (self.pair_rg, "RG")
        return pair.player_1 if TEAM_SEATS[team][0] == seat else pair.player_2


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
    singles: bool = False  # a singles event: one player per side, no partner


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
    singles: bool = False  # a DUO game: players Y and R, one per side


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
