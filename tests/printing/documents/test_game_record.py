from games.engine import replay, selfplay_game
from printing.documents import build_game_record
from printing.documents.types import GameRecord, RulingNote
from printing.timeline import record_timeline
from tests.printing.pdf_tools import pdf_text

PLAYERS = {"Y": "Anne", "R": "Bo", "B": "Carl", "G": "Dorte"}


def _record(seed=3):
    record = selfplay_game(seed)
    record["players"] = PLAYERS
    return record


def test_timeline_takes_hits_and_locks_from_the_engine():
    record = _record()
    entries, diagrams, checked = record_timeline(record, lang="en", interval=25)
    result = replay(record)
    assert checked == len(record["moves"]) == len(entries)
    hits = sum(len(e.hits) for e in entries)
    locks = sum(len(e.locks) for e in entries)
    assert hits == sum(1 for evs in result.events for e in evs if e.type == "hit")
    assert (
        locks
        == sum(1 for evs in result.events for e in evs if e.type == "lock")
        == 8
        + sum(
            1
            for evs in result.events
            for e in evs
            if e.type == "lock" and e.colour in "RG" and result.winner == "YB"
        )
        + sum(
            1
            for evs in result.events
            for e in evs
            if e.type == "lock" and e.colour in "YB" and result.winner == "RG"
        )
    )
    # every 25 entries and the final position
    assert [d.after_entry for d in diagrams][:2] == [25, 50]
    assert diagrams[-1].after_entry == checked
    assert diagrams[-1].position == result.position.to_json()


def test_a_rejected_entry_is_marked_with_its_rule_and_later_entries_are_not_checked():
    record = _record()
    bad = {**record, "moves": [*record["moves"][:10], "Y 5: Y3+5", *record["moves"][10:12]]}
    entries, diagrams, checked = record_timeline(bad, lang="en")
    assert checked == 10
    assert entries[10].rule and entries[10].note
    assert entries[11].rule == "" and entries[11].hits == []
    assert diagrams[-1].after_entry == 10


def test_judge_entries_are_labelled_and_get_a_diagram():
    record = _record()
    moves = [*record["moves"][:5], "! WARN B P5", "! UPHOLD 3", *record["moves"][5:7]]
    judged = {**record, "moves": moves}
    notes = {6: RulingNote(reason="Signalled with a hand", judge="Kirsten")}
    entries, diagrams, checked = record_timeline(judged, lang="en", interval=40, rulings=notes)
    assert checked == len(moves)
    warn, uphold = entries[5], entries[6]
    assert warn.ruling and warn.rule == "P5" and warn.seat == ""
    assert warn.note == "Warning to Blue — Signalled with a hand — judge: Kirsten"
    assert uphold.ruling and uphold.note == "Entry 3 upheld as logged" and uphold.rule == ""
    assert not entries[4].ruling and not entries[7].ruling and entries[7].note == ""
    by_entry = {d.after_entry: d for d in diagrams}
    assert by_entry[6].ruling and by_entry[7].ruling and 5 not in by_entry
    # A warning changes nothing on the board.
    assert (
        by_entry[6].position == replay({**record, "moves": record["moves"][:5]}).position.to_json()
    )


def test_game_record_document_lists_moves_events_players_and_diagram_captions():
    record = _record()
    entries, diagrams, checked = record_timeline(record, lang="en", interval=40)
    document = GameRecord(
        tournament="DM i Partners 2026",
        round_number=2,
        table_number=5,
        players=PLAYERS,
        first_dealer=record["first_dealer"],
        entries=entries,
        diagrams=diagrams,
        winner="YB",
        final_hash="a1b2c3d4",
        checked=checked,
    )
    text = pdf_text(build_game_record(document, lang="en"))
    assert "Round 2 — Table 5" in text
    assert "Yellow: Anne" in text and "Green: Dorte" in text
    assert f"All {checked} entries accepted by the rules engine." in text
    assert "a1b2c3d4" in text
    assert record["moves"][0] in text and record["moves"][-1] in text
    first_hit = next(e for e in entries if e.hits)
    assert f"hit {first_hit.hits[0]}" in text
    assert "Position after entry 40" in text and "Position after entry 80" in text
    assert "locked" in text


def test_game_record_in_danish_with_a_rejected_entry():
    record = _record()
    bad = {**record, "moves": [*record["moves"][:4], "Y 5: Y3+5"]}
    entries, diagrams, checked = record_timeline(bad, lang="da")
    document = GameRecord(
        "DM", 1, 1, PLAYERS, record["first_dealer"], entries, diagrams, checked=checked
    )
    text = pdf_text(build_game_record(document, lang="da"))
    assert "Regelmotoren godkendte de første 4 træk" in text
    assert f"Afvist [{entries[4].rule}]" in text
    assert "Stilling efter træk 4" in text
