"""The time-out adjudication as the engine proposes it (RULES.md W3; DUO's W2).

Reads only: the event's tie-break order, the winner W3 gives from a result's
numbers, and the engine's proposal from the table's logged position. The
result a judge decides is written by ``games.services.results``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from games.engine import adjudicate, get_ruleset, position_from_json
from games.models import Game
from games.selectors.log import game_log, locked_by_seat


@dataclass(frozen=True)
class SideStanding:
    """What W3 weighs of one side: its remaining distance and its locked pawns
    (pawns in House, in the printed rulebook's reading); None when unknown."""

    distance: int | None
    locked: int | None

    def to_json(self) -> dict[str, int | None]:
        return {"distance": self.distance, "locked": self.locked}


def standings_of(teams: dict[str, dict[str, int | None]]) -> dict[str, SideStanding]:
    """The engine's ``teams`` of an adjudication as typed values."""
    return {
        team: SideStanding(distance=side["distance"], locked=side["locked"])
        for team, side in teams.items()
    }


@dataclass(frozen=True)
class AdjudicationProposal:
    """The engine's time-out proposal (W3; DUO W2) measured on the logged position.

    ``winner`` is None when the sides are level; ``reason_en``/``reason_da``
    say why, with the rule; ``position`` and ``locked`` are the position it
    was measured on and each seat's locked pawns, as ``TableState`` has them.
    """

    winner: str | None
    order: str
    rule: str
    teams: dict[str, SideStanding]
    reason_en: str
    reason_da: str
    position: dict[str, list[str]]
    locked: dict[str, list[str]]

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "order": self.order,
            "rule": self.rule,
            "teams": {team: side.to_json() for team, side in self.teams.items()},
            "reason_en": self.reason_en,
            "reason_da": self.reason_da,
            "position": self.position,
            "locked": self.locked,
        }


def adjudication_winner(
    order: str, locked: dict[str, int | None], distance: dict[str, int | None]
) -> tuple[str | None, str, str] | None:
    """The winner W3 gives from a result's numbers, with the reason in English and Danish.

    The same order as the engine's ``adjudicate`` applies to a position
    (``tests/games/test_results.py`` checks the two agree), here on the numbers
    as recorded, since a typed result has no position. The winner is None when
    the pairs are level; the answer is None when the numbers W3 needs are
    missing.
    """
    if order == "locked_then_distance":
        yb, rg = locked["YB"], locked["RG"]
        if yb is None or rg is None:
            return None
        if yb != rg:
            winner, loser = ("YB", "RG") if yb > rg else ("RG", "YB")
            return (
                winner,
                f"more locked pawns ({locked[winner]} against {locked[loser]})",
                f"flere brikker låst fast ({locked[winner]} mod {locked[loser]})",
            )
    yb, rg = distance["YB"], distance["RG"]
    if yb is None or rg is None:
        return None
    if yb == rg and order == "distance_to_house":
        # The printed rulebook's W3: level on distance to House, more pawns in House wins.
        in_house_yb, in_house_rg = locked["YB"], locked["RG"]
        if in_house_yb is not None and in_house_rg is not None and in_house_yb != in_house_rg:
            winner, loser = ("YB", "RG") if in_house_yb > in_house_rg else ("RG", "YB")
            return (
                winner,
                f"more pawns in House ({locked[winner]} against {locked[loser]})",
                f"flere brikker i Hus ({locked[winner]} mod {locked[loser]})",
            )
    if yb == rg:
        return None, f"{yb} steps left each", f"{yb} felter tilbage hver"
    winner, loser = ("YB", "RG") if yb < rg else ("RG", "YB")
    return (
        winner,
        f"less distance left ({distance[winner]} against {distance[loser]} steps)",
        f"kortere vej tilbage ({distance[winner]} mod {distance[loser]} felter)",
    )


def adjudication_order(tournament: Any) -> str:
    """The W3 order of an event: the organiser's choice, unless the ruleset's
    reading fixes its own (the printed rulebook: distance to House, then more
    pawns in House)."""
    rules = get_ruleset(tournament.ruleset)
    own = rules.adjudication
    if rules.adjudication_fixed or own not in tournament.Adjudication.values:
        return own  # DUO W2: remaining distance, whatever the event's setting
    return str(tournament.adjudication)


def adjudication_proposal(*, game: Game) -> AdjudicationProposal:
    """The engine's W3 proposal from the table's logged position, in the event's order."""
    tournament = game.round.tournament
    view = game_log(game=game)
    position = view.replay.position.to_json()
    ruleset = dataclasses.replace(
        get_ruleset(tournament.ruleset), adjudication=adjudication_order(tournament)
    )
    proposal = adjudicate(position_from_json(position, ruleset), ruleset)
    return AdjudicationProposal(
        winner=proposal["winner"],
        order=proposal["order"],
        rule=proposal["rule"],
        teams=standings_of(proposal["teams"]),
        reason_en=proposal["reason_en"],
        reason_da=proposal["reason_da"],
        position=position,
        locked=locked_by_seat(view),
    )
