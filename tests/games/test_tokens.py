import pytest

from core.errors import ApplicationError, PermissionDenied
from games.services.tokens import game_from_token, game_token, game_token_rotate, token_hash
from tests.factories import GameFactory
from tournament.models import Round

pytestmark = pytest.mark.django_db


def test_token_opens_its_own_game_only():
    game, other = GameFactory(), GameFactory()
    token = game_token(game=game)
    game_token(game=other)
    assert len(token) >= 22  # 144 bits of HMAC output, base64
    assert game_from_token(token=token).pk == game.pk
    assert game_from_token(token=game_token(game=other)).pk == other.pk


def test_token_is_stored_hashed_not_in_clear():
    game = GameFactory()
    token = game_token(game=game)
    game.refresh_from_db()
    assert token not in (game.token_hash, game.token_nonce, game.short_code)


def test_rotation_revokes_the_old_token():
    game = GameFactory()
    old = game_token(game=game)
    new = game_token_rotate(game=game)
    assert new != old
    with pytest.raises(ApplicationError) as err:
        game_from_token(token=old)
    assert err.value.code == "table_token_invalid"
    assert game_from_token(token=new).pk == game.pk


def test_forged_token_is_refused():
    game = GameFactory()
    token = game_token(game=game)
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    with pytest.raises(ApplicationError):
        game_from_token(token=forged)


def test_closed_round_token_can_read_but_not_write():
    game = GameFactory()
    token = game_token(game=game)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    assert game_from_token(token=token, for_write=False).pk == game.pk
    with pytest.raises(PermissionDenied):
        game_from_token(token=token)


def test_reads_reuse_a_recent_lookup_but_writes_always_ask_the_database(
    django_assert_num_queries,
):
    game = GameFactory()
    token = game_token(game=game)
    game_from_token(token=token, for_write=False)
    with django_assert_num_queries(0):
        again = game_from_token(token=token, for_write=False)
    assert again.pk == game.pk and again is not game_from_token(token=token, for_write=False)
    with django_assert_num_queries(1):
        game_from_token(token=token, for_write=True)


def test_rotation_revokes_a_remembered_token_for_reads_at_once():
    game = GameFactory()
    old = game_token(game=game)
    game_from_token(token=old, for_write=False)  # remembered
    game_token_rotate(game=game)
    with pytest.raises(ApplicationError) as err:
        game_from_token(token=old, for_write=False)
    assert err.value.code == "table_token_invalid"


def test_a_write_refuses_a_round_closed_after_a_remembered_read():
    game = GameFactory()
    token = game_token(game=game)
    game_from_token(token=token, for_write=False)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    with pytest.raises(PermissionDenied):
        game_from_token(token=token, for_write=True)


def test_a_submission_uses_a_lookup_reads_no_longer_may(monkeypatch, django_assert_num_queries):
    from django.db import connection

    from games.services import tokens

    # The query log is bounded (9,000): a nearly full one would hide queries.
    connection.queries_log.clear()
    game = GameFactory()
    token = game_token(game=game)
    clock = [1000.0]
    monkeypatch.setattr(tokens.time, "monotonic", lambda: clock[0])
    game_from_token(token=token, for_write=False)  # remembered at t = 1000 s
    clock[0] += 30  # past the read window, within the submission window
    with django_assert_num_queries(0):
        found, digest = tokens.game_for_submission(token=token)
    assert found.pk == game.pk and digest == game.token_hash
    with django_assert_num_queries(1):
        game_from_token(token=token, for_write=False)  # a read asks the database again
    clock[0] += tokens.SUBMISSION_MEMO_SECONDS + 1
    tokens._read_memo.clear()
    game_from_token(token=token, for_write=False)
    clock[0] += tokens.SUBMISSION_MEMO_SECONDS + 1
    with django_assert_num_queries(1):
        tokens.game_for_submission(token=token)  # too old even for a submission


def test_a_draft_rounds_link_shows_the_game_but_cannot_change_it():
    game = GameFactory(round__status=Round.Status.DRAFT)
    token = game_token(game=game)
    assert game_from_token(token=token, for_write=False).pk == game.pk
    with pytest.raises(PermissionDenied) as refused:
        game_from_token(token=token)
    assert "not published" in refused.value.message_en
    assert "ikke offentliggjort" in refused.value.message_da


def test_a_token_is_checked_without_the_key_and_reissued_once_after_a_key_change(settings):
    from games.models import Game

    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "k1-" + "a" * 48, []
    game = GameFactory()
    printed = game_token(game=game)
    settings.SECRET_KEY = "k2-" + "b" * 48
    assert game_from_token(token=printed).pk == game.pk
    # Two processes that each need a printable token make one new token between them.
    first, second = Game.objects.get(pk=game.pk), Game.objects.get(pk=game.pk)
    reissued = game_token(game=first)
    assert game_token(game=second) == reissued != printed
    assert Game.objects.get(pk=game.pk).carried_token_hash == token_hash(printed)
    assert game_from_token(token=printed).pk == game_from_token(token=reissued).pk == game.pk
