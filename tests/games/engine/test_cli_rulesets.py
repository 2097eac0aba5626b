"""The command line with every ruleset, and a discard given to ``apply`` (NOTATION "apply")."""

import json

import pytest

from games.engine import Position, get_ruleset, selfplay_game
from games.engine.cli import main

from .test_cli import POS

HOME = {s: [s + "H"] * 4 for s in "YRBG"}


def ask(cmd, request):
    import io

    out = io.StringIO()
    code = main([cmd], io.StringIO(json.dumps(request)), out)
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize("name", ["dm2023", "rulebook", "fr"])
def test_every_ruleset_answers_legal_and_replay(name):
    code, ans = ask("legal", {"ruleset": name, "position": HOME, "seat": "Y", "card": "8"})
    assert code == 0 and ans == {"moves": ["8: in"]}
    code, ans = ask("replay", selfplay_game(7, get_ruleset(name)))
    assert code == 0 and ans["ok"] is True and ans["winner"] in ("YB", "RG")


def test_unknown_ruleset_is_a_typed_error_naming_the_known_ones():
    code, ans = ask("legal", {"ruleset": "chess", "position": HOME, "seat": "Y", "card": "8"})
    assert code == 2 and ans["error"]["rule"] == "N"
    assert "chess" in ans["error"]["message"] and "rulebook" in ans["error"]["message"]
    assert ans["error"]["message_da"].startswith("Ukendt regelsæt")
    code, ans = ask("replay", {"ruleset": 5, "first_dealer": "Y", "moves": []})
    assert code == 2 and ans["error"]["rule"] == "N"


def test_rulebook_positions_and_moves_use_x15():
    pos = dict(HOME, Y=["YS", "Y15", "YH", "YH"], G=["G12", "GH", "GH", "GH"])
    code, ans = ask(
        "apply", {"ruleset": "rulebook", "position": pos, "seat": "G", "move": "3: G12+3"}
    )
    assert code == 0 and ans["ok"] is True
    assert ans["events"] == [
        {"type": "hit", "colour": "Y", "at": "Y15"},
        {"type": "hit", "colour": "G", "at": "YS"},
    ]
    code, ans = ask("legal", {"ruleset": "dm2023", "position": pos, "seat": "G", "card": "3"})
    assert code == 2 and ans["error"]["rule"] == "B5"


def test_apply_a_discard_checks_d4_and_returns_the_position_unchanged():
    code, ans = ask(
        "apply", {"ruleset": "dm2023", "position": POS, "seat": "B", "move": "X: 2 3 5 9"}
    )
    same = Position.from_json(POS).to_json()
    assert code == 0 and ans == {"ok": True, "position": same, "events": []}
    code, ans = ask("apply", {"ruleset": "dm2023", "position": POS, "seat": "B", "move": "X: 2 8"})
    assert code == 0 and ans["ok"] is False and ans["error"]["rule"] == "D4"
    assert "8: in" in ans["error"]["message"]
    code, ans = ask("apply", {"ruleset": "dm2023", "position": POS, "seat": "B", "move": "X: 2 Q"})
    assert code == 2 and ans["error"]["rule"] == "N"


def test_duo_through_the_command_line():
    from games.engine import duo
    from games.engine.ruleset import DUO

    home = {a: [a + "H"] * 3 for a in duo.AREAS}
    code, ans = ask("legal", {"ruleset": "duo", "position": home, "seat": "R", "card": "6"})
    assert code == 0 and ans == {"moves": ["6: in RK", "6: in RO"]}
    code, ans = ask("apply", {"ruleset": "duo", "position": home, "seat": "Y", "move": "8: in YO"})
    assert code == 0 and ans["ok"] is True and ans["position"]["YO"] == ["YOH", "YOH", "YOS"]
    code, ans = ask("apply", {"ruleset": "duo", "position": home, "seat": "Y", "move": "X: 1"})
    assert code == 0 and ans["ok"] is False and ans["error"]["rule"] == "D3"
    code, ans = ask("legal", {"ruleset": "duo", "position": home, "seat": "G", "card": "6"})
    assert code == 2 and ans["error"]["rule"] == "N"
    code, ans = ask("legal", {"ruleset": "duo", "position": home, "seat": "Y", "card": "13"})
    assert code == 2
    code, ans = ask("replay", duo.selfplay_game(1, DUO))
    assert code == 0 and ans["ok"] is True and ans["winner"] in ("Y", "R")
