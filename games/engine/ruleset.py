"""Rule choices that differ between rule sets (RULES.md *Decision* items).

Each ruleset's reading is in ``docs/rulesets/<name>.md``: ``dm2023`` is
RULES.md, ``rulebook`` the printed rulebook, ``fr`` the French rulebook.
The move rules of a ruleset's board are chosen in :mod:`.variants`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import CARDS, SEATS

CARD_RULES = {
    "1": "C3", "4": "C4", "7": "C7", "8": "C5", "11": "C5", "13": "C5", "J": "C9", "X": "D4",
    **dict.fromkeys(("2", "3", "5", "6", "9", "10", "12"), "C2"),
}  # fmt: skip
"""The rule id each card's move follows in the four-seat game (RULES.md §5), ``X`` a discard."""
DUO_CARD_RULES = {
    "1": "C3", "6": "C3", "8": "C3", "2": "C4", "9": "C5", "4": "C6", "5": "C7", "X": "D3",
    **dict.fromkeys(("3", "7", "10", "12"), "C2"),
}  # fmt: skip
"""The same in DUO (docs/rulesets/duo.md C2–C7, D3)."""


@dataclass(frozen=True)
class Ruleset:
    """The settings of one rule set.

    Attributes:
        name: the ruleset id used in game records (``"dm2023"``).
        deck: copies of each card kind (C1, Decision: 4 of each of 14 kinds).
        hand_size: cards dealt per player per deal (D1).
        penalty_hand_size: cards dealt to a player under penalty P1.
        deals_per_dealer: deals before the deal passes on and the deck is shuffled (D5).
        opener: who opens a deal (D2, Decision): ``"left_of_dealer"``.
        adjudication: W3 order, ``"distance"`` (fewer remaining steps wins) or
            ``"locked_then_distance"`` (more locked pawns first).
        finish_rule_2023: F6, a pawn leaving the finish area must lock or reach the track.
        seven_win_drops_rest: C7 Decision, a 7 that wins drops its unused steps.
        board: the board and its counting: ``"dm"`` (RULES.md B1–B5, start field
            not counted), ``"rulebook"`` (60 counted spaces, own 0 and own 15,
            House 16–19) or ``"duo"`` (docs/rulesets/duo.md).
        talk_penalty_scope: P2, whose pawn the talk penalty sends home:
            ``"talker"`` or ``"team"``.
        time_limit_minutes: W2, the default game time (None: no limit).
        label_en, label_da: the ruleset's name for people, in English and Danish.
        seats: the seats of a table in turn order (``Y R B G``; the DUO players ``Y R``).
        pawns_per_side: the pawns one side brings to the board (S2: 8 for a pair,
            6 for a DUO player).
        card_rules: the rule id each card's move follows, the discard rule for ``X``.
        colours: the keys of a position in NOTATION.md (``Y R B G``; DUO ``YK RK YO RO``).
        entering_cards, split_card, swap_card: the cards that bring a pawn in,
            split their steps over pawns, and swap two pawns (for pictures and
            tapping on a table device; the rules themselves are the engine's).
        timeout_rule: the rule that decides a game whose time is up (W3; DUO W2).
        board_fields: numbered track fields per quarter or home area (14; a
            ``duo`` Decision and setting, docs/rulesets/duo.md B2).
        adjudication_fixed: the reading fixes its time-out order, which an
            event cannot change (DUO W2: remaining distance only).
    """

    name: str
    deck: tuple[tuple[str, int], ...] = tuple((c, 4) for c in CARDS)
    hand_size: int = 4
    penalty_hand_size: int = 3
    deals_per_dealer: int = 3
    opener: str = "left_of_dealer"
    adjudication: str = "distance"
    finish_rule_2023: bool = True
    seven_win_drops_rest: bool = True
    board: str = "dm"
    talk_penalty_scope: str = "talker"
    time_limit_minutes: int | None = 60
    board_fields: int = 14
    adjudication_fixed: bool = False
    label_en: str = ""
    label_da: str = ""
    seats: tuple[str, ...] = SEATS
    pawns_per_side: int = 8
    card_rules: tuple[tuple[str, str], ...] = tuple(CARD_RULES.items())
    colours: tuple[str, ...] = SEATS
    entering_cards: tuple[str, ...] = ("8", "11", "13")
    split_card: str = "7"
    swap_card: str = "J"
    timeout_rule: str = "W3"

    def copies(self, card: str) -> int:
        """Number of copies of a card kind in the deck."""
        return dict(self.deck).get(card, 0)

    def deck_cards(self) -> tuple[str, ...]:
        """The card kinds of the deck."""
        return tuple(c for c, _ in self.deck)

    @property
    def players(self) -> int:
        """Players at a table: 4 in pairs, 2 in singles (DUO)."""
        return len(self.seats)

    @property
    def singles(self) -> bool:
        """Each side is one player (DUO), not a pair."""
        return len(self.seats) == 2

    def card_rule(self, card: str) -> str:
        """The rule id a card's move follows (RULES.md §5; DUO C2–C7), the discard
        rule for ``"X"``; ``""`` for a card the ruleset does not have."""
        return dict(self.card_rules).get(card, "")

    @property
    def teams(self) -> dict[str, tuple[str, ...]]:
        """The two sides by their result code: ``YB`` and ``RG``; seats alternate
        between them (in DUO, one player each)."""
        return {"YB": self.seats[0::2], "RG": self.seats[1::2]}

    def label(self, language: str) -> str:
        """The ruleset's name for people in ``language`` (``"da"`` or ``"en"``)."""
        return self.label_da if language.startswith("da") else self.label_en

    @property
    def deck_size(self) -> int:
        """Total number of cards in the deck."""
        return sum(n for _, n in self.deck)


DM2023 = Ruleset(name="dm2023", label_en="DM 2023", label_da="DM 2023")
"""The DM guide 2023 rules (RULES.md)."""

FR = Ruleset(
    name="fr",
    label_en="French rulebook",
    label_da="Fransk regelbog",
    finish_rule_2023=False,
    opener="left_of_dealer",
    talk_penalty_scope="talker",
    time_limit_minutes=None,
)
"""The French rulebook (docs/rulesets/fr.md): dm2023 without F6, with F8 and F9."""

RULEBOOK = Ruleset(
    name="rulebook",
    label_en="Printed rulebook",
    label_da="Trykt regelbog",
    board="rulebook",
    finish_rule_2023=False,
    adjudication="distance_to_house",
    talk_penalty_scope="team",
    time_limit_minutes=None,
)
"""The printed EN/DA rulebook (docs/rulesets/rulebook.md)."""

DUO = Ruleset(
    name="duo",
    board="duo",
    label_en="Partners DUO",
    label_da="Partners DUO",
    seats=("Y", "R"),
    pawns_per_side=6,
    card_rules=tuple(DUO_CARD_RULES.items()),
    colours=("YK", "RK", "YO", "RO"),
    entering_cards=("1", "6", "8"),
    split_card="4",
    swap_card="9",
    timeout_rule="W2",
    deck=tuple((c, 4) for c in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12")),
    finish_rule_2023=False,
    opener="other_than_dealer",
    adjudication="distance",
    adjudication_fixed=True,
    time_limit_minutes=None,
)
"""Partners DUO (docs/rulesets/duo.md): two players, singles."""


def ruleset_names() -> list[str]:
    """The names of every registered ruleset, ``dm2023`` first (:data:`.variant.VARIANTS`)."""
    from .variant import VARIANTS  # the registry sits above the modules that read records

    return list(VARIANTS)


def get_ruleset(name: str) -> Ruleset:
    """Return the ruleset called ``name``; ``ValueError`` for an unknown name."""
    from .variant import find_variant

    return find_variant(name).ruleset
