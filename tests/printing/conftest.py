"""Fixtures for the printing tests: a published round with three tables."""

from __future__ import annotations

import pytest

from tests.factories import (
    GameFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    judge_of,
    organiser_of,
)


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SITE_URL = "https://dm.example"
    return settings.MEDIA_ROOT


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="DM i Partners 2026", slug="dm-2026")


@pytest.fixture
def organiser(tournament):
    return organiser_of(tournament)


@pytest.fixture
def judge(tournament):
    return judge_of(tournament)


def make_pair(tournament, number, first, second):
    return PairFactory(
        tournament=tournament,
        start_number=number,
        player_1=PlayerFactory(tournament=tournament, name=first),
        player_2=PlayerFactory(tournament=tournament, name=second),
    )


@pytest.fixture
def round_with_games(tournament):
    round = RoundFactory(tournament=tournament, number=1)
    names = [
        ("Anne Als", "Bo Bak"),
        ("Carl Carlsen", "Dorte Dam"),
        ("Erik Eg", "Fie Fisk"),
        ("Gorm Gram", "Hanne Hald"),
        ("Ib Ild", "Jytte Juul"),
        ("Karl Kok", "Lis Lund"),
    ]
    pairs = [make_pair(tournament, i + 1, a, b) for i, (a, b) in enumerate(names)]
    for table in range(3):
        GameFactory(
            round=round,
            table_number=table + 1,
            pair_yb=pairs[2 * table],
            pair_rg=pairs[2 * table + 1],
            first_dealer="RGYB"[table],
        )
    return round
