"""A name with a right-to-left override cannot turn a page's line around.

Names typed today refuse direction controls (core.text.name_check), but a
name stored before, or restored from an old backup, may carry one. Every
page that shows pair or player names puts each in its own ``<bdi>``
element (or, where only text may stand, between the isolate characters
U+2068 and U+2069), where an override ends.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services.tokens import game_token
from tests.factories import (
    GameFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    judge_of,
    organiser_of,
)
from tournament.models import Round

pytestmark = pytest.mark.django_db

NAME = "Ali \u202eHansen"  # shows as "Ali nesnaH" and reverses what follows, unless isolated

_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)
_ATTRIBUTE = re.compile(r'="[^"]*"')
# In text-only places (an <option>), the isolate characters FSI … PDI.
_BDI = re.compile(r"<bdi>.*?</bdi>|&#x2068;.*?&#x2069;", re.DOTALL)


def _unisolated(page: str) -> int:
    """How often the name is shown on ``page`` outside a ``<bdi>`` element."""
    text = _BDI.sub("", _ATTRIBUTE.sub('=""', _TITLE.sub("", page)))
    return text.count(html.escape(NAME))


@pytest.fixture
def event():
    tournament = TournamentFactory(slug="bidi")
    organiser = organiser_of(tournament, "bidi-org")
    judge = judge_of(tournament, "bidi-judge")
    hansen = PairFactory(
        tournament=tournament, player_1=PlayerFactory(tournament=tournament, name=NAME)
    )
    other = PairFactory(tournament=tournament)
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    game = GameFactory(
        round=round_, table_number=1, pair_yb=hansen, pair_rg=other, status=Game.Status.IN_PROGRESS
    )
    return tournament, organiser, judge, hansen, game


def test_every_page_showing_the_name_isolates_it(event):
    tournament, organiser, judge, hansen, game = event
    slug = tournament.slug
    pages = {
        None: [
            reverse("tournament:standings", args=[slug]),
            reverse("tournament:pairings", args=[slug, 1]),
            reverse("tournament:pair", args=[slug, hansen.start_number]),
            reverse("games:live", args=[slug, 1, 1]),
            reverse("games:hall", args=[slug]),
            reverse("games:table", args=[game_token(game=game)]),
        ],
        organiser: [
            reverse("tournament:organiser_pairs", args=[slug]),
            reverse("tournament:organiser_pair_edit", args=[slug, hansen.pk]),
            reverse("tournament:organiser_round", args=[slug, 1]),
            reverse("tournament:organiser_game_result", args=[slug, game.pk]),
        ],
        judge: [
            reverse("judging:review", args=[slug, game.pk]),
            reverse("judging:incidents", args=[slug]) + f"?pair={hansen.pk}",
        ],
    }
    for user, urls in pages.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        for url in urls:
            page = client.get(url).content.decode()
            assert html.escape(NAME) in page, f"{url} does not show the name"
            assert _unisolated(page) == 0, f"{url} shows the name without <bdi>"
