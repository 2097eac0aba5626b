"""Organiser round pages beyond the basics: swap, pair edit with a fixed
table, roles, and the knockout from bracket to final."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from competition import selectors
from competition.services.pairing import round_close, round_pair, round_publish, round_start
from games.services.results import game_result_record
from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser_of
from tournament.models import Pair, Round, TournamentRole
from tournament.page_version import forget_stamps

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(slug="dm-ko", knockout_size=4, swiss_rounds=1)


@pytest.fixture
def organiser(tournament):
    return organiser_of(tournament, "org")


@pytest.fixture
def org_client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def _url(name, tournament, *args):
    return reverse(f"tournament:{name}", args=[tournament.slug, *args])


def _pairs(tournament, n):
    return [
        PairFactory(tournament=tournament, status=Pair.Status.CHECKED_IN, seed=k + 1)
        for k in range(n)
    ]


def _play_round(round_, organiser):
    if round_.status == Round.Status.DRAFT:
        round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    for game in selectors.pairings_for_round(round=round_):
        game_result_record(game=game, actor=organiser, winner="YB")
    round_close(round=round_, actor=organiser)


def test_swap_two_pairs_in_a_draft(org_client, tournament, organiser):
    _pairs(tournament, 4)
    round_ = round_pair(tournament=tournament, actor=organiser, method="seed")
    games = selectors.pairings_for_round(round=round_)
    a, b = games[0].pair_yb, games[1].pair_yb
    response = org_client.post(
        _url("organiser_round_swap", tournament, round_.number),
        {"pair_a": a.pk, "pair_b": b.pk},
    )
    assert response.status_code == 302
    after = selectors.pairings_for_round(round=round_)
    tables = {g.pair_yb_id: g.table_number for g in after} | {
        g.pair_rg_id: g.table_number for g in after
    }
    assert tables[a.pk] == games[1].table_number
    assert tables[b.pk] == games[0].table_number


def test_swap_of_the_same_pair_is_refused_by_the_form(org_client, tournament, organiser):
    pairs = _pairs(tournament, 4)
    round_ = round_pair(tournament=tournament, actor=organiser, method="seed")
    before = [(g.pair_yb_id, g.pair_rg_id) for g in selectors.pairings_for_round(round=round_)]
    response = org_client.post(
        _url("organiser_round_swap", tournament, round_.number),
        {"pair_a": pairs[0].pk, "pair_b": pairs[0].pk},
        follow=True,
    )
    assert "Vælg to forskellige par." in response.content.decode()
    after = [(g.pair_yb_id, g.pair_rg_id) for g in selectors.pairings_for_round(round=round_)]
    assert after == before


def test_pair_edit_sets_names_and_fixed_table(org_client, tournament):
    pair = _pairs(tournament, 1)[0]
    response = org_client.post(
        _url("organiser_pair_edit", tournament, pair.pk),
        {"player_1": "Åse Ølgaard", "player_2": "Bo Æbelø", "club": "Odense",
         "seed": "1", "fixed_table": "7"},
    )  # fmt: skip
    assert response.status_code == 302
    pair.refresh_from_db()
    pair.player_1.refresh_from_db()
    assert pair.player_1.name == "Åse Ølgaard"
    assert pair.fixed_table == 7


def test_role_grant_by_username(org_client, tournament):
    judge = UserFactory(username="dommer")
    response = org_client.post(
        _url("organiser_role_grant", tournament), {"username": "dommer", "role": "judge"}
    )
    assert response.status_code == 302
    assert TournamentRole.objects.filter(tournament=tournament, user=judge, role="judge").exists()
    response = org_client.post(
        _url("organiser_role_grant", tournament), {"username": "nobody", "role": "judge"},
        follow=True,
    )  # fmt: skip
    assert "Der findes ingen bruger med det brugernavn." in response.content.decode()


def test_knockout_from_bracket_to_final(org_client, tournament, organiser, client):
    _pairs(tournament, 4)
    _play_round(round_pair(tournament=tournament, actor=organiser, method="seed"), organiser)

    response = org_client.post(
        _url("organiser_knockout_create", tournament), {"source": "standings"}
    )
    semi = Round.objects.get(tournament=tournament, kind=Round.Kind.KNOCKOUT)
    assert response.status_code == 302
    assert semi.games.count() == 2
    assert client.get(_url("bracket", tournament)).content.decode().count('<li class="match') == 0

    _play_round(semi, organiser)
    forget_stamps()  # as if the one-second version memo had expired
    html = client.get(_url("bracket", tournament)).content.decode()
    assert "Semifinaler" in html
    assert html.count('<li class="match') == 2

    org_client.post(_url("organiser_knockout_advance", tournament))
    final = Round.objects.filter(tournament=tournament, kind=Round.Kind.KNOCKOUT).last()
    assert final.pk != semi.pk
    assert final.games.count() >= 1
    _play_round(final, organiser)
    response = org_client.post(_url("organiser_knockout_advance", tournament), follow=True)
    assert "Finalen er afgjort" in response.content.decode()


# --- a knockout cut inside a shared rank ---------------------------------------------


def test_a_tied_cut_takes_the_organiser_to_the_choice_and_then_makes_the_bracket():
    from tests.competition.helpers import tied_at_the_cut

    tournament, organiser, _pairs = tied_at_the_cut()
    client = Client()
    client.force_login(organiser)
    # The dashboard's button: refused with the tie, and taken to the choice.
    response = client.post(_url("organiser_knockout_create", tournament), {"source": "standings"})
    assert response["Location"] == _url("organiser_knockout", tournament)
    assert not Round.objects.filter(tournament=tournament, kind=Round.Kind.KNOCKOUT).exists()
    page = client.get(response["Location"]).content.decode()
    assert "Knockout-grænsen går midt i en delt placering" in page  # the refusal, as a message
    assert "Grænsen går midt i en delt placering" in page
    assert "4.-pladsen deles af 2 par, helt lige:" in page
    for option in ("Ved næste tiebreak", "Ved seedningen", "Ved omspil"):
        assert option in page
    assert 'id="cut-tiebreak"' in page and 'value="tiebreak" checked' in page
    # The choice makes the bracket.
    response = client.post(
        _url("organiser_knockout_create", tournament), {"source": "standings", "cut": "seed"}
    )
    bracket = Round.objects.get(tournament=tournament, kind=Round.Kind.KNOCKOUT)
    assert response["Location"] == _url("organiser_round", tournament, bracket.number)
    round_page = client.get(response["Location"]).content.decode()
    assert "afgjort ved seedningen: #4" in round_page


def test_a_playoff_choice_makes_the_playoff_round(client):
    from tests.competition.helpers import tied_at_the_cut

    tournament, organiser, _pairs = tied_at_the_cut()
    client.force_login(organiser)
    response = client.post(
        _url("organiser_knockout_create", tournament),
        {"source": "standings", "cut": "playoff"},
        follow=True,
    )
    playoff = Round.objects.get(tournament=tournament, kind=Round.Kind.PLAYOFF)
    html = response.content.decode()
    assert f"Runde {playoff.number} · Omspil" in html
    assert "Omspilsrunden er lavet som kladde" in html
    assert playoff.games.count() == 1


def test_the_knockout_api_refuses_a_tied_cut_and_takes_the_choice():
    from rest_framework.test import APIClient

    from tests.competition.helpers import tied_at_the_cut

    tournament, organiser, _pairs = tied_at_the_cut()
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/tournaments/{tournament.slug}/knockout/"
    refused = api.post(url, {"source": "standings"}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "knockout_cut_tie" and error["choices"] == [
        "tiebreak",
        "seed",
        "playoff",
    ]
    made = api.post(url, {"source": "standings", "cut": "tiebreak"}, format="json")
    assert made.status_code == 201 and made.json()["kind"] == "knockout"


def test_the_knockout_page_of_an_event_without_a_knockout_says_so(client):
    tournament = TournamentFactory(knockout_size=0)
    client.force_login(organiser_of(tournament, "arr"))
    response = client.get(_url("organiser_knockout", tournament), follow=True)
    assert "har ingen knockout-fase" in response.content.decode()
