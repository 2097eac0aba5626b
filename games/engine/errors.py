"""Typed errors carrying the RULES.md id and a message in English and Danish.

A judge reads ``message_da`` (or ``message_en``) out at the table; ``rule``
is the id to look up in RULES.md (``N`` for notation errors).
"""

from __future__ import annotations

from typing import Any, Self

from .board import COLOUR_DA, COLOUR_EN

# key -> (rule, English template, Danish template). Templates use str.format.
MESSAGES: dict[str, tuple[str, str, str]] = {
    # notation / malformed input
    "syntax": ("N", "Cannot read {what!r}: {why}.", "Kan ikke læse {what!r}: {why_da}."),
    "bad_position": ("N", "Invalid position: {why}.", "Ugyldig stilling: {why_da}."),
    "dest": (
        "N",
        "The move ends on {got}, not on {want} as written.",
        "Trækket ender på {got}, ikke på {want} som skrevet.",
    ),
    # seats
    "no_pawn": (
        "S3",
        "There is no pawn on {at} that {seat_en} may move.",
        "Der står ingen brik på {at}, som {seat_da} må flytte.",
    ),
    "not_yours": (
        "S3",
        "The pawn on {at} is not one that {seat_en} may move: a player moves their own "
        "pawns, and the partner's only when all four own pawns are locked.",
        "Brikken på {at} må {seat_da} ikke flytte: man flytter sine egne brikker og først "
        "makkerens, når alle fire egne brikker er låst fast.",
    ),
    # board / standing
    "t4": (
        "T4",
        "The way is blocked: the pawn would pass the occupied start field {at}, and no pawn "
        "may pass another colour's occupied start field.",
        "Vejen er spærret: brikken skulle passere det besatte startfelt {at}, og ingen brik må "
        "passere en anden farves besatte startfelt.",
    ),
    # finish area
    "f1": (
        "F1",
        "The pawn cannot move into the finish area: the goal circle {at} is occupied and it "
        "cannot jump over it nor turn before it has entered.",
        "Brikken kan ikke rykke ind i slutfeltet: målcirklen {at} er optaget, og den kan "
        "hverken springe over den eller vende, før den er kommet ind.",
    ),
    "f5_first": (
        "F5",
        "The pawn on {at} cannot move: its first step is blocked, and it can only turn on a "
        "goal circle it has moved onto.",
        "Brikken på {at} kan ikke flyttes: dens første træk er spærret, og den kan kun vende "
        "på en målcirkel, den selv er rykket ind på.",
    ),
    "f5_both": (
        "F5",
        "The pawn from {at} cannot use all steps: both neighbouring goal circles are blocked, "
        "so it cannot turn.",
        "Brikken fra {at} kan ikke bruge alle træk: begge nabocirkler er spærret, så den kan "
        "ikke vende.",
    ),
    "f3": (
        "F3",
        "The pawn on {at} is locked and can never move again.",
        "Brikken på {at} er låst fast og kan aldrig flyttes igen.",
    ),
    "f6": (
        "F6",
        "2023 rule: a pawn moved from the finish area must end locked or on a numbered "
        "field; from {at} it would end on {to} without being locked.",
        "2023-reglen: en brik, der flyttes fra slutfeltet, skal enten låses fast eller ende "
        "på et nummereret felt; fra {at} ville den ende på {to} uden at blive låst.",
    ),
    "f7": (
        "F7",
        "The -4 card and the swap card may never be used on a pawn in a goal circle ({at}).",
        "Hverken -4-kortet eller byttekortet må bruges på en brik i en målcirkel ({at}).",
    ),
    # cards
    "c2": (
        "C2",
        "Card {card} moves one pawn exactly {card} steps forward.",
        "Kort {card} flytter én brik præcis {card} felter frem.",
    ),
    "c3": (
        "C3",
        "Card 1 moves one pawn 1 or 14 steps forward.",
        "Kort 1 flytter én brik 1 eller 14 felter frem.",
    ),
    "c4": (
        "C4",
        "Card 4 moves one pawn exactly 4 steps backward (written -4).",
        "Kort 4 flytter én brik præcis 4 felter baglæns (skrives -4).",
    ),
    "c4_where": (
        "C4",
        "The -4 card cannot move a pawn from {at}.",
        "-4-kortet kan ikke flytte en brik fra {at}.",
    ),
    "c5": (
        "C5",
        "Card {card} either brings a pawn into play ('in') or moves one pawn {card} steps forward.",
        "Kort {card} bringer enten en brik i spil ('in') eller flytter én brik {card} felter frem.",
    ),
    "c5_11": (
        "C5",
        "The heart card 11 can only bring a pawn into play ('in').",
        "Hjerterkortet 11 kan kun bringe en brik i spil ('in').",
    ),
    "c7_sum": (
        "C7",
        "A 7 must use exactly 7 forward steps; this uses {total}.",
        "En 7'er skal bruge præcis 7 træk frem; her bruges {total}.",
    ),
    "c7_part": (
        "C7",
        "Each part of a 7 moves a pawn at least 1 step forward.",
        "Hver del af en 7'er flytter en brik mindst 1 felt frem.",
    ),
    "c7_twice": (
        "C7",
        "Each pawn may be moved only once in a 7; the pawn on {at} has already moved.",
        "Hver brik må kun flyttes én gang med en 7'er; brikken på {at} er allerede flyttet.",
    ),
    "c7_in": (
        "C7",
        "A 7 moves pawns forward; it cannot bring a pawn into play.",
        "En 7'er flytter brikker frem; den kan ikke bringe en brik i spil.",
    ),
    "c8_card": (
        "C8",
        "Only 8, 11 and 13 bring a pawn into play.",
        "Kun 8, 11 og 13 bringer en brik i spil.",
    ),
    "c8_none": (
        "C8",
        "There is no pawn in the start circle {at} to bring into play.",
        "Der er ingen brik i startcirklen {at} at bringe i spil.",
    ),
    "c8_home": (
        "C8",
        "A pawn in the start circle ({at}) can only be brought into play with 'in'.",
        "En brik i startcirklen ({at}) kan kun bringes i spil med 'in'.",
    ),
    "c9_card": (
        "C9",
        "Only the swap card J exchanges two pawns, and J does nothing else.",
        "Kun byttekortet J bytter to brikker, og J kan ikke andet.",
    ),
    "c9_same": (
        "C9",
        "A swap needs two different fields.",
        "Et byt kræver to forskellige felter.",
    ),
    "c9_field": (
        "C9",
        "The swap card only exchanges pawns on numbered fields; {at} is not one.",
        "Byttekortet bytter kun brikker på nummererede felter; {at} er ikke et.",
    ),
    "c9_empty": (
        "C9",
        "There is no pawn on {at} to swap.",
        "Der står ingen brik på {at}, der kan byttes.",
    ),
    "c9_protected": (
        "C9",
        "The pawns on {at} are protected: a pawn sharing its field with its own colour cannot "
        "be swapped.",
        "Brikkerne på {at} er fredede: en brik, der står sammen med en brik i samme farve, "
        "kan ikke byttes.",
    ),
    # game flow
    "d2": (
        "D2",
        "It is {turn_en}'s turn, not {seat_en}'s.",
        "Det er {turn_da}s tur, ikke {seat_da}s.",
    ),
    "d4_size": (
        "D4",
        "A discard must show all {n} cards still in hand; {shown} shown.",
        "Ved afkast skal alle {n} kort på hånden vises; {shown} er vist.",
    ),
    "d4_playable": (
        "D4",
        "{seat_en} may not discard: card {card} can be played ({move}).",
        "{seat_da} må ikke smide kortene: kort {card} kan spilles ({move}).",
    ),
    "d4_move": (
        "D4",
        "A discard is not a move on the board; it is checked as a game-record entry.",
        "Et afkast er ikke et træk på brættet; det kontrolleres som en post i spillet.",
    ),
    "d6": (
        "D6",
        "Card {card} has already been played or discarded {n} times since the last shuffle.",
        "Kort {card} er allerede spillet eller smidt {n} gange siden sidste blanding.",
    ),
    # the printed rulebook (docs/rulesets/rulebook.md)
    "rb_t4": (
        "T4",
        "The way is blocked: a pawn stands on its own 0 at {at}, and no other pawn may pass "
        "0/15 then.",
        "Vejen er spærret: en brik står på sit eget 0 på {at}, og så må ingen anden brik "
        "passere 0/15.",
    ),
    "rb_f1": (
        "F1",
        "The pawn on {at} cannot move {n} steps: in House it may not pass or land on a pawn, "
        "nor go beyond 19.",
        "Brikken på {at} kan ikke flytte {n} felter: i Hus må den hverken passere eller lande "
        "på en brik eller komme forbi 19.",
    ),
    "rb_f7": (
        "F7",
        "÷4 never moves a pawn in House ({at}): a pawn in House cannot go back onto the track.",
        "÷4 flytter aldrig en brik i Hus ({at}): en brik i Hus kan ikke komme ud på banen igen.",
    ),
    "rb_c8": (
        "C8",
        "No pawn can come into play: two pawns of one colour stand on {at} (0/15) and block it.",
        "Ingen brik kan rykke ud: to brikker af samme farve står på {at} (0/15) og spærrer.",
    ),
    "rb_c9": (
        "C9",
        "The pawn on {at} cannot be swapped: pawns on their own 0 or 15, pairs and pawns in "
        "House or Start are safe.",
        "Brikken på {at} kan ikke byttes: brikker på eget 0 eller 15, par og brikker i Hus "
        "eller Start er fredede.",
    ),
    "rb_c9_own0": (
        "C9",
        "A pawn cannot be swapped onto its own 0: it reaches its 0 only from Start.",
        "En brik kan ikke byttes ind på sit eget 0: den kommer kun dertil fra Start.",
    ),
    "w1": (
        "W1",
        "The game is over: team {team} has won.",
        "Spillet er slut: parret {team} har vundet.",
    ),
}


class EngineError(ValueError):
    """Base of every expected engine failure.

    ``rule`` is a RULES.md id (``"N"`` for notation), ``message_en`` and
    ``message_da`` are plain-language sentences a judge can read out.
    """

    def __init__(self, rule: str, message_en: str, message_da: str) -> None:
        super().__init__(message_en)
        self.rule = rule
        self.message_en = message_en
        self.message_da = message_da

    @property
    def message(self) -> str:
        """The English message (alias of ``message_en``)."""
        return self.message_en

    def to_json(self) -> dict[str, str]:
        """``{"rule", "message", "message_da"}`` as used by the command line."""
        return {"rule": self.rule, "message": self.message_en, "message_da": self.message_da}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rule!r}, {self.message_en!r})"

    @classmethod
    def of(cls, key: str, **kw: Any) -> Self:
        """Build an error from the message catalogue."""
        rule, en, da = MESSAGES[key]
        seat = kw.get("seat")
        if seat is not None:
            kw.setdefault("seat_en", COLOUR_EN.get(seat, seat))
            kw.setdefault("seat_da", COLOUR_DA.get(seat, seat))
        turn = kw.get("turn")
        if turn is not None:
            kw.setdefault("turn_en", COLOUR_EN.get(turn, turn))
            kw.setdefault("turn_da", COLOUR_DA.get(turn, turn))
        kw.setdefault("why_da", kw.get("why", ""))
        en_text = en.format(**kw)
        da_text = da.format(**kw)
        return cls(rule, en_text[0].upper() + en_text[1:], da_text[0].upper() + da_text[1:])


class NotationError(EngineError):
    """A move, entry, card or record that cannot be read (rule ``N``)."""


class PositionError(EngineError):
    """A position that breaks an invariant (S2, T1, F1, B5)."""


class IllegalMoveError(EngineError):
    """A readable move or entry that the rules do not allow."""
