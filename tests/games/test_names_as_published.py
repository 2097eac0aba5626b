"""The replay and the stream overlay are the event's own pages: they name its
players and pairs as its pairings and live view do, as the event published
them. A player the event shows is shown there (consent or not: that rule is
for pages across events); one the event no longer shows (anonymised: the
event's copy renamed) is hidden there too, and no push channel carries a name."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from competition.services.stream import stream_table_set
from core.push import broker
from games.engine import selfplay_game
from games.models import Game
from games.services.move_log import move_submit
from people.models import Person
from people.services import person_anonymise
from tests.factories import GameFactory, PersonFactory, organiser_of
from tournament.models import Player, Round
from tournament.services.players import players_anonymise

pytestmark = pytest.mark.django_db

NO_CONSENT = "Skjult Sørensen"
CONSENT = "Synlig Svendsen"
MOVES = selfplay_game(7, first_dealer="Y")["moves"]


@pytest.fixture
def game() -> Game:
    """A finished game on the event's stream: Blue never consented, Red did."""
    game = GameFactory(first_dealer="Y", round__status=Round.Status.IN_PROGRESS)
    for player, name, consent in (
        (game.pair_yb.player_2, NO_CONSENT, False),
        (game.pair_rg.player_1, CONSENT, True),
    ):
        player.name = name
        player.person = PersonFactory(name=name, publish_consent=consent)
        player.save()
    for i, text in enumerate(MOVES[:10]):
        move_submit(game=game, text=text, client_id=f"names-{i:06d}", expected_seq=i)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    tournament = game.round.tournament
    stream_table_set(tournament=tournament, actor=organiser_of(tournament), game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def _address(game: Game, name: str) -> str:
    slug, number = game.round.tournament.slug, game.round.number
    if name == "tournament:pairings":
        return reverse(name, args=[slug, number])
    if name.startswith("tournament:stream"):
        return reverse(name, args=[slug])
    return reverse(name, args=[slug, number, game.table_number])


EVENT_PAGES = ("tournament:pairings", "games:live", "games:replay", "tournament:stream_overlay")


def _texts(client: Client, game: Game) -> dict[str, str]:
    """Every page and answer of the event that names the game's players."""
    texts = {}
    for name in (*EVENT_PAGES, "games:replay-record", "tournament:stream_feed"):
        response = client.get(_address(game, name))
        assert response.status_code == 200, name
        texts[name] = response.content.decode("utf-8")
    return texts


def _shows(text: str, name: str) -> bool:
    """``name`` in a page as text or inside its embedded JSON (escaped)."""
    return name in text or json.dumps(name)[1:-1] in text


def _replay_players(page: str) -> dict[str, str]:
    found = re.search(
        r'<script id="replay-config" type="application/json">(.*?)</script>', page, re.S
    )
    assert found
    return json.loads(found.group(1))["players"]


def test_a_player_the_event_names_is_named_on_the_replay_and_the_overlay(client: Client, game):
    texts = _texts(client, game)
    for name, text in texts.items():
        assert _shows(text, NO_CONSENT) and _shows(text, CONSENT), name
    seats = {"Y": game.pair_yb.player_1.name, "G": game.pair_rg.player_2.name}
    assert _replay_players(texts["games:replay"]) == {**seats, "R": CONSENT, "B": NO_CONSENT}
    assert json.loads(texts["games:replay-record"])["players"]["B"] == NO_CONSENT
    feed = json.loads(texts["tournament:stream_feed"])
    assert feed["players"]["B"] == NO_CONSENT and feed["pairs"]["YB"] == game.pair_yb.display_name
    assert "en spiller" not in texts["games:replay"]


def test_a_player_the_event_hides_is_hidden_on_the_replay_the_overlay_and_the_channels(
    client: Client, game, settings, monkeypatch, django_capture_on_commit_callbacks
):
    person = Person.objects.get(name=NO_CONSENT)
    organiser = organiser_of(game.round.tournament, "o2")
    players_anonymise(persons=person_anonymise(person=person, actor=organiser), actor=organiser)
    shown_as = f"Anonym #{person.pk}"
    assert Player.objects.get(pk=game.pair_yb.player_2_id).name == shown_as
    texts = _texts(client, game)
    for name, text in texts.items():
        assert not _shows(text, NO_CONSENT) and "Skjult" not in text, name
        assert _shows(text, CONSENT), name
    for name in EVENT_PAGES:
        assert shown_as in texts[name], name
    assert _replay_players(texts["games:replay"])["B"] == shown_as
    assert json.loads(texts["tournament:stream_feed"])["players"]["B"] == shown_as
    # A pushed change carries its kind and time, never a name: the page then fetches
    # what it shows through its own address (above).
    published: list[tuple[str, str]] = []  # (pub/sub channel, payload)

    def script(keys, args):  # the broker's Lua call: keys in threes, payloads after 3 args
        published.extend(zip(keys[2::3], args[3:], strict=True))
        return list(range(1, len(args) - 2))

    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    monkeypatch.setattr(broker, "_publisher", lambda: script)
    live = Game.objects.create(
        round=game.round, table_number=99, pair_yb=game.pair_yb, pair_rg=game.pair_rg,
        first_dealer="Y", status=Game.Status.IN_PROGRESS,
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        move_submit(game=live, text=MOVES[0], client_id="names-live", expected_seq=0)
    channels = {channel for channel, _payload in published}
    prefix = broker.channel_prefix(settings.REDIS_URL)
    assert channels == {f"{prefix}table:{live.pk}", f"{prefix}event:{game.round.tournament_id}"}
    for _channel, payload in published:
        assert set(json.loads(payload)) == {"kind", "at"}
        assert shown_as not in payload and CONSENT not in payload
