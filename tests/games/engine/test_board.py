"""Seats, teams and the board tables (RULES S1, B1–B5)."""

from games.engine import CARDS, SEATS, TEAMS, partner_of, team_of
from games.engine.board import CODES, LID, PATH


def test_s1_seats_teams_partners():
    assert SEATS == ("Y", "R", "B", "G")
    assert TEAMS == {"YB": ("Y", "B"), "RG": ("R", "G")}
    assert [team_of(s) for s in SEATS] == ["YB", "RG", "YB", "RG"]
    assert [partner_of(s) for s in SEATS] == ["B", "G", "Y", "R"]


def test_c1_card_kinds():
    assert CARDS == ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J")


def test_b5_location_order_is_id_order():
    assert CODES[:20] == ("YH", "YS", *(f"Y{n}" for n in range(1, 15)), "YM1", "YM2", "YM3", "YM4")
    assert CODES[20] == "RH" and CODES[79] == "GM4"
    assert all(LID[c] == i for i, c in enumerate(CODES))


def test_b1_b4_paths():
    y, r = PATH[0], PATH[1]
    assert len(y) == 61
    assert [CODES[x] for x in y[:3]] == ["YS", "Y1", "Y2"]
    # Y's path ends G14 -> YM4 ... YM1; R's ends Y14 -> RM4 (B4)
    assert [CODES[x] for x in y[55:]] == ["G13", "G14", "YM4", "YM3", "YM2", "YM1"]
    assert [CODES[x] for x in r[55:]] == ["Y13", "Y14", "RM4", "RM3", "RM2", "RM1"]
    # the 56 numbered fields appear once on every path, start fields never (B1, B2)
    for c in range(4):
        fields = [CODES[x] for x in PATH[c][1:57]]
        assert len(set(fields)) == 56 and not any(f.endswith("S") for f in fields)
