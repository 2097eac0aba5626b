"""Service tests of the move log: append, refuse, retry, stale, take-back, hash chain."""

from __future__ import annotations

import hashlib

import pytest

from core.errors import ApplicationError
from games.engine import replay
from games.models import Game, MoveEntry
from games.selectors import (
    ChainVerdict,
    entry_hash,
    game_log,
    game_state,
    genesis_hash,
    move_log_verify,
)
from games.services.move_log import (
    PawnChange,
    entry_read,
    move_preview,
    move_submit,
    move_take_back,
)

pytestmark = pytest.mark.django_db


def play(game, moves, start=0):
    for i, text in enumerate(moves, start=start):
        move_submit(game=game, text=text, client_id=f"client-{i:06d}", expected_seq=i)


def test_first_entry_is_appended_with_canonical_text_and_state(game):
    # Yellow deals, so Red opens: the seat comes from the engine.
    result = move_submit(game=game, text=" 11 :  in ", client_id="abcdefgh-1", expected_seq=0)
    assert result.created
    assert result.entry.text == "R 11: in"
    assert result.entry.seq == 1
    assert result.state.seq == 1
    assert result.state.position["R"].count("RS") == 1
    assert result.state.to_move == "B"
    assert result.state.hand_sizes["R"] == 3
    stored = MoveEntry.objects.get(game=game)
    assert (stored.seat, stored.text, stored.client_id) == ("R", "R 11: in", "abcdefgh-1")


def test_a_whole_game_logged_entry_by_entry_replays_to_the_engines_winner(game, record):
    play(game, record["moves"])
    state = game_state(game=game)
    expected = replay(record)
    assert state.seq == len(record["moves"])
    assert state.winner == expected.winner
    assert state.position == expected.position.to_json()
    assert state.to_move is None
    assert move_log_verify(game=game).ok


def test_illegal_move_is_refused_with_rule_and_nothing_changes(game):
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="5: R3+5", client_id="abcdefgh-1", expected_seq=0)
    assert err.value.status_code == 422
    assert err.value.code not in ("", "N")  # a rule id, not a notation error
    assert err.value.message_da and err.value.message_en
    assert err.value.message_da != err.value.message_en
    assert not MoveEntry.objects.exists()
    assert game_state(game=game).seq == 0


def test_wrong_seat_is_refused_by_rule_d2(game):
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="Y 11: in", client_id="abcdefgh-1", expected_seq=0)
    assert err.value.code == "D2"
    assert not MoveEntry.objects.exists()


# A text only: what is no text (a number, null) is read where it enters
# (test_move_log_api.py::test_an_entry_that_is_no_text_is_answered_and_kept_as_the_table_sent_it).
@pytest.mark.parametrize("text", ["", "hello", "5: Q3+5", "X: 2 Z", "x" * 200, "5"])
def test_unreadable_entry_is_refused_as_notation_error(game, text):
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text=text, client_id="abcdefgh-1", expected_seq=0)
    assert err.value.status_code == 422
    assert err.value.code == "N"
    assert not MoveEntry.objects.exists()


def test_written_destination_is_checked(game):
    play(game, ["11: in", "8: in", "8: in", "13: in"])  # R, B, G, Y enter; Red again
    # Red's pawn on RS with a 5 goes to R5: a wrong destination is refused.
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="5: RS+5>R6", client_id="abcdefgh-x", expected_seq=4)
    assert err.value.code == "N"
    assert game_state(game=game).seq == 4
    ok = move_submit(game=game, text="5: RS+5>R5", client_id="abcdefgh-y", expected_seq=4)
    assert ok.entry.text == "R 5: RS+5"


def test_retried_client_id_is_not_duplicated(game):
    first = move_submit(game=game, text="11: in", client_id="retry-0001", expected_seq=0)
    again = move_submit(game=game, text="11: in", client_id="retry-0001", expected_seq=0)
    assert first.created and not again.created
    assert again.entry.hash == first.entry.hash
    assert MoveEntry.objects.filter(game=game).count() == 1


def test_retry_after_the_log_moved_on_still_answers_the_stored_entry(game):
    move_submit(game=game, text="11: in", client_id="retry-0001", expected_seq=0)
    move_submit(game=game, text="8: in", client_id="retry-0002", expected_seq=1)
    again = move_submit(game=game, text="11: in", client_id="retry-0001", expected_seq=0)
    assert not again.created
    assert again.entry.seq == 1
    assert again.state.seq == 2
    assert MoveEntry.objects.filter(game=game).count() == 2


def test_stale_sequence_is_refused_with_the_current_state(game):
    move_submit(game=game, text="11: in", client_id="device-a-01", expected_seq=0)
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="8: in", client_id="device-b-01", expected_seq=0)
    assert err.value.status_code == 409
    assert err.value.code == "stale_sequence"
    assert err.value.extra["state"]["seq"] == 1
    assert err.value.extra["state"]["to_move"] == "B"
    assert MoveEntry.objects.filter(game=game).count() == 1


def test_future_sequence_is_refused_too(game):
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="11: in", client_id="device-a-01", expected_seq=3)
    assert err.value.code == "stale_sequence"


# The client id, the entry numbers and the pair side are checked at the API
# (games.serializers): tests/games/test_move_log_api.py.


def test_hash_chain_follows_the_contract(game):
    play(game, ["11: in", "8: in", "13: in"])
    rows = list(MoveEntry.objects.filter(game=game).order_by("seq"))
    prev = hashlib.sha256(str(game.pk).encode()).hexdigest()
    assert genesis_hash(game.pk) == prev
    for row in rows:
        want = hashlib.sha256(f"{prev}{row.text}{row.seq}".encode()).hexdigest()
        assert row.prev_hash == prev and row.hash == want
        prev = row.hash
    assert game_state(game=game).short_hash == rows[-1].hash[:8]


def test_tampered_entry_breaks_the_chain(game):
    play(game, ["11: in", "8: in", "13: in"])
    MoveEntry.objects.filter(game=game, seq=2).update(text="B 13: in")
    assert move_log_verify(game=game) == ChainVerdict(ok=False, first_bad_seq=2)


def test_take_back_last_entry_marks_it_withdrawn_and_seq_is_reused(game):
    play(game, ["11: in", "8: in"])
    state = move_take_back(game=game, client_id="device-a-tb", seq=2)
    assert state.seq == 1 and state.to_move == "B"
    withdrawn = MoveEntry.objects.get(game=game, seq=2)
    assert withdrawn.withdrawn_at is not None and withdrawn.withdrawn_by == "device-a-tb"
    again = move_submit(game=game, text="13: in", client_id="client-again", expected_seq=1)
    assert again.entry.seq == 2 and again.entry.text == "B 13: in"
    assert MoveEntry.objects.filter(game=game).count() == 3
    first = MoveEntry.objects.get(game=game, seq=1)
    assert again.entry.hash == entry_hash(prev_hash=first.hash, text="B 13: in", seq=2)
    assert move_log_verify(game=game).ok


def test_take_back_is_idempotent_for_the_same_device(game):
    play(game, ["11: in", "8: in"])
    move_take_back(game=game, client_id="device-a-tb", seq=2)
    state = move_take_back(game=game, client_id="device-a-tb", seq=2)
    assert state.seq == 1
    assert MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True).count() == 1


def test_only_the_last_entry_can_be_taken_back(game):
    play(game, ["11: in", "8: in"])
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=game, client_id="device-a-tb", seq=1)
    assert err.value.code == "take_back_too_late"
    assert err.value.status_code == 409
    assert MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True).count() == 2


def test_finished_game_refuses_entries(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="11: in", client_id="abcdefgh-1", expected_seq=0)
    assert err.value.code == "game_finished"
    assert not MoveEntry.objects.exists()


def test_round_closed_after_the_table_link_was_checked_refuses_under_the_lock(game):
    # The API checks the table link (and its round) before the game's lock is
    # taken; a round closed in between must still refuse, storing nothing.
    move_submit(game=game, text="11: in", client_id="abcdefgh-1", expected_seq=0)
    game.round.status = game.round.Status.CLOSED
    game.round.save(update_fields=["status"])
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="11: in", client_id="abcdefgh-2", expected_seq=1)
    assert err.value.status_code == 403
    assert MoveEntry.objects.filter(game=game).count() == 1
    # A retry of an entry stored before the round closed still gets its answer.
    again = move_submit(game=game, text="11: in", client_id="abcdefgh-1", expected_seq=0)
    assert not again.created and again.entry.seq == 1


def test_preview_shows_moves_and_hits_without_storing(game, record):
    play(game, ["11: in", "8: in", "8: in"])  # R, B, G enter
    preview = move_preview(game=game, text="13: in")
    assert preview.entry == "Y 13: in"
    assert preview.changes == (PawnChange(colour="Y", moved_from=["YH"], moved_to=["YS"]),)
    assert preview.to_json()["changes"] == [{"colour": "Y", "from": ["YH"], "to": ["YS"]}]
    assert preview.events == () and preview.winner is None
    assert not MoveEntry.objects.filter(game=game, seq=4).exists()


def test_entry_read_accepts_seat_and_lowercase():
    assert entry_read(text="y 5: y3+5", to_move="R") == ("Y", "Y 5: Y3+5", "Y 5: Y3+5")
    assert entry_read(text="J: R10<>Y3", to_move="B")[2] == "B J: Y3<>R10"
    assert entry_read(text="x: 9 2 12 3", to_move="G")[2] == "G X: 2 3 9 12"


def test_replay_cache_matches_a_fresh_replay(game, record):
    play(game, record["moves"][:40])
    cached = game_log(game=game)
    from games.selectors import log_cache

    log_cache.clear()
    fresh = game_log(game=game)
    assert fresh.replay.position == cached.replay.position
    assert fresh.legal_entries == cached.legal_entries
    assert fresh.last_hash == cached.last_hash


def test_changing_the_first_dealer_is_never_served_from_the_cache(game):
    assert game_state(game=game).to_move == "R"
    Game.objects.filter(pk=game.pk).update(first_dealer="B")
    game.refresh_from_db()
    assert game_state(game=game).to_move == "G"


def test_a_submission_answers_with_the_legal_moves_and_the_tag_of_the_tables_read(game):
    from games.conditional import state_etag
    from games.services.move_log import ANSWER_ENTRIES

    result = move_submit(game=game, text="11: in", client_id="abcdefgh-1", expected_seq=0)
    read = game_state(game=game, entries_tail=ANSWER_ENTRIES)
    assert result.state.legal_entries == read.legal_entries
    assert result.state.legal_entries["8"] == ["8: in"]
    assert result.state.legal_effects == read.legal_effects
    # The device's next poll (?tail=20) is answered 304.
    assert result.state_etag == state_etag(read, legal=True, tail=ANSWER_ENTRIES)
    assert result.state_etag != state_etag(read, legal=True)  # a tag of the tail, not the log


def test_other_write_answers_leave_out_legal_moves(game):
    from games.services.move_log import move_take_back

    move_submit(game=game, text="11: in", client_id="abcdefgh-1", expected_seq=0)
    state = move_take_back(game=game, client_id="abcdefgh-1", seq=1)
    assert state.legal_entries is None


def test_the_process_keeps_one_view_per_game_and_finds_older_heads_in_the_shared_cache(
    game, record
):
    from django.core.cache import cache

    from games.selectors import log_cache

    for seq, text in enumerate(record["moves"][:3]):
        move_submit(game=game, text=text, client_id=f"client-{seq:04d}", expected_seq=seq)
    newest = game_log(game=game)
    assert newest.seq == 3
    assert list(log_cache._data) == [game.pk]  # one view for the game, not one per head
    assert log_cache._data[game.pk] is newest
    older_key = (game.pk, newest.origin, 2, MoveEntry.objects.get(game=game, seq=2).hash)
    older = log_cache.get(older_key)  # from the shared cache
    assert older is not None and older.seq == 2
    cache.clear()
    log_cache.put(newest, share=False)
    assert log_cache.get(older_key) is None  # neither here nor shared: the caller replays


def test_a_views_entries_are_left_alone_by_the_garbage_collector(game, record):
    import gc

    for seq, text in enumerate(record["moves"][:40]):
        move_submit(game=game, text=text, client_id=f"client-{seq:04d}", expected_seq=seq)
    view = game_log(game=game)
    gc.collect()
    assert len(view.entries) == 40
    quiet = {entry.seq for entry in view.entries if not entry.events}
    assert quiet and len(quiet) < 40  # most entries hit or lock nothing; some do
    # What the view keeps of its entries (plain rows, handed out as LogEntry
    # values when read) holds strings and numbers only: untracked after one
    # collection. A list of events, or a dataclass per entry, kept every entry
    # tracked, and every full collection walked them.
    (rows,) = (
        held for held in gc.get_referents(view) if isinstance(held, tuple) and len(held) == 40
    )
    kept = [row for row in rows if row[0] in quiet]
    assert len(kept) == len(quiet)
    assert not any(gc.is_tracked(row) for row in kept)
