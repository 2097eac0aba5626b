"""Fixtures for the judging tests: a started game with a move log, a judge, a token."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.engine import selfplay_game
from games.selectors import log_cache
from games.services.clock import clock_start
from games.services.move_log import move_submit
from games.services.tokens import game_token
from judging.serializers import RulingInputSerializer
from judging.services.rulings import JudgeAtTable, ruling_make
from tests.factories import GameFactory, TournamentRoleFactory, UserFactory, judge_of


@pytest.fixture(autouse=True)
def _fresh_log_cache():
    log_cache.clear()
    yield
    log_cache.clear()


@pytest.fixture(scope="session")
def record():
    return selfplay_game(7, first_dealer="Y")


@pytest.fixture
def game(db):
    return GameFactory(first_dealer="Y")


@pytest.fixture
def tournament(game):
    return game.round.tournament


@pytest.fixture
def judge(tournament):
    return judge_of(tournament, "dommer")


@pytest.fixture
def other_judge(db):
    """A judge of another tournament."""
    other = GameFactory().round.tournament
    return judge_of(other, "fremmed")


@pytest.fixture
def player(db):
    return UserFactory(username="spiller")


@pytest.fixture
def token(game):
    return game_token(game=game)


def ruling_input(kind, data, *, ruleset):
    """What a ruling asks for, read as the API reads its body: the one serializer, the
    kind first (``InputRefused`` names a bad field; an unknown kind is its own 400)."""
    ruling = RulingInputSerializer(data={**data, "kind": kind}, context={"ruleset": ruleset})
    ruling.is_valid(raise_exception=True)
    return ruling.ruling


def rule(*, game, actor, kind, data):
    """A ruling as the API and the review page make one: the judge checked at the
    table, the fields through the rulings serializer, then ``ruling_make``."""
    table = JudgeAtTable(game, actor)
    return ruling_make(table=table, request=ruling_input(kind, data, ruleset=table.ruleset))


def log_moves(game, moves):
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"test-{game.pk}-{i:04d}", expected_seq=i)


@pytest.fixture
def logged(game, record):
    """The game with its clock started and the first 10 entries of a self-play game."""
    clock_start(game=game)
    log_moves(game, record["moves"][:10])
    game.refresh_from_db()
    return game


@pytest.fixture
def api():
    return APIClient()


__all__ = ["TournamentRoleFactory", "log_moves", "ruling_input"]
