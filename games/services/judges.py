"""A judge at a game: who may make a judge's write, checked once where the request enters."""

from __future__ import annotations

import dataclasses

from core.users import Actor
from games.models import Game
from tournament.permissions import require_judge


@dataclasses.dataclass(frozen=True)
class JudgeAtGame:
    """A judge (or organiser) of the game's event: made only after the check that they are.

    The judge-only writes (the clock's pause, resume and extension; judging's
    rulings through its ``JudgeAtTable``) take it instead of a game and an
    actor, so who acts is checked once, where the request enters (a view, a
    page, a judge call being closed), before any field is read.
    """

    game: Game
    actor: Actor

    def __post_init__(self) -> None:
        require_judge(self.actor, self.game.round.tournament)
