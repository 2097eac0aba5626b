"""Organiser pages: who may open them, CSRF, and that forms change data only
when allowed (a refused service call changes nothing)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import (
    GameFactory,
    PairFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    judge_of,
    organiser_of,
)
from tournament.models import Pair, Round, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory(slug="dm-org")


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


def _messages(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def _checked_in_pairs(tournament, n):
    return [PairFactory(tournament=tournament, status=Pair.Status.CHECKED_IN) for _ in range(n)]


# --- who may open the organiser pages -------------------------------------------------

ORGANISER_PAGES = [
    "organiser_dashboard",
    "organiser_pairs",
    "organiser_pairs_import",
    "organiser_settings",
]


@pytest.mark.parametrize("page", ORGANISER_PAGES)
def test_anonymous_is_sent_to_login(client, tournament, page):
    response = client.get(_url(page, tournament))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("page", ORGANISER_PAGES)
def test_judge_gets_403_with_bilingual_message(client, tournament, page):
    client.force_login(judge_of(tournament, "dommer"))
    response = client.get(_url(page, tournament))
    html = response.content.decode()
    assert response.status_code == 403
    assert "Kun en arrangør af denne turnering" in html
    assert "Only an organiser of this tournament" in html


def test_organiser_of_another_tournament_gets_403(client, tournament):
    other = TournamentFactory(slug="other")
    client.force_login(organiser_of(other, "other-org"))
    assert client.get(_url("organiser_dashboard", tournament)).status_code == 403
    assert client.get(_url("organiser_dashboard", other)).status_code == 200


def test_organiser_pages_render_in_danish(org_client, tournament):
    for page in ORGANISER_PAGES:
        response = org_client.get(_url(page, tournament))
        assert response.status_code == 200, page
        assert '<html lang="da">' in response.content.decode()
    assert "Tilmeld et par" in org_client.get(_url("organiser_pairs", tournament)).content.decode()


def test_anonymous_post_changes_nothing(client, tournament):
    response = client.post(_url("organiser_pairs", tournament), {"player_1": "A", "player_2": "B"})
    assert response.status_code == 302
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_judge_post_changes_nothing(client, tournament):
    client.force_login(judge_of(tournament, "dommer"))
    pair = PairFactory(tournament=tournament, status=Pair.Status.REGISTERED)
    response = client.post(_url("organiser_pair_action", tournament, pair.pk, "drop"))
    assert response.status_code == 403
    pair.refresh_from_db()
    assert pair.status == Pair.Status.REGISTERED


def test_post_without_csrf_token_is_refused(organiser, tournament):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(_url("organiser_pairs", tournament), {"player_1": "A", "player_2": "B"})
    assert response.status_code == 403
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_actions_refuse_get(org_client, tournament):
    pair = PairFactory(tournament=tournament, status=Pair.Status.REGISTERED)
    response = org_client.get(_url("organiser_pair_action", tournament, pair.pk, "check-in"))
    assert response.status_code == 405
    pair.refresh_from_db()
    assert pair.status == Pair.Status.REGISTERED


# --- tournament settings --------------------------------------------------------------


def _settings_post(**overrides):
    data = {
        "name": "DM i Partners 2027",
        "slug": "",
        "date": "2027-11-27",
        "venue": "Odense",
        "ruleset": "dm2023",
        "time_limit_minutes": 60,
        "alert_minutes": 50,
        "swiss_rounds": 5,
        "knockout_size": 8,
        "third_place_game": "on",
        "points_win": 2,
        "points_loss": 0,
        "points_bye": 2,
        "adjudication": "distance",
        "pause_clock_on_call": "on",
        "published": "on",
        "tiebreak_1": "buchholz",
        "tiebreak_2": "wins",
        "tiebreak_3": "locked_diff",
        "tiebreak_4": "",
        "tiebreak_5": "",
    }
    data.update(overrides)
    return data


def test_create_tournament_makes_the_user_its_organiser(client):
    user = UserFactory(username="newbie")
    client.force_login(user)
    response = client.post(reverse("tournament:organiser_new"), _settings_post())
    tournament = Tournament.objects.get(name="DM i Partners 2027")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament:organiser_dashboard", args=[tournament.slug])
    assert tournament.knockout_size == 8
    assert tournament.tiebreaks == ["buchholz", "wins", "locked_diff"]
    assert TournamentRole.objects.filter(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER
    ).exists()


def test_settings_refused_by_the_service_change_nothing(org_client, tournament):
    response = org_client.post(
        _url("organiser_settings", tournament),
        _settings_post(name="Changed", alert_minutes=70, time_limit_minutes=60),
    )
    assert response.status_code == 200  # the form again, with the service's message
    assert response.context["form"].non_field_errors()
    tournament.refresh_from_db()
    assert tournament.name != "Changed"
    assert tournament.alert_minutes == 50


def test_settings_duplicate_tiebreak_is_a_form_error(org_client, tournament):
    response = org_client.post(
        _url("organiser_settings", tournament),
        _settings_post(tiebreak_1="wins", tiebreak_2="wins"),
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()


def test_settings_saved(org_client, tournament):
    response = org_client.post(
        _url("organiser_settings", tournament), _settings_post(swiss_rounds=7, alert_minutes=45)
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.swiss_rounds, tournament.alert_minutes) == (7, 45)


# --- pairs -----------------------------------------------------------------------------


def test_register_pair(org_client, tournament):
    response = org_client.post(
        _url("organiser_pairs", tournament),
        {
            "player_1": "Mette  Hansen",
            "player_2": "Jens Nielsen",
            "club": "Odense",
            "check_in": "on",
        },
    )
    assert response.status_code == 302
    pair = Pair.objects.get(tournament=tournament)
    assert (pair.player_1.name, pair.player_2.name) == ("Mette Hansen", "Jens Nielsen")
    assert pair.status == Pair.Status.CHECKED_IN


def test_csv_import_with_a_bad_row_imports_nothing(org_client, tournament):
    csv_text = "player_1;player_2;club\nMette Hansen;Jens Nielsen;Odense\n;Søren Poulsen;Aarhus\n"
    response = org_client.post(_url("organiser_pairs_import", tournament), {"csv_text": csv_text})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Intet blev importeret" in html
    assert "<td>3</td>" in html  # the bad line is named
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_csv_import_from_file_with_bom(org_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    content = (
        "\ufeffplayer_2,player_1,seed\nJens Nielsen,Mette Hansen,1\nSøren Poulsen,Anne Larsen,2\n"
    )
    upload = SimpleUploadedFile("pairs.csv", content.encode("utf-8"), content_type="text/csv")
    response = org_client.post(_url("organiser_pairs_import", tournament), {"csv_file": upload})
    assert response.status_code == 302
    names = sorted(p.player_1.name for p in Pair.objects.filter(tournament=tournament))
    assert names == ["Anne Larsen", "Mette Hansen"]


def test_csv_import_refuses_non_utf8_file(org_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("pairs.csv", "player_1,player_2\nSøren,Åse\n".encode("latin-1"))
    response = org_client.post(_url("organiser_pairs_import", tournament), {"csv_file": upload})
    assert response.status_code == 200
    assert "UTF-8" in response.content.decode()
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_check_in_check_out_and_drop(org_client, tournament):
    pair = PairFactory(tournament=tournament, status=Pair.Status.REGISTERED)
    org_client.post(_url("organiser_pair_action", tournament, pair.pk, "check-in"))
    pair.refresh_from_db()
    assert pair.status == Pair.Status.CHECKED_IN
    org_client.post(_url("organiser_pair_action", tournament, pair.pk, "check-out"))
    pair.refresh_from_db()
    assert pair.status == Pair.Status.REGISTERED
    org_client.post(_url("organiser_pair_action", tournament, pair.pk, "drop"))
    pair.refresh_from_db()
    assert pair.status == Pair.Status.DROPPED


def test_pair_of_another_tournament_is_not_found(org_client, tournament):
    stranger = PairFactory(tournament=TournamentFactory(slug="elsewhere"))
    response = org_client.post(_url("organiser_pair_action", tournament, stranger.pk, "drop"))
    assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.status != Pair.Status.DROPPED


# --- rounds and results ---------------------------------------------------------------


def test_pair_round_makes_a_draft_that_is_not_public(org_client, tournament, client):
    _checked_in_pairs(tournament, 6)
    response = org_client.post(_url("organiser_round_pair", tournament), {"method": "seed"})
    round_1 = Round.objects.get(tournament=tournament, number=1)
    assert response.status_code == 302
    assert round_1.status == Round.Status.DRAFT
    assert round_1.games.count() == 3
    assert client.get(reverse("tournament:pairings", args=[tournament.slug, 1])).status_code == 404
    preview = org_client.get(_url("organiser_round", tournament, 1)).content.decode()
    assert "Bord 3" in preview

    org_client.post(_url("organiser_round_action", tournament, 1, "publish"))
    round_1.refresh_from_db()
    assert round_1.status == Round.Status.PUBLISHED
    assert client.get(reverse("tournament:pairings", args=[tournament.slug, 1])).status_code == 200


def test_pairing_refused_while_the_previous_round_is_open(org_client, tournament):
    pairs = _checked_in_pairs(tournament, 4)
    round_1 = RoundFactory(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    GameFactory(round=round_1, table_number=1, pair_yb=pairs[0], pair_rg=pairs[1])
    response = org_client.post(_url("organiser_round_pair", tournament), {}, follow=True)
    assert any(_messages(response))
    assert not Round.objects.filter(tournament=tournament, number=2).exists()


def _published_game(tournament):
    pairs = _checked_in_pairs(tournament, 2)
    round_1 = RoundFactory(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    return GameFactory(
        round=round_1,
        table_number=1,
        pair_yb=pairs[0],
        pair_rg=pairs[1],
        status=Game.Status.IN_PROGRESS,
    )


def test_result_entry_and_correction(org_client, tournament):
    game = _published_game(tournament)
    prefix = f"g{game.pk}-"
    url = _url("organiser_game_result", tournament, game.pk)
    response = org_client.post(
        url, {f"{prefix}winner": "RG", f"{prefix}locked_yb": "5", f"{prefix}locked_rg": "8"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.winner, game.locked_yb, game.locked_rg) == ("RG", 5, 8)
    assert game.result_source == "typed"

    org_client.post(
        url,
        {
            f"{prefix}winner": "YB",
            f"{prefix}timed_out": "on",
            f"{prefix}distance_yb": "40",
            f"{prefix}distance_rg": "90",
        },
    )
    game.refresh_from_db()
    assert (game.winner, game.timed_out, game.distance_yb) == ("YB", True, 40)


def test_invalid_result_changes_nothing(org_client, tournament):
    game = _published_game(tournament)
    prefix = f"g{game.pk}-"
    response = org_client.post(
        _url("organiser_game_result", tournament, game.pk),
        {f"{prefix}winner": "XX", f"{prefix}locked_yb": "12"},
    )
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.winner == ""


def test_judge_cannot_enter_a_typed_result(client, tournament):
    game = _published_game(tournament)
    client.force_login(judge_of(tournament, "dommer"))
    response = client.post(
        _url("organiser_game_result", tournament, game.pk), {f"g{game.pk}-winner": "YB"}
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.winner == ""
