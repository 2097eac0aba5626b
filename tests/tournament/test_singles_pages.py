"""A singles event (DUO) through the organiser's pages, the API and the public pages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, organiser_of
from tournament.models import Pair
from tournament.services.pairing import round_pair, round_publish
from tournament.services.registration import pair_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(ruleset="duo", slug="duo-cup", language="en")


@pytest.fixture
def organiser(tournament):
    return organiser_of(tournament)


@pytest.fixture
def org_client(organiser):
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    return client


def _url(name, tournament, *args):
    return reverse(f"tournament:{name}", args=[tournament.slug, *args])


def test_the_organiser_registers_a_player_on_a_players_page(org_client, tournament):
    page = org_client.get(_url("organiser_pairs", tournament)).content.decode()
    assert "Register a player" in page and "Register a pair" not in page
    assert 'name="player_1"' in page and 'name="player_2"' not in page
    response = org_client.post(
        _url("organiser_pairs", tournament), {"player_1": "Mette  Hansen", "check_in": "on"}
    )
    assert response.status_code == 302
    entrant = Pair.objects.get(tournament=tournament)
    assert entrant.player_1.name == "Mette Hansen" and entrant.player_2 is None
    page = org_client.get(_url("organiser_pair_edit", tournament, entrant.pk)).content.decode()
    assert 'name="player_2"' not in page
    response = org_client.post(
        _url("organiser_pair_edit", tournament, entrant.pk), {"player_1": "Mette Hansen-Juhl"}
    )
    assert response.status_code == 302
    entrant.refresh_from_db()
    assert entrant.player_1.name == "Mette Hansen-Juhl" and entrant.player_2 is None


def test_the_csv_page_shows_the_singles_format_and_imports_it(org_client, tournament):
    url = _url("organiser_pairs_import", tournament)
    page = org_client.get(url).content.decode()
    assert "Import players from CSV" in page and "player;club;seed" in page
    response = org_client.post(url, {"csv_text": "player;club\nAnne Larsen;Aarhus\nBo Dahl;\n"})
    assert response.status_code == 302
    assert sorted(p.player_1.name for p in Pair.objects.filter(tournament=tournament)) == [
        "Anne Larsen",
        "Bo Dahl",
    ]


def test_the_api_registers_one_player_and_answers_a_null_second(tournament, organiser):
    client = APIClient()
    client.force_login(organiser)
    response = client.post(
        f"/api/tournaments/{tournament.slug}/pairs/",
        {"player_1": "Louise Johansen", "check_in": True},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["display_name"] == "Louise Johansen" and body["player_2"] is None
    refused = client.post(
        f"/api/tournaments/{tournament.slug}/pairs/",
        {"player_1": "Anne", "player_2": "Bo"},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "singles_one_player"
    listed = client.get(f"/api/tournaments/{tournament.slug}/pairs/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["display_name"] for row in rows] == ["Louise Johansen"]


def test_public_pairings_and_standings_show_one_name_per_entrant(tournament, organiser):
    for name in ("Anne Als", "Bo Bak", "Carl Carlsen"):
        pair_register(tournament=tournament, actor=organiser, player_1=name, check_in=True)
    round_publish(round=round_pair(tournament=tournament, actor=organiser), actor=organiser)
    client = Client()
    client.cookies["django_language"] = "en"
    pairings = client.get(_url("pairings", tournament, 1))
    html = pairings.content.decode()
    assert pairings.status_code == 200
    for name in ("Anne Als", "Bo Bak", "Carl Carlsen"):
        assert name in html
    assert "&amp; None" not in html and " & None" not in html
    standings = client.get(_url("standings", tournament)).content.decode()
    assert "Anne Als" in standings and "None" not in standings.split("<main", 1)[-1]


def test_every_page_of_a_played_singles_event_names_single_players(
    tournament, organiser, org_client
):
    from tests.factories import judge_of
    from tests.tournament.helpers import play

    for name in ("Anne Als", "Bo Bak", "Carl Carlsen", "Dorte Dam", "Erik Eg"):
        pair_register(tournament=tournament, actor=organiser, player_1=name, check_in=True)
    play(round_pair(tournament=tournament, actor=organiser), organiser)
    round_pair(tournament=tournament, actor=organiser)  # a draft round 2 for the organiser
    judge = Client()
    judge.force_login(judge_of(tournament))
    public = Client()
    pages = [
        (org_client, _url("organiser_dashboard", tournament)),
        (org_client, _url("organiser_round", tournament, 1)),
        (org_client, _url("organiser_round", tournament, 2)),
        (judge, reverse("judging:dashboard", args=[tournament.slug])),
        (judge, reverse("judging:incidents", args=[tournament.slug])),
        (public, _url("public_home", tournament)),
        (public, _url("pair", tournament, 1)),
        (public, _url("final", tournament)),
    ]
    for client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "None" not in html.split("<main", 1)[-1], url
        assert "&amp; None" not in html, url
        if client is not judge:  # the judges' page carries the table app's own labels
            assert "Yellow/Blue" not in html, url
    home = public.get(_url("public_home", tournament)).content.decode()
    assert "5 players" in home
    round_page = org_client.get(_url("organiser_round", tournament, 1)).content.decode()
    assert "Anne Als" in round_page and "Locked pawns, Yellow" in round_page
    # Six pawns a player (docs/rulesets/duo.md S2): the result form asks no more.
    assert 'name="g' in round_page and 'max="6"' in round_page and 'max="8"' not in round_page
