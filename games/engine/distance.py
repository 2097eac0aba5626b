"""Remaining distance and time-out adjudication (RULES.md W3)."""

from __future__ import annotations

from typing import Any

from .board import IS_GOAL, NLOC, PIDX, REMAINING_HOME, REMAINING_START, SEATS, TEAMS
from .duo.game import SIDE_TEAM
from .duo.game import remaining_distance as duo_remaining_distance
from .duo.position import DuoPosition
from .position import Position, locked_count
from .ruleset import DM2023, Ruleset
from .variants import rules_of
from .walk import pawn_distances

__all__ = [
    "adjudicate",
    "duo_adjudicate",
    "duo_distance",
    "four_seat_adjudicate",
    "four_seat_distance",
    "four_seat_standing",
    "pawn_distances",
    "remaining_distance",
    "standing_of",
    "team_standing",
]


def remaining_distance(
    position: Position | DuoPosition, ruleset: Ruleset = DM2023
) -> dict[str, Any]:
    """Remaining distance per pawn and per team (W3).

    ``{"pawns": {"Y": [4 ints], …}, "teams": {"YB": int, "RG": int}}``:
    the steps each pawn still needs to reach its innermost goal circle along
    its path; a locked pawn 0, a pawn on its start field 60, in its start
    circle 61. Pawns are listed in location order. The rulebook measures to
    House instead (its W3 Decision: House 0, own 15 1, own 0 61, Start 62).
    A DUO position (docs/rulesets/duo.md W2) lists its pawns per area and
    its sides as ``"YB"`` (player Y) and ``"RG"`` (player R). The ruleset's
    variant measures (:meth:`.variant.Variant.remaining_distance`).
    """
    from .variant import variant_of  # the registry sits above the modules that measure

    return variant_of(ruleset).remaining_distance(position)


def four_seat_distance(position: Position, ruleset: Ruleset) -> dict[str, Any]:
    """:func:`remaining_distance` of a four-seat position."""
    rows = rules_of(ruleset).pawn_distances(position.locs)
    pawns = {s: rows[c] for c, s in enumerate(SEATS)}
    teams = {t: sum(pawns[a]) + sum(pawns[b]) for t, (a, b) in TEAMS.items()}
    return {"pawns": pawns, "teams": teams}


def duo_distance(position: DuoPosition) -> dict[str, Any]:
    """:func:`remaining_distance` of a DUO position: per area, and per side as its result code."""
    duo = duo_remaining_distance(position)
    teams = {SIDE_TEAM[p]: n for p, n in duo["players"].items()}
    return {"pawns": duo["pawns"], "teams": teams, "players": duo["players"]}


def team_standing(
    position: Position | DuoPosition, ruleset: Ruleset = DM2023
) -> tuple[int, int, int, int]:
    """``(distance YB, distance RG, locked YB, locked RG)``: the two teams' W3 numbers.

    The same numbers as :func:`remaining_distance` and the locked counts of
    :func:`adjudicate`, in one pass without building per-pawn lists: for
    statistics that read them after every entry of many games
    (:meth:`.variant.Variant.team_standing`).
    """
    from .variant import variant_of  # the registry sits above the modules that measure

    return variant_of(ruleset).team_standing(position)


def standing_of(proposal: dict[str, Any], distance: dict[str, Any]) -> tuple[int, int, int, int]:
    """:func:`team_standing` from an adjudication ``proposal`` and a :func:`remaining_distance`."""
    dist, teams = distance["teams"], proposal["teams"]
    return dist["YB"], dist["RG"], teams["YB"]["locked"], teams["RG"]["locked"]


def four_seat_standing(position: Position, ruleset: Ruleset) -> tuple[int, int, int, int]:
    """:func:`team_standing` of a four-seat position; a board other than dm2023's
    (the rulebook's House) goes the long way."""
    if rules_of(ruleset).pawn_distances is not pawn_distances:
        return standing_of(
            four_seat_adjudicate(position, ruleset), four_seat_distance(position, ruleset)
        )
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


def adjudicate(position: Position | DuoPosition, ruleset: Ruleset = DM2023) -> dict[str, Any]:
    """Propose the winner of a game stopped at the time limit (W3).

    Order ``"distance"``: fewer remaining steps wins. Order
    ``"locked_then_distance"``: more locked pawns wins, then fewer steps.
    Order ``"distance_to_house"`` (rulebook W3): fewer steps to House wins,
    then more pawns in House.
    A won position (W1) is decided by W1. ``winner`` is None on a tie;
    ``rule`` names the time-out rule (``W3``; DUO ``W2``). The
    engine proposes; a judge confirms or overrides with a written reason.
    The ruleset's variant decides (:meth:`.variant.Variant.adjudicate`; a DUO
    position by DUO W1/W2, :func:`duo_adjudicate`).
    """
    from .variant import variant_of  # the registry sits above the modules that measure

    return variant_of(ruleset).adjudicate(position)


def four_seat_adjudicate(position: Position, ruleset: Ruleset) -> dict[str, Any]:
    """:func:`adjudicate` of a four-seat position."""
    dist = four_seat_distance(position, ruleset)["teams"]
    order = ruleset.adjudication
    if order == "distance_to_house":
        locs = position.locs
        house = [
            sum(1 for x in locs[4 * c : 4 * c + 4] if x < NLOC and IS_GOAL[x]) for c in range(4)
        ]
        locked = {t: house[SEATS.index(a)] + house[SEATS.index(b)] for t, (a, b) in TEAMS.items()}
    else:
        locked = {
            t: locked_count(position.locs, SEATS.index(a))
            + locked_count(position.locs, SEATS.index(b))
            for t, (a, b) in TEAMS.items()
        }
    teams = {t: {"distance": dist[t], "locked": locked[t]} for t in TEAMS}
    won = position.winner()
    if won is not None:
        return {
            "winner": won,
            "order": order,
            "rule": "W3",
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
    elif order == "distance_to_house" and locked["YB"] != locked["RG"]:
        winner = "YB" if locked["YB"] > locked["RG"] else "RG"
        loser = "RG" if winner == "YB" else "YB"
        en = f"Team {winner} has more pawns in House ({locked[winner]} against {locked[loser]})"
        da = f"Parret {winner} har flere brikker i Hus ({locked[winner]} mod {locked[loser]})"
    else:
        en = f"The teams are level ({dist['YB']} steps each)"
        da = f"Parrene står lige ({dist['YB']} felter hver)"
    return {
        "winner": winner,
        "order": order,
        "rule": "W3",
        "teams": teams,
        "reason_en": en + " (W3).",
        "reason_da": da + " (W3).",
    }


def duo_adjudicate(position: DuoPosition) -> dict[str, Any]:
    """DUO W1, else W2: fewer remaining steps wins; equal is level (docs/rulesets/duo.md)."""
    dist = duo_distance(position)["teams"]
    locked = {SIDE_TEAM[p]: len(position.locked(p)) for p in SIDE_TEAM}
    teams = {t: {"distance": dist[t], "locked": locked[t]} for t in ("YB", "RG")}
    won = position.winner()
    answer: dict[str, Any] = {"order": "distance", "rule": "W2", "teams": teams}
    if won is not None:
        en, da = ("yellow", "gul") if won == "Y" else ("red", "rød")
        return {
            **answer,
            "winner": SIDE_TEAM[won],
            "reason_en": f"Player {won} ({en}) has all 6 pawns locked (W1).",
            "reason_da": f"Spiller {won} ({da}) har alle 6 brikker låst fast (W1).",
        }
    if dist["YB"] == dist["RG"]:
        return {
            **answer,
            "winner": None,
            "reason_en": f"The players are level ({dist['YB']} steps each) (W2).",
            "reason_da": f"Spillerne står lige ({dist['YB']} felter hver) (W2).",
        }
    winner = "YB" if dist["YB"] < dist["RG"] else "RG"
    loser = "RG" if winner == "YB" else "YB"
    side = winner[0]
    return {
        **answer,
        "winner": winner,
        "reason_en": f"Player {side} has less distance left ({dist[winner]} against "
        f"{dist[loser]} steps) (W2).",
        "reason_da": f"Spiller {side} har kortest vej tilbage ({dist[winner]} mod "
        f"{dist[loser]} felter) (W2).",
    }
