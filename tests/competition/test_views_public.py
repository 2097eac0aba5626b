"""Public pages: no login, Danish by default, only published rounds, cached
on the tournament's data version, find-my-table."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import GameFactory, PairFactory, PlayerFactory, RoundFactory, TournamentFactory
from tournament.models import Round, Tournament
from tournament.page_version import forget_stamps
from tournament.services.audit import tournament_data_changed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_version_memo():
    forget_stamps()
    yield
    forget_stamps()


def _pair(tournament, p1, p2, number):
    return PairFactory(
        tournament=tournament,
        start_number=number,
        player_1=PlayerFactory(tournament=tournament, name=p1),
        player_2=PlayerFactory(tournament=tournament, name=p2),
    )


@pytest.fixture
def event():
    """A tournament with round 1 published (two tables, one result) and round 2 a draft."""
    tournament = TournamentFactory(name="DM i Partners 2026", slug="dm-2026")
    pairs = [
        _pair(tournament, "Mette Hansen", "Jens Nielsen", 1),
        _pair(tournament, "Anne Larsen", "Søren Poulsen", 2),
        _pair(tournament, "Kirsten Pedersen", "Lars Andersen", 3),
        _pair(tournament, "Hanne Jensen", "Peter Christensen", 4),
    ]
    round_1 = RoundFactory(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    game_1 = GameFactory(
        round=round_1,
        table_number=1,
        pair_yb=pairs[0],
        pair_rg=pairs[1],
        winner="YB",
        result_source="typed",
        locked_yb=8,
        locked_rg=3,
        distance_yb=0,
        distance_rg=120,
        status=Game.Status.FINISHED,
    )
    game_2 = GameFactory(round=round_1, table_number=2, pair_yb=pairs[2], pair_rg=pairs[3])
    round_2 = RoundFactory(tournament=tournament, number=2, status=Round.Status.DRAFT)
    GameFactory(round=round_2, table_number=1, pair_yb=pairs[0], pair_rg=pairs[2])
    return {
        "tournament": tournament,
        "pairs": pairs,
        "round_1": round_1,
        "round_2": round_2,
        "games": [game_1, game_2],
    }


def test_front_page_is_danish_and_links_the_tournament(client, event):
    response = client.get(reverse("tournament:home"))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="da">' in html
    assert "Turneringer" in html
    assert reverse("tournament:public_home", args=["dm-2026"]) in html


def test_tournament_page_lists_published_rounds_only(client, event):
    response = client.get(reverse("tournament:public_home", args=["dm-2026"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("tournament:pairings", args=["dm-2026", 1]) in html
    assert reverse("tournament:pairings", args=["dm-2026", 2]) not in html


def test_draft_round_is_not_public(client, event):
    assert client.get(reverse("tournament:pairings", args=["dm-2026", 2])).status_code == 404


def test_pairings_show_tables_and_result(client, event):
    response = client.get(reverse("tournament:pairings", args=["dm-2026", 1]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Mette Hansen &amp; Jens Nielsen" in html
    assert 'id="table-2"' in html
    assert "Gul/Blå" in html or "Yellow/Blue" in html


def test_find_my_table_by_player_name_any_case(client, event):
    response = client.get(reverse("tournament:pairings", args=["dm-2026", 1]), {"q": "hanne JEN"})
    html = response.content.decode()
    found = html.split('class="found"')[1].split("</section>")[0]
    assert "Hanne Jensen" in found
    assert "Bord 2" in found
    assert "Mette Hansen" not in found


def test_find_my_table_without_match_says_so(client, event):
    response = client.get(reverse("tournament:pairings", args=["dm-2026", 1]), {"q": "Nobody"})
    html = response.content.decode()
    assert "Intet bord i denne runde passer" in html
    assert 'class="found-table"' not in html


def test_standings_show_tiebreak_columns_in_danish(client, event):
    response = client.get(reverse("tournament:standings", args=["dm-2026"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Buchholz" in html
    assert "Stilling" in html
    rows = re.findall(r'<td class="rank">(\d+)', html)
    assert rows[0] == "1"
    first_row = html.split('<td class="rank">')[1]
    assert "Mette Hansen" in first_row  # the only winner leads


def test_standings_in_english_when_chosen(event):
    client = Client()
    client.cookies["django_language"] = "en"
    html = client.get(reverse("tournament:standings", args=["dm-2026"])).content.decode()
    assert '<html lang="en">' in html
    assert "Standings" in html


def test_fragment_is_only_the_live_part(client, event):
    response = client.get(reverse("tournament:standings", args=["dm-2026"]), {"fragment": "1"})
    html = response.content.decode()
    assert "<html" not in html
    assert "<table" in html


def test_pair_page_shows_its_games(client, event):
    response = client.get(reverse("tournament:pair", args=["dm-2026", 1]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Mette Hansen" in html
    assert "Anne Larsen" in html  # the opponent of round 1


def test_pair_page_hides_draft_round_games(client, event):
    html = client.get(reverse("tournament:pair", args=["dm-2026", 3])).content.decode()
    # Pair 3 plays pair 1 in the draft round 2; only round 1 (against pair 4) is public.
    assert "Hanne Jensen" in html
    assert "Mette Hansen" not in html


def test_unpublished_tournament_is_hidden(client, event):
    Tournament.objects.filter(pk=event["tournament"].pk).update(published=False)
    assert client.get(reverse("tournament:standings", args=["dm-2026"])).status_code == 404


def test_cached_page_is_served_until_the_data_version_changes(client, event):
    url = reverse("tournament:pairings", args=["dm-2026", 1])
    assert "Mette Hansen" in client.get(url).content.decode()
    player = event["pairs"][0].player_1
    player.name = "Mette Hansen-Kjær"
    player.save()  # a write that bypasses the services: no version bump
    forget_stamps()
    assert "Mette Hansen-Kjær" not in client.get(url).content.decode()
    tournament_data_changed(tournament=event["tournament"])
    forget_stamps()
    assert "Mette Hansen-Kjær" in client.get(url).content.decode()


def test_signed_in_users_are_never_served_the_anonymous_cache(client, event, django_user_model):
    url = reverse("tournament:standings", args=["dm-2026"])
    client.get(url)
    user = django_user_model.objects.create_user("viewer", password="pw-for-tests")
    client.force_login(user)
    assert "viewer" in client.get(url).content.decode()


def test_cached_public_page_has_no_per_visitor_token_and_switches_language(event):
    url = reverse("tournament:standings", args=["dm-2026"])
    first = Client().get(url).content.decode()
    visitor = Client()
    html = visitor.get(url).content.decode()
    assert html == first  # one shared cache entry for every anonymous visitor
    assert "csrfmiddlewaretoken" not in html
    switch = re.search(r'href="([^"]+)" class="lang-link" lang="en"', html).group(1)
    response = visitor.get(switch.replace("&amp;", "&"))
    assert response.status_code == 302 and response["Location"] == url
    assert visitor.cookies["django_language"].value == "en"
    assert 'lang="en"' in visitor.get(url).content.decode()


def test_language_switch_refuses_foreign_redirects_and_unknown_languages(client):
    response = client.get("/lang/en/?next=https://evil.example/")
    assert response["Location"] == "/"
    assert client.get("/lang/xx/").status_code == 404
