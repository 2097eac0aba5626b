"""The public replay of a finished game: every position, the engine's legal moves
for the card played and the choice, rulings where they happened, and visibility
exactly as the live view's (its names: tests/games/test_names_as_published.py)."""

from __future__ import annotations

import json
import pickle
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from core.cache import cache_key
from games.engine import (
    get_ruleset,
    position_from_json,
    position_legal_moves,
    replay,
    selfplay_game,
)
from games.models import Game, MoveEntry
from games.selectors import GameReplay, active_entries, log_head, log_origin
from games.selectors.replay import LEGAL_LISTED, game_replay, replay_frames
from games.services.move_log import move_submit
from judging.models import Ruling
from judging.services.rulings import ruling_void
from tests.factories import GameFactory, judge_of
from tournament.models import Round

pytestmark = pytest.mark.django_db

RULESETS = ["dm2023", "rulebook", "fr", "duo"]


def _played(game: Game, moves: list[str]) -> Game:
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"replay-{i:06d}", expected_seq=i)
    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    return game


def _url(game: Game, name: str = "games:replay") -> str:
    return reverse(name, args=[game.round.tournament.slug, game.round.number, game.table_number])


def _config(response) -> dict:  # type: ignore[no-untyped-def]
    found = re.search(
        r'<script id="replay-config" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found
    return json.loads(found.group(1))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_position_has_the_engines_legal_moves_for_the_card_played(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    record = selfplay_game(7, rules)
    entries = [{"seq": n, "text": text} for n, text in enumerate(record["moves"], start=1)]
    answer = replay_frames(ruleset=ruleset, first_dealer=record["first_dealer"], entries=entries)
    assert answer.error is None
    frames = answer.frames
    assert len(frames) == len(entries) + 1
    checked = 0
    for n in range(1, len(frames)):
        before, frame = frames[n - 1], frames[n]
        # The position after entry n is the engine's replay of the first n entries.
        if n % 37 == 0 or n == len(entries):
            done = replay({**record, "moves": record["moves"][:n]})
            assert frame.position == done.position.to_json()
        choice = frame.choice
        assert choice is not None and frame.text is not None and not frame.judge
        if choice.card is None:  # a discard
            assert " X:" in frame.text and choice.chosen_legal is None
            continue
        seat, move = frame.text.split(" ", 1)
        legal = position_legal_moves(
            position_from_json(before.position, rules), seat, choice.card, rules
        )
        assert choice.legal_count == len(legal)
        assert choice.chosen == move and choice.chosen_legal and move in choice.legal
        assert set(choice.legal) <= set(legal) and len(choice.legal) == min(
            len(legal), LEGAL_LISTED
        )
        checked += 1
    assert checked > len(entries) // 2
    assert frames[-1].winner == replay(record).winner


def test_a_refused_entry_ends_the_replay_with_the_engines_rule() -> None:
    entries = [{"seq": 1, "text": "Y 5: YS+5"}]
    answer = replay_frames(ruleset="dm2023", first_dealer="G", entries=entries)
    assert len(answer.frames) == 1 and answer.error is not None
    assert answer.error.seq == 1 and answer.error.rule


@pytest.fixture
def finished(db) -> Game:
    game = GameFactory(first_dealer="Y")
    return _played(game, selfplay_game(7, first_dealer="Y")["moves"][:12])


def test_the_page_embeds_every_position_and_starts_at_the_link(client, finished: Game) -> None:
    response = client.get(_url(finished) + "?ply=5")
    assert response.status_code == 200
    config = _config(response)
    assert len(config["frames"]) == 13 and config["ply"] == 5
    assert config["frames"][5]["text"] == selfplay_game(7, first_dealer="Y")["moves"][4]
    assert _config(client.get(_url(finished)))["ply"] == 12  # the end by default
    assert _config(client.get(_url(finished) + "?ply=999"))["ply"] == 12
    assert _config(client.get(_url(finished) + "?ply=-3"))["ply"] == 0
    assert _config(client.get(_url(finished) + "?ply=x"))["ply"] == 12


def test_the_served_replay_matches_the_selector(finished: Game) -> None:
    frames = game_replay(game=finished).frames
    assert [f.seq for f in frames] == list(range(13))
    done = replay(
        {"ruleset": "dm2023", "first_dealer": "Y", "moves": [str(f.text) for f in frames[1:]]}
    )
    assert frames[-1].position == done.position.to_json()


def test_a_ruling_is_shown_at_the_judge_entry_it_wrote(client, finished: Game) -> None:
    judge = judge_of(finished.round.tournament)
    finished.status = Game.Status.IN_PROGRESS
    finished.save(update_fields=["status"])
    ruling_void(game=finished, actor=judge, seq=12, reason="Kortet var allerede spillet.")
    finished.status = Game.Status.FINISHED
    finished.save(update_fields=["status"])
    config = _config(client.get(_url(finished)))
    last = config["frames"][-1]
    assert last["judge"] and last["text"].startswith("! VOID 12")
    # The void takes entry 12 back: the position is the one after entry 11.
    assert last["position"] == config["frames"][11]["position"]
    placed = config["rulings"]["at"][str(last["seq"])]
    assert placed[0]["reason"] == "Kortet var allerede spillet." and placed[0]["kind"] == "void"
    assert "judge" not in placed[0]


def test_a_game_not_finished_has_no_replay(client) -> None:
    game = GameFactory()
    assert client.get(_url(game)).status_code == 404
    assert client.get(_url(game, "games:replay-record")).status_code == 404


def test_no_such_table_is_404(client, finished: Game) -> None:
    slug = finished.round.tournament.slug
    url = reverse("games:replay", args=[slug, finished.round.number, 99])
    assert client.get(url).status_code == 404


def test_a_draft_round_is_private_as_on_the_live_page(client, finished: Game) -> None:
    Round.objects.filter(pk=finished.round_id).update(status=Round.Status.DRAFT)
    assert client.get(_url(finished)).status_code == 404
    assert client.get(_url(finished, "games:replay-record")).status_code == 404
    assert client.get(_url(finished, "games:live")).status_code == 404
    client.force_login(judge_of(finished.round.tournament))
    assert client.get(_url(finished)).status_code == 200


def test_an_unpublished_event_is_private(client, finished: Game) -> None:
    tournament = finished.round.tournament
    tournament.published = False
    tournament.save(update_fields=["published"])
    assert client.get(_url(finished)).status_code == 404
    assert client.get(_url(finished, "games:replay-record")).status_code == 404


def test_the_finished_game_is_linked_from_its_live_page_and_the_pairings(
    client, finished: Game
) -> None:
    replay_url = _url(finished)
    assert replay_url in client.get(_url(finished, "games:live")).content.decode()
    pairings = reverse(
        "tournament:pairings", args=[finished.round.tournament.slug, finished.round.number]
    )
    assert replay_url in client.get(pairings).content.decode()
    playing = GameFactory(round=finished.round)
    assert _url(playing) not in client.get(_url(playing, "games:live")).content.decode()
    assert _url(playing) not in client.get(pairings).content.decode()


START = ["seq", "position", "locked", "to_move", "hand_sizes", "winner", "distance"]
PLAYED = ["seq", "text", "seat", "card", "legal", "legal_count", "chosen", "chosen_legal"]
PLAYED += ["events", *START[1:]]


def test_each_kind_of_frame_answers_in_the_pages_field_order() -> None:
    # The page embeds the frames as they always were: a discard says nothing of
    # chosen_legal, a judge's entry has no card, the start no entry.
    record = selfplay_game(7, first_dealer="Y")
    entries = [{"seq": n, "text": text} for n, text in enumerate(record["moves"], start=1)]
    entries.append({"seq": len(entries) + 1, "text": "! WARN Y"})
    frames = replay_frames(ruleset="dm2023", first_dealer="Y", entries=entries).frames
    assert list(frames[0].to_json()) == START
    discards = [f for f in frames[1:-1] if f.choice is not None and f.choice.card is None]
    moves = [f for f in frames[1:-1] if f.choice is not None and f.choice.card is not None]
    assert discards and moves
    assert list(discards[0].to_json()) == [key for key in PLAYED if key != "chosen_legal"]
    assert discards[0].to_json()["legal"] == [] and discards[0].to_json()["chosen"] is None
    assert list(moves[0].to_json()) == PLAYED
    assert frames[-1].judge and list(frames[-1].to_json()) == [
        "seq", "text", "judge", "events", *START[1:]
    ]  # fmt: skip


def test_a_refusal_names_the_entry_as_the_engine_did() -> None:
    played = replay_frames(
        ruleset="dm2023", first_dealer="G", entries=[{"seq": 1, "text": "Y 5: YS+5"}]
    )
    assert played.error is not None
    assert list(played.to_json()["error"]) == ["seq", "rule", "message", "message_da"]
    # A judge's entry is refused by replaying the log up to it, which names its place.
    judged = replay_frames(
        ruleset="dm2023", first_dealer="G", entries=[{"seq": 1, "text": "! VOID 9"}]
    )
    assert judged.error is not None and judged.error.index == 0
    assert list(judged.to_json()["error"]) == [
        "seq",
        "index",
        "move",
        "rule",
        "message",
        "message_da",
    ]


def test_the_page_says_where_the_replay_stops(client, finished: Game) -> None:
    MoveEntry.objects.filter(game=finished, seq=5).update(text="Y 5: YS+5")
    response = client.get(_url(finished))
    config = _config(response)
    assert len(config["frames"]) == 5 and config["error"]["seq"] == 5 and config["ply"] == 4
    with translation.override(response["Content-Language"]):
        said = translation.gettext(
            "The replay stops before entry %(seq)s: the rules engine does not accept it."
        )
    assert f'<p class="replay-empty">{said % {"seq": 5}}</p>' in response.content.decode()


def test_a_ruling_that_wrote_no_entry_is_listed_apart(client, finished: Game) -> None:
    judge = judge_of(finished.round.tournament)
    Ruling.objects.create(
        tournament=finished.round.tournament, game=finished, kind=Ruling.Kind.WARNING,
        reason="Snak ved bordet.", judge=judge,
    )  # fmt: skip
    response = client.get(_url(finished))
    other = _config(response)["rulings"]["other"]
    with translation.override(response["Content-Language"]):
        label = str(Ruling.Kind.WARNING.label)
    assert other == [{"kind": "warning", "label": label, "reason": "Snak ved bordet.", "log": []}]
    listed = f'<ul class="rulings-other"><li><b>{label}</b>: Snak ved bordet.</li></ul>'
    assert listed in response.content.decode()


def test_a_replay_keeps_through_the_shared_cache(finished: Game) -> None:
    made = game_replay(game=finished)
    assert pickle.loads(pickle.dumps(made)) == made
    assert game_replay(game=finished) == made


def test_a_replay_an_older_release_cached_is_made_again(finished: Game) -> None:
    # An older release kept a dict of dicts (under v1): one under the new key is not read.
    rows = list(active_entries(game=finished).values("seq", "hash"))
    head = (
        finished.pk,
        log_origin(finished),
        *log_head(finished.pk, rows[-1]["seq"], rows[-1]["hash"]),
    )
    old_shaped = {"frames": [{"seq": 0}], "error": None}
    cache.set(cache_key("replay", "v1", *head), old_shaped, 60)
    cache.set(cache_key("replay", "v2", *head), old_shaped, 60)
    made = game_replay(game=finished)
    assert isinstance(made, GameReplay) and len(made.frames) == 13
    assert cache.get(cache_key("replay", "v2", *head)) == made
