"""Remaining distance and time-out adjudication (RULES.md W3)."""

from __future__ import annotations

from typing import Any

from .board import PIDX, REMAINING_HOME, REMAINING_START, SEATS, TEAMS
from .position import Position, locked_count
from .ruleset import DM2023, Ruleset


def pawn_distances(locs: tuple[int, ...] | list[int]) -> list[list[int]]:
    """Steps each pawn still needs to reach its M1, per colour (W3)."""
    out: list[list[int]] = []
    for c in range(4):
        lc = locked_count(locs, c)
        row = []
        for lid in sorted(locs[4 * c : 4 * c + 4]):
            p = PIDX[c][lid]
            if p == -1:
                row.append(REMAINING_HOME)
            elif p == 0:
                row.append(REMAINING_START)
            elif p > 60 - lc:
                row.append(0)
            else:
                row.append(60 - p)
        out.append(row)
    return out


def team_standing(position: Position) -> tuple[int, int, int, int]:
    """``(distance YB, distance RG, locked YB, locked RG)``: the two teams' W3 numbers.

    The same numbers as :func:`remaining_distance` and the locked counts of
    :func:`adjudicate`, in one pass without building per-pawn lists: for
    statistics that read them after every entry of many games.
    """
    locs = position.locs
    distance = [0, 0, 0, 0]
    locked = [0, 0, 0, 0]
    for c in range(4):
        lc = locked_count(locs, c)
        locked[c] = lc
        pidx = PIDX[c]
        total = 0
        for lid in locs[4 * c : 4 * c + 4]:
            p = pidx[lid]
            if p == -1:
                total += REMAINING_HOME
            elif p == 0:
                total += REMAINING_START
            elif p <= 60 - lc:
                total += 60 - p
        distance[c] = total
    # Seats Y, R, B, G: Yellow/Blue are 0 and 2, Red/Green 1 and 3.
    return (
        distance[0] + distance[2],
        distance[1] + distance[3],
        locked[0] + locked[2],
        locked[1] + locked[3],
    )


def remaining_distance(position: Position) -> dict[str, Any]:
    """Remaining distance per pawn and per team (W3).

    ``{"pawns": {"Y": [4 ints], …}, "teams": {"YB": int, "RG": int}}``:
    the steps each pawn still needs to reach its innermost goal circle along
    its path; a locked pawn 0, a pawn on its start field 60, in its start
    circle 61. Pawns are listed in location order.
    """
    rows = pawn_distances(position.locs)
    pawns = {s: rows[c] for c, s in enumerate(SEATS)}
    teams = {t: sum(pawns[a]) + sum(pawns[b]) for t, (a, b) in TEAMS.items()}
    return {"pawns": pawns, "teams": teams}


def adjudicate(position: Position, ruleset: Ruleset = DM2023) -> dict[str, Any]:
    """Propose the winner of a game stopped at the time limit (W3).

    Order ``"distance"``: fewer remaining steps wins. Order
    ``"locked_then_distance"``: more locked pawns wins, then fewer steps.
    A won position (W1) is decided by W1. ``winner`` is None on a tie. The
    engine proposes; a judge confirms or overrides with a written reason.
    """
    dist = remaining_distance(position)["teams"]
    locked = {
        t: locked_count(position.locs, SEATS.index(a)) + locked_count(position.locs, SEATS.index(b))
        for t, (a, b) in TEAMS.items()
    }
    teams = {t: {"distance": dist[t], "locked": locked[t]} for t in TEAMS}
    order = ruleset.adjudication
    won = position.winner()
    if won is not None:
        return {
            "winner": won,
            "order": order,
            "teams": teams,
            "reason_en": f"Team {won} has all 8 pawns locked (W1).",
            "reason_da": f"Parret {won} har alle 8 brikker låst fast (W1).",
        }
    winner: str | None = None
    if order == "locked_then_distance" and locked["YB"] != locked["RG"]:
        winner = "YB" if locked["YB"] > locked["RG"] else "RG"
        loser = "RG" if winner == "YB" else "YB"
        en = f"Team {winner} has more locked pawns ({locked[winner]} against {locked[loser]})"
        da = f"Parret {winner} har flere brikker låst fast ({locked[winner]} mod {locked[loser]})"
    elif dist["YB"] != dist["RG"]:
        winner = "YB" if dist["YB"] < dist["RG"] else "RG"
        loser = "RG" if winner == "YB" else "YB"
        en = f"Team {winner} has less distance left ({dist[winner]} against {dist[loser]} steps)"
        da = f"Parret {winner} har kortest vej tilbage ({dist[winner]} mod {dist[loser]} felter)"
    else:
        en = f"The teams are level ({dist['YB']} steps each)"
        da = f"Parrene står lige ({dist['YB']} felter hver)"
    return {
        "winner": winner,
        "order": order,
        "teams": teams,
        "reason_en": en + " (W3).",
        "reason_da": da + " (W3).",
    }
