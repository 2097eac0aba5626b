"""A judge at an event or a game: who may make a judge's write, checked once where it enters."""

from __future__ import annotations

import dataclasses
from typing import Self

from core.users import Actor
from games.models import Game
from tournament.models import Tournament
from tournament.permissions import require_judge


@dataclasses.dataclass(frozen=True)
class JudgeAtEvent:
    """A judge (or organiser) of the tournament: made only after the check that they are.

    The judge's pages check once, before any game, call or ruling is looked
    up, and hand it down: the writes at one of the event's games take it as a
    ``JudgeAtGame`` (``JudgeAtGame.of``), taking and closing a judge call and
    undoing a ruling take it as it is, without checking again.
    """

    tournament: Tournament
    actor: Actor

    def __post_init__(self) -> None:
        require_judge(self.actor, self.tournament)

    def at_event(self, tournament: Tournament) -> JudgeAtEvent:
        """This judge at ``tournament``: the check made, or made now for another event.

        A call or ruling of another event is refused as the check refuses it
        (403) unless the actor judges that event too.
        """
        if tournament.pk == self.tournament.pk:
            return self
        return JudgeAtEvent(tournament, self.actor)


@dataclasses.dataclass(frozen=True)
class JudgeAtGame:
    """A judge (or organiser) of the game's event: made only after the check that they are.

    The judge-only writes (the clock's pause, resume and extension; judging's
    rulings through its ``JudgeAtTable``) take it instead of a game and an
    actor, so who acts is checked once, where the request enters (a view, a
    page, a judge call being closed), before any field is read. ``of`` makes
    it from a judge already checked at the event, without a second check.
    """

    game: Game
    actor: Actor
    checked: dataclasses.InitVar[JudgeAtEvent | None] = None

    def __post_init__(self, checked: JudgeAtEvent | None) -> None:
        if (
            checked is None
            or checked.actor is not self.actor
            or checked.tournament.pk != self.game.round.tournament_id
        ):
            require_judge(self.actor, self.game.round.tournament)

    @classmethod
    def of(cls, judge: JudgeAtEvent, game: Game) -> Self:
        """``judge`` at ``game``: checked again only for a game of another event."""
        event = judge.at_event(game.round.tournament)
        return cls(game, event.actor, event)
