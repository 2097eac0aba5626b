"""A backup is checked whole before anything is written, and written for its owner only."""

from __future__ import annotations

import copy
import json
import os
import stat

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from competition.services.backup import tournament_export
from competition.services.backup_import import tournament_import
from core.errors import ApplicationError
from games.engine import selfplay_game
from games.models import Game, MoveEntry
from games.services import move_log
from tests.factories import GameFactory, RoundFactory, TournamentFactory, organiser_of
from tournament.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_event() -> Tournament:
    """A small event: one closed round, a running one with a logged game and a take-back."""
    tournament = TournamentFactory(slug="check-event")
    organiser_of(tournament, "check-org")
    RoundFactory(tournament=tournament, number=1, status=Round.Status.CLOSED)
    running = RoundFactory(tournament=tournament, number=2, status=Round.Status.IN_PROGRESS)
    game = GameFactory(round=running, table_number=1, status=Game.Status.IN_PROGRESS)
    moves = selfplay_game(5, first_dealer=game.first_dealer)["moves"][:6]
    for seq, text in enumerate(moves):
        move_log.move_submit(game=game, text=text, client_id=f"check-{seq:04}", expected_seq=seq)
    move_log.move_take_back(game=game, client_id="check-0005", seq=6)
    return tournament


def _counts() -> tuple[int, ...]:
    users = get_user_model().objects.count()
    return (Tournament.objects.count(), Player.objects.count(), MoveEntry.objects.count(), users)


def _refused(document: dict, *, slug: str = "imported") -> ApplicationError:
    before = _counts()
    with pytest.raises(ApplicationError) as raised:
        tournament_import(document=document, slug=slug)
    assert raised.value.code == "backup_invalid"
    assert "Nothing was imported" in raised.value.message_en
    assert "Intet blev importeret" in raised.value.message_da
    assert _counts() == before
    return raised.value


def test_a_tampered_move_entry_is_refused_before_anything_is_written(logged_event):
    document = tournament_export(tournament=logged_event)
    document["users"].append({"username": "not-yet-there", "is_active": True})
    active = [e for e in document["move_entries"] if e["withdrawn_at"] is None]
    active[2]["text"] = active[2]["text"].replace(":", ":  ", 1)  # one character more
    error = _refused(document)
    assert "hash" in error.message_en
    assert not get_user_model().objects.filter(username="not-yet-there").exists()


def test_a_withdrawn_entry_changed_by_hand_is_refused(logged_event):
    document = tournament_export(tournament=logged_event)
    withdrawn = next(e for e in document["move_entries"] if e["withdrawn_at"] is not None)
    withdrawn["text"] = "Y 13: in"
    _refused(document)


def test_a_removed_entry_breaks_the_chain(logged_event):
    document = tournament_export(tournament=logged_event)
    document["move_entries"].pop(1)
    _refused(document)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda d: d["games"][0].update(round_id=987654), id="game-round-missing"),
        pytest.param(lambda d: d["games"][0].pop("round_id"), id="game-round-absent"),
        pytest.param(lambda d: d["pairs"][0].update(player_1_id=None), id="pair-player-null"),
        # A pairs event's entrant of one player (only a singles event has those).
        pytest.param(lambda d: d["pairs"][0].update(player_2_id=None), id="pair-partner-null"),
        pytest.param(lambda d: d["roles"][0].update(user="nobody"), id="role-user-unlisted"),
        pytest.param(lambda d: d["games"][0].update(status="exploded"), id="bad-choice"),
        pytest.param(lambda d: d["games"][0].update(table_number=-3), id="negative-table"),
        pytest.param(lambda d: d["games"][0].update(started_at="yesterday"), id="bad-date"),
        pytest.param(lambda d: d["players"][0].update(name="x" * 500), id="name-too-long"),
        pytest.param(lambda d: d["players"][0].update(name="A\x00B"), id="nul-in-name"),
        pytest.param(lambda d: d["rounds"][0].update(id="one"), id="id-not-a-number"),
        pytest.param(lambda d: d["rounds"].append(dict(d["rounds"][0])), id="id-twice"),
        pytest.param(lambda d: d["tournament"].update(clock_speed=1e-300), id="clock-speed"),
        pytest.param(lambda d: d["tournament"].update(alert_minutes=90), id="alert-after-limit"),
        pytest.param(lambda d: d.update(users=[{"name": "no username"}]), id="users-unreadable"),
        pytest.param(lambda d: d["users"][0].update(first_name="x" * 500), id="user-name-long"),
        pytest.param(lambda d: d["move_entries"][0].pop("hash"), id="entry-without-hash"),
        pytest.param(lambda d: d["move_entries"][0].update(seq="1"), id="entry-seq-text"),
    ],
)
def test_a_document_with_a_bad_value_or_reference_is_refused_whole(logged_event, change):
    document = copy.deepcopy(tournament_export(tournament=logged_event))
    change(document)
    _refused(document)


def test_the_export_file_is_readable_by_its_owner_only(logged_event, tmp_path):
    path = tmp_path / "backup.json"
    path.write_text("old")
    path.chmod(0o644)
    call_command("export_tournament", logged_event.slug, output=str(path), verbosity=0)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "dm-partners-tournament"
    fresh = tmp_path / "fresh.json"
    call_command("export_tournament", logged_event.slug, output=str(fresh), verbosity=0)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o600


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("[" * 50_000 + "]" * 50_000, id="deeply-nested"),
        pytest.param('{"format": "dm-partners-tournament", "name": "\\ud800"}', id="surrogate"),
        pytest.param(b"\xff\xfe not utf-8", id="not-utf-8"),
    ],
)
def test_the_import_command_reads_a_hostile_file_without_a_traceback(tmp_path, content):
    path = tmp_path / "hostile.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError) as raised:
        call_command("import_tournament", str(path), verbosity=0)
    assert " / " in str(raised.value)  # English / Danish
    assert _counts() == before


def test_a_singles_event_round_trips_and_its_entrants_keep_one_player():
    from tests.factories import PairFactory

    tournament = TournamentFactory(slug="duo-event", ruleset="duo")
    organiser_of(tournament, "duo-org")
    for _ in range(2):
        PairFactory(tournament=tournament, player_2=None)
    document = tournament_export(tournament=tournament)
    copied = tournament_import(document=copy.deepcopy(document), slug="duo-copy")
    assert copied.is_singles
    assert [p.player_2_id for p in copied.pairs.all()] == [None, None]
    # A singles entrant with a partner is not what registering makes: refused whole.
    two = copy.deepcopy(document)
    two["pairs"][0]["player_2_id"] = two["pairs"][1]["player_1_id"]
    refused = _refused(two)
    assert "one player" in refused.message_en and "én spiller" in refused.message_da
