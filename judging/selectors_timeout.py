"""What the engine proposes for a game stopped at the time limit (RULES W3; DUO W2).

The one proposal the judge's decision form shows and ``adjudication_decide``
checks against. It is measured from the table's move log; a table that logged
nothing has no position to measure (the starting position would make every
such game "level"), so then the numbers a recorded result carries are used,
and without those there is no proposal, said in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import bilingual, in_language
from games.engine import EngineError
from games.models import Game
from games.selectors.adjudication import (
    SideStanding,
    adjudication_order,
    adjudication_proposal,
    adjudication_winner,
)

ProposalSource = Literal["log", "result", "none"]

_NOTHING_TO_MEASURE = gettext_lazy(
    "No moves are logged at this table, so the engine has no position to measure: "
    "decide from the score sheet and write why."
)


@dataclass(frozen=True)
class TimeoutProposal:
    """The proposal for a timed-out game and where it comes from (``timeout_proposal``).

    ``teams`` is None when there is nothing to measure; ``position`` and
    ``locked`` are held only by a proposal measured on the log.
    """

    source: ProposalSource
    winner: str | None
    order: str
    rule: str
    teams: dict[str, SideStanding] | None
    reason_en: str
    reason_da: str
    position: dict[str, list[str]] | None = None
    locked: dict[str, list[str]] | None = None

    def teams_json(self) -> dict[str, dict[str, int | None]] | None:
        if self.teams is None:
            return None
        return {team: side.to_json() for team, side in self.teams.items()}

    def to_json(self) -> dict[str, Any]:
        """The judging API's answer (``judging.answers``), in the fields' order."""
        data: dict[str, Any] = {
            "source": self.source,
            "winner": self.winner,
            "order": self.order,
            "rule": self.rule,
            "teams": self.teams_json(),
            "reason_en": self.reason_en,
            "reason_da": self.reason_da,
        }
        if self.position is not None:
            data["position"] = self.position
        if self.locked is not None:
            data["locked"] = self.locked
        return data


def is_timed_out(game: Game) -> bool:
    """Stopped at the time limit: awaiting its decision, or decided on time."""
    return game.status == Game.Status.TIME_UP or (
        game.status == Game.Status.FINISHED and game.timed_out
    )


def _from_result(game: Game, rule: str) -> TimeoutProposal | None:
    """W3 on the numbers a recorded result carries (a table that kept score on paper)."""
    locked = {"YB": game.locked_yb, "RG": game.locked_rg}
    distance = {"YB": game.distance_yb, "RG": game.distance_rg}
    order = adjudication_order(game.round.tournament)
    decided = adjudication_winner(order, locked, distance)
    if decided is None:
        return None
    winner, why_en, why_da = decided
    return TimeoutProposal(
        source="result",
        winner=winner,
        order=order,
        rule=rule,
        teams={t: SideStanding(distance=distance[t], locked=locked[t]) for t in ("YB", "RG")},
        reason_en=f"From the recorded result: {why_en} ({rule}).",
        reason_da=f"Ifølge det indtastede resultat: {why_da} ({rule}).",
    )


def timeout_proposal(*, game: Game) -> TimeoutProposal:
    """The engine's proposal for a timed-out game, and where it comes from.

    ``source`` is ``"log"`` (measured on the logged position), ``"result"``
    (from the numbers of the recorded result) or ``"none"`` (nothing to
    measure: ``winner`` and ``teams`` are None). ``winner`` is None also when
    the pairs are level. ``reason_en``/``reason_da`` say it in words.
    """
    rule = game.round.tournament.variant.timeout_rule
    if game.move_entries.filter(withdrawn_at__isnull=True).exists():
        try:
            measured = adjudication_proposal(game=game)
            return TimeoutProposal(
                source="log",
                winner=measured.winner,
                order=measured.order,
                rule=measured.rule,
                teams=measured.teams,
                reason_en=measured.reason_en,
                reason_da=measured.reason_da,
                position=measured.position,
                locked=measured.locked,
            )
        except EngineError:
            pass  # a log the engine cannot read measures nothing; try the result's numbers
    recorded = _from_result(game, rule)
    if recorded is not None:
        return recorded
    return TimeoutProposal(
        source="none",
        winner=None,
        order=adjudication_order(game.round.tournament),
        rule=rule,
        teams=None,
        reason_en=in_language(_NOTHING_TO_MEASURE, "en"),
        reason_da=in_language(_NOTHING_TO_MEASURE, "da"),
    )


def team_name(game: Game, team: str) -> str:
    """A side in words: the pair's colours, or a DUO player's colour."""
    if game.round.tournament.is_singles:
        return _("Yellow") if team == "YB" else _("Red")
    return _("Yellow/Blue") if team == "YB" else _("Red/Green")


def proposal_text(game: Game, proposal: TimeoutProposal) -> str:
    """The proposal in one sentence of the active language, the winner named in words."""
    reason = str(bilingual(proposal.reason_en, proposal.reason_da))
    if proposal.source == "none":
        return reason
    if proposal.winner is None:
        return _("No winner: the two sides are level. %(reason)s") % {"reason": reason}
    return _("%(side)s wins. %(reason)s") % {
        "side": team_name(game, proposal.winner),
        "reason": reason,
    }
