"""The state's legal_effects: present exactly with the legal moves, true to a submission."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.engine import SEATS, Position, parse_effect
from games.models import MoveEntry
from games.selectors import game_log, game_state, log_cache
from games.services.move_log import move_submit, move_take_back

pytestmark = pytest.mark.django_db


def play(game, moves):
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"client-{i:06d}", expected_seq=i)


def effects_by_entry(state):
    """{card: {entry: effect string}} from a state's legal_entries and legal_effects."""
    packed = state.legal_effects
    return {
        card: {
            entry: packed["effects"][i]
            for entry, i in zip(entries, packed["by_card"][card], strict=True)
        }
        for card, entries in state.legal_entries.items()
    }


def moved(position, effect):
    """``position`` with the effect's moves made (colours read in the position before)."""
    data = {s: list(locs) for s, locs in position.items()}
    used = set()
    for src, dst in effect["moves"]:
        colour = next(s for s in SEATS if src in position[s])
        i = next(
            i for i, loc in enumerate(position[colour]) if loc == src and (colour, i) not in used
        )
        used.add((colour, i))
        data[colour][i] = dst
    return Position.from_json(data).to_json()


def test_state_has_effects_exactly_when_it_has_legal_moves(game):
    state = game_state(game=game)
    assert state.legal_entries["11"] == ["11: in"]
    assert effects_by_entry(state)["11"] == {"11: in": "RH>RS"}
    assert state.legal_entries["5"] == [] and state.legal_effects["by_card"]["5"] == []
    without = game_state(game=game, with_legal=False)
    assert without.legal_entries is None and without.legal_effects is None
    answer = move_submit(game=game, text="11: in", client_id="client-aaaa", expected_seq=0)
    after = game_state(game=game)
    # A submission's answer carries both (the device reads nothing after its write).
    assert answer.state.legal_entries == after.legal_entries
    assert answer.state.legal_effects == after.legal_effects
    assert set(answer.state.legal_effects["by_card"]) == set(answer.state.legal_entries)


def test_effects_are_computed_once_and_shared(game, record):
    play(game, record["moves"][:19])
    view = game_log(game=game)
    first = view.legal_effects
    assert view.legal_effects is first
    log_cache.clear()  # another process: the shared cache has the effects already
    assert game_log(game=game)._effects == first


def test_table_api_state_carries_effects_and_the_schema_documents_them(game, token):
    client = Client()
    state = client.get(f"/api/table/{token}/state/").json()
    assert state["legal_effects"]["effects"] == ["RH>RS"]
    assert set(state["legal_effects"]["by_card"]) == set(state["legal_entries"])
    schema = client.get("/api/schema/?format=json").json()
    prop = schema["components"]["schemas"]["GameState"]["properties"]["legal_effects"]
    assert prop.get("nullable") is True
    shape = schema["components"]["schemas"]["LegalEffects"]["properties"]
    assert set(shape) == {"effects", "by_card"}
    write = client.post(
        f"/api/table/{token}/entries/",
        json.dumps({"text": "11: in", "client_id": "client-bbbb", "expected_seq": 0}),
        content_type="application/json",
    )
    assert write.status_code == 201
    read = client.get(f"/api/table/{token}/state/?tail=20")
    assert write.json()["state"]["legal_effects"] == read.json()["legal_effects"]
    assert write.json()["state_etag"] == read["ETag"]


@pytest.mark.parametrize(
    ("prefix", "expect"),
    [
        (19, "7: B5+3 G11+4"),  # Blue's 7 over two pawns hits Yellow home from B8 (C7, T2)
        (56, "3: BM4+3"),  # Blue locks on BM1 (F2); swaps (C9) are legal too
    ],
)
def test_every_effect_is_what_the_submission_stores(game, record, prefix, expect):
    play(game, record["moves"][:prefix])
    state = game_state(game=game)
    effects = effects_by_entry(state)
    assert expect in effects[expect.split(":")[0]]
    seen = set()
    tries = 0
    for entries in effects.values():
        for entry, text in entries.items():
            effect = parse_effect(text)
            tries += 1
            answer = move_submit(
                game=game, text=entry, client_id=f"try-{tries:04d}", expected_seq=prefix
            )
            stored = MoveEntry.objects.get(game=game, seq=prefix + 1, withdrawn_at__isnull=True)
            assert stored.events == effect["events"], entry
            assert answer.state.position == moved(state.position, effect), entry
            assert answer.state.winner == effect["winner"], entry
            seen.update(e["type"] for e in effect["events"])
            seen.add(entry.split(":")[0])
            move_take_back(game=game, client_id=f"back-{tries:04d}", seq=prefix + 1)
    assert tries == sum(len(entries) for entries in state.legal_entries.values())
    assert "7" in seen and "hit" in seen
    if prefix == 56:
        assert {"lock", "J"} <= seen
