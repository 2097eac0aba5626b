"""A restore onto an instance with another DJANGO_SECRET_KEY: the tables play on.

The QR codes and short codes already printed keep opening their tables; a
score sheet printed after the restore carries a link that works too; and an
organiser's "new table link" still revokes every old one
(games/services/tokens.py, docs/operations.md).
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from competition.services.backup import (
    backup_models,
    tournament_export,
    tournament_path,
)
from competition.services.backup_import import tournament_import
from games.engine import selfplay_game
from games.models import Game
from games.services import tokens
from games.services.tokens import game_token, game_token_rotate
from printing.data import score_sheets_data
from tests.factories import GameFactory, RoundFactory, TournamentFactory, organiser_of
from tournament.models import Round

pytestmark = pytest.mark.django_db

OLD_KEY = "the-key-of-the-machine-that-died-" + "x" * 20
NEW_KEY = "the-key-of-the-spare-machine-" + "y" * 20


def _state(client: Client, token: str) -> int:
    return client.get(f"/api/table/{token}/state/").status_code


def _open_by_code(code: str) -> tuple[int, str]:
    """Type the short code at /t/; return the table page's status and the token it opened."""
    client = Client()
    found = client.get("/t/", {"code": code})
    assert found.status_code == 302, found.content
    location = found["Location"]
    return client.get(location).status_code, location.split("/")[2]


@pytest.fixture
def printed_game(settings) -> tuple[Game, str, str, dict]:
    """A table mid-game whose score sheet was printed under OLD_KEY, and the backup."""
    settings.SECRET_KEY = OLD_KEY
    settings.SECRET_KEY_FALLBACKS = []
    tournament = TournamentFactory(slug="restored-event")
    organiser_of(tournament, "restore-org")
    running = RoundFactory(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    game = GameFactory(round=running, table_number=1, status=Game.Status.IN_PROGRESS)
    token = game_token(game=game)
    game.refresh_from_db()
    opening = selfplay_game(2, first_dealer=game.first_dealer)["moves"][0]
    answer = Client().post(
        f"/api/table/{token}/entries/",
        {"text": opening, "client_id": "before-crash", "expected_seq": 0},
        content_type="application/json",
    )
    assert answer.status_code == 201
    document = json.loads(json.dumps(tournament_export(tournament=tournament)))
    # The machine is lost: an empty instance with another key gets the backup.
    for model in reversed(backup_models()):
        model.objects.filter(**{tournament_path(model): tournament}).delete()
    tournament.delete()
    tokens._read_memo.clear()
    settings.SECRET_KEY = NEW_KEY
    return game, token, game.short_code, document


def test_old_qr_codes_and_short_codes_open_the_tables_after_a_restore_with_another_key(
    printed_game,
):
    game, token, code, document = printed_game
    restored = tournament_import(document=document)
    assert restored.backup_mode == "restore"

    # The QR code on the table still opens the page and logs moves.
    table = Client()
    assert table.get(f"/t/{token}/").status_code == 200
    assert _state(table, token) == 200
    moves = selfplay_game(2, first_dealer=game.first_dealer)["moves"]
    logged = table.post(
        f"/api/table/{token}/entries/",
        {"text": moves[1], "client_id": "after-restore", "expected_seq": 1},
        content_type="application/json",
    )
    assert logged.status_code == 201, logged.content

    # The short code opens the table too; the link it leads to works.
    status, opened = _open_by_code(code)
    assert status == 200
    # A score sheet printed now carries a link that works, and the old one still does.
    game.refresh_from_db()
    (sheet,) = score_sheets_data(round=game.round, games=[game])
    reprinted = sheet.table_url.rstrip("/").split("/")[-1]
    assert reprinted == opened != token
    assert _state(Client(), reprinted) == 200
    assert _state(Client(), token) == 200

    # A new table link from the organiser revokes both.
    game_token_rotate(game=game)
    tokens._read_memo.clear()
    assert _state(Client(), token) == 403
    assert _state(Client(), reprinted) == 403


def test_with_the_old_key_as_a_fallback_the_same_link_is_printed_again(printed_game, settings):
    game, token, code, document = printed_game
    settings.SECRET_KEY_FALLBACKS = [OLD_KEY]
    tournament_import(document=document)
    status, opened = _open_by_code(code)
    assert status == 200 and opened == token
    game.refresh_from_db()
    assert game.carried_token_hash == ""  # nothing had to be issued beside it
