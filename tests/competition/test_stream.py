"""The stream overlay: the organiser sends a table to the stream (organiser only,
CSRF, audited, a table of this event only); the overlay's feed shows it only
where the live view would, with names as the event's pages write them
(tests/games/test_names_as_published.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from competition.models import StreamTable
from competition.selectors_stream import stream_overlay
from competition.services.stream import stream_table_set
from core.errors import ApplicationError, PermissionDenied
from games.engine import selfplay_game
from games.models import Game
from games.services.move_log import move_submit
from tests.factories import GameFactory, RoundFactory, judge_of, organiser_of
from tournament.models import AuditEntry, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    game = GameFactory(first_dealer="Y", round__status=Round.Status.IN_PROGRESS)
    for i, text in enumerate(selfplay_game(7, first_dealer="Y")["moves"][:9]):
        move_submit(game=game, text=text, client_id=f"stream-{i:06d}", expected_seq=i)
    return game


def _feed(client: Client, game: Game) -> dict:
    response = client.get(reverse("tournament:stream_feed", args=[game.round.tournament.slug]))
    assert response.status_code == 200
    return response.json()


def _send(client: Client, game: Game, value: object) -> object:
    url = reverse("tournament:organiser_stream_table", args=[game.round.tournament.slug])
    return client.post(url, {"game": value, "round": game.round.number})


def test_the_organiser_sends_a_table_and_the_feed_shows_it(client: Client, game: Game) -> None:
    assert _feed(client, game)["game"] is None
    organiser = organiser_of(game.round.tournament)
    client.force_login(organiser)
    response = _send(client, game, game.pk)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/rounds/{game.round.number}/")
    client.logout()
    feed = _feed(client, game)
    assert feed["game"] == game.pk and feed["table"] == game.table_number and feed["seq"] == 9
    assert [e["seq"] for e in feed["entries"]] == [5, 6, 7, 8, 9]
    assert set(feed["players"]) == {"Y", "R", "B", "G"}
    assert feed["clock"]["remaining_s"] > 0 and feed["distance"]["YB"] <= feed["distance_full"]
    audit = AuditEntry.objects.get(tournament=game.round.tournament, action="stream_table_set")
    assert audit.actor == organiser and audit.data["table"] == game.table_number
    # Taken off the stream.
    client.force_login(organiser)
    _send(client, game, "")
    assert StreamTable.objects.get(tournament=game.round.tournament).game is None
    client.logout()
    assert _feed(client, game)["game"] is None


def test_only_an_organiser_may_choose_the_table(client: Client, game: Game) -> None:
    tournament = game.round.tournament
    assert _send(client, game, game.pk).status_code == 302  # to the login
    client.force_login(judge_of(tournament))
    assert _send(client, game, game.pk).status_code == 403
    with pytest.raises(PermissionDenied):
        stream_table_set(tournament=tournament, actor=judge_of(tournament, "j2"), game_id=game.pk)
    assert not StreamTable.objects.exists()
    assert not AuditEntry.objects.filter(action="stream_table_set").exists()


def test_the_choice_needs_the_csrf_token(game: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser_of(game.round.tournament))
    assert _send(client, game, game.pk).status_code == 403
    assert not StreamTable.objects.exists()


def test_a_table_of_another_event_is_refused_and_changes_nothing(
    client: Client, game: Game
) -> None:
    other = GameFactory()
    organiser = organiser_of(game.round.tournament)
    stream_table_set(tournament=game.round.tournament, actor=organiser, game_id=game.pk)
    with pytest.raises(ApplicationError) as refused:
        stream_table_set(tournament=game.round.tournament, actor=organiser, game_id=other.pk)
    assert refused.value.code == "stream_table_unknown"
    assert refused.value.message_da and refused.value.message_en
    client.force_login(organiser)
    _send(client, game, "not-a-number")
    assert StreamTable.objects.get(tournament=game.round.tournament).game == game


def test_a_draft_round_or_an_unpublished_event_shows_no_table(client: Client, game: Game) -> None:
    tournament = game.round.tournament
    draft = GameFactory(round=RoundFactory(tournament=tournament, status=Round.Status.DRAFT))
    stream_table_set(tournament=tournament, actor=organiser_of(tournament), game_id=draft.pk)
    assert _feed(client, game)["game"] is None
    client.force_login(judge_of(tournament))  # not even to its staff: the stream is public
    assert _feed(client, game)["game"] is None
    client.logout()
    stream_table_set(tournament=tournament, actor=organiser_of(tournament, "o2"), game_id=game.pk)
    assert _feed(client, game)["game"] == game.pk
    tournament.published = False
    tournament.save(update_fields=["published"])
    slug = tournament.slug
    assert client.get(reverse("tournament:stream_feed", args=[slug])).status_code == 404
    assert client.get(reverse("tournament:stream_overlay", args=[slug])).status_code == 404
    assert stream_overlay(tournament=tournament)["game"] is None


@pytest.mark.parametrize("bg", ["transparent", "green", "blue", "magenta"])
def test_the_background_is_chosen_by_the_address(client: Client, game: Game, bg: str) -> None:
    url = reverse("tournament:stream_overlay", args=[game.round.tournament.slug])
    page = client.get(url, {"bg": bg}).content.decode()
    assert f'class="stream stream-bg-{bg}"' in page
    fallback = client.get(url, {"bg": "<script>"}).content.decode()
    assert 'class="stream stream-bg-transparent"' in fallback


def test_the_round_page_sends_each_table_and_names_the_one_on_the_stream(
    client: Client, game: Game
) -> None:
    tournament = game.round.tournament
    organiser = organiser_of(tournament)
    client.force_login(organiser)
    url = reverse("tournament:organiser_round", args=[tournament.slug, game.round.number])
    action = reverse("tournament:organiser_stream_table", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert f'action="{action}"' in page and "Send til streamen" in page
    assert "På streamen" not in page
    stream_table_set(tournament=tournament, actor=organiser, game_id=game.pk)
    page = client.get(url).content.decode()
    assert "På streamen" in page and "Tag af streamen" in page
    assert reverse("tournament:stream_overlay", args=[tournament.slug]) in page
