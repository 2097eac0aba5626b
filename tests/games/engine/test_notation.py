"""Move notation: parse, canonical format, round trip (NOTATION "Moves")."""

import pytest

from games.engine import Move, NotationError, format_move, parse_entry, parse_move
from games.engine.notation import Discard

CANONICAL = [
    "11: in",
    "5: Y3+5",
    "1: Y3+14",
    "4: YS-4",
    "7: Y3+5 RM3+2",
    "J: Y3<>R10",
    "13: in",
    "8: GM4+8",
    "7: Y3+3 Y3+4",
    "7: Y3+4 Y3+3",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_round_trip(text):
    m = parse_move(text)
    assert format_move(m) == text == str(m)
    assert parse_move(format_move(m)) == m


def test_move_fields():
    m = parse_move("7: Y3+5 RM3+2")
    assert m.card == "7" and m.kind == "steps"
    assert m.steps == (("Y3", 5), ("RM3", 2))
    s = parse_move("J: R10<>Y3")
    assert s.kind == "swap" and s.swap == ("Y3", "R10")
    assert parse_move("8: in").kind == "in"


def test_swap_is_canonicalised_to_location_order():
    assert str(parse_move("J: R10<>Y3")) == "J: Y3<>R10"
    assert str(parse_move("J: GM1<>Y14")) == "J: Y14<>GM1"


def test_steps_of_a_seven_keep_their_order():
    assert str(parse_move("7: RM3+2 Y3+5")) == "7: RM3+2 Y3+5"
    assert parse_move("7: RM3+2 Y3+5") != parse_move("7: Y3+5 RM3+2")


def test_destination_suffix_is_read_and_dropped():
    m = parse_move("5: Y3+5>Y8")
    assert str(m) == "5: Y3+5" and m.dests is not None


def test_extra_spaces_tolerated():
    assert str(parse_move("5:   Y3+5 ")) == "5: Y3+5"


def test_move_constructor():
    assert str(Move("7", "steps", (("Y3", 5), ("RM3", 2)))) == "7: Y3+5 RM3+2"
    assert str(Move("J", "swap", swap=("R10", "Y3"))) == "J: Y3<>R10"
    assert str(Move("8", "in")) == "8: in"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "5",
        "5 Y3+5",
        "15: Y3+5",
        "Q: in",
        "5: Y3",
        "5: Y3*5",
        "5: Z3+5",
        "5: Y15+1",
        "5: YM5+1",
        "J: Y3<>",
        "J: Y3<>Y99",
        "5: Y3+5 in",
        "7: in Y3+2",
        "X: 2 3",
        "5: Y3+5>Q1",
        "5: Y3+",
        None,
        5,
    ],
)
def test_malformed_moves_raise_notation_error(text):
    with pytest.raises(NotationError) as e:
        parse_move(text)
    assert e.value.rule == "N"
    assert e.value.message_en and e.value.message_da and e.value.message == e.value.message_en
    assert set(e.value.to_json()) == {"rule", "message", "message_da"}


def test_entries_and_discards():
    assert parse_entry("Y 5: Y3+5") == ("Y", parse_move("5: Y3+5"))
    seat, d = parse_entry("R X: 12 2 J 3")
    assert seat == "R" and isinstance(d, Discard) and str(d) == "X: 2 3 12 J"
    for bad in ["Q 5: Y3+5", "Y", "Y X:", "Y X: 2 Q", "5: Y3+5"]:
        with pytest.raises(NotationError):
            parse_entry(bad)
