"""Fixtures for the move-log tests: a game, its token and a self-play record for it."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.engine import selfplay_game
from games.selectors import log_cache
from games.services.tokens import game_token
from tests.factories import GameFactory


@pytest.fixture(autouse=True)
def _fresh_log_cache():
    # The replay cache is per process; tests must not see each other's logs.
    log_cache.clear()
    cache.clear()
    yield
    log_cache.clear()
    cache.clear()


@pytest.fixture
def game(db):
    return GameFactory(first_dealer="Y")


@pytest.fixture
def token(game):
    return game_token(game=game)


@pytest.fixture(scope="session")
def record():
    """A complete legal game with Yellow as first dealer (Red opens)."""
    return selfplay_game(7, first_dealer="Y")
