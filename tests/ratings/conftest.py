"""Events whose players are people, and results entered through the result service."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game
from ratings.tasks import ratings_update
from tests.factories import (
    GameFactory,
    PairFactory,
    PersonFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    organiser_of,
)


@pytest.fixture
def people(db: None) -> list[Any]:
    return [PersonFactory(name=n, publish_consent=True) for n in ("Anna", "Bo", "Carl", "Dina")]


@pytest.fixture
def make_game(db: None) -> Callable[..., Game]:
    """A game of two pairs of people at an event on ``day`` (one event per day)."""
    events: dict[datetime.date, Any] = {}

    def make(day: datetime.date, yb: tuple[Any, Any], rg: tuple[Any, Any], number: int = 1) -> Game:
        if day not in events:
            tournament = TournamentFactory(date=day)
            events[day] = (tournament, organiser_of(tournament, f"org-{day}"), {}, {})
        tournament, _, pairs, rounds = events[day]
        for duo in (yb, rg):
            if duo not in pairs:
                players = [PlayerFactory(tournament=tournament, name=p.name, person=p) for p in duo]
                pairs[duo] = PairFactory(
                    tournament=tournament, player_1=players[0], player_2=players[1]
                )
        if number not in rounds:
            rounds[number] = RoundFactory(tournament=tournament, number=number)
        return GameFactory(round=rounds[number], pair_yb=pairs[yb], pair_rg=pairs[rg])

    make.organiser = lambda game: events[game.round.tournament.date][1]  # type: ignore[attr-defined]
    return make


@pytest.fixture
def updates_now(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Queued rating updates run at once (as a worker would) and are listed."""
    sent: list[int] = []

    def run(game_id: int) -> None:
        sent.append(game_id)
        ratings_update.run(game_id)

    monkeypatch.setattr(ratings_update, "delay", run)
    return sent
