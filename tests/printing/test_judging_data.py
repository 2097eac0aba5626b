"""The judge report and the game record fed by real judging objects (calls, rulings)."""

from __future__ import annotations

import pytest

from games.engine import DM2023, position_from_json, replay, selfplay_game
from games.selectors import game_record_export, game_state, log_cache
from games.selectors.adjudication import adjudication_proposal
from games.services.clock import clock_start, clock_time_up
from games.services.judges import JudgeAtEvent
from games.services.move_log import move_submit
from judging.services.calls import judge_call_close, judge_call_create, judge_call_take
from judging.services.rulings import (
    adjudication_decide,
    ruling_penalty,
    ruling_position_set,
    ruling_uphold,
    ruling_void,
    ruling_warning,
)
from printing import data
from printing.services import game_record_render, judge_report_render
from tests.factories import judge_of
from tests.printing.pdf_tools import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_log_cache():
    log_cache.clear()
    yield
    log_cache.clear()


@pytest.fixture
def kirsten(tournament):
    user = judge_of(tournament, "kirsten")
    user.first_name, user.last_name = "Kirsten", "Kjær"
    user.save()
    return user


def _logged(round_with_games, table, count, seed=7):
    game = round_with_games.games.get(table_number=table)
    record = selfplay_game(seed, first_dealer=game.first_dealer)
    clock_start(game=game)
    for i, text in enumerate(record["moves"][:count]):
        move_submit(game=game, text=text, client_id=f"print-{game.pk}-{i:04d}", expected_seq=i)
    game.refresh_from_db()
    return game, record


def _pawn_on_track(game, seat):
    return next(loc for loc in game_state(game=game).position[seat] if loc[1:].isdigit())


def test_judge_report_lists_calls_rulings_penalties_and_adjudications(
    round_with_games, kirsten, judge
):
    game, _record = _logged(round_with_games, 1, 12)
    call = judge_call_create(
        game=game, client_id="call-0001-abcd", reason="Rød rørte en brik", seq=4
    )
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, kirsten))
    ruling_uphold(
        game=game, actor=kirsten, seq=4, rule="F6", reason="Syveren blev delt lovligt", call=call.pk
    )
    judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, kirsten))
    ruling_penalty(game=game, actor=kirsten, penalty="P1", seat="R", reason="Trak kort for tidligt")
    seat = next(
        s for s in "YRBG" if any(loc[1:].isdigit() for loc in game_state(game=game).position[s])
    )
    pawn = _pawn_on_track(game, seat)
    ruling_penalty(
        game=game, actor=judge, penalty="P2", seat=seat, pawn=pawn, reason="Talte om kortene"
    )
    ruling_warning(game=game, actor=kirsten, seat="G", rule="P5", reason="Signalerede med hånden")

    timed, _ = _logged(round_with_games, 2, 20, seed=9)
    clock_time_up(game_id=timed.pk)
    proposal = adjudication_proposal(game=timed)
    other = "RG" if proposal.winner == "YB" else "YB"
    adjudication_decide(game=timed, actor=kirsten, winner=other, reason="Uret gik forkert")

    text = pdf_text(
        judge_report_render(tournament=round_with_games.tournament, actor=judge, lang="en")
    )
    flat = " ".join(text.split())
    for fragment in (
        "Rød rørte en brik",  # the call's reason
        "about entry 4",
        "Closed",
        "Kirsten Kjær",  # the judge who took the call and made rulings
        "F6",
        "P1",
        "P2",
        "P5",
        "W3",
        "Syveren blev delt lovligt",
        "Trak kort for tidligt",
        "Talte om kortene",
        f"pawn {pawn} sent home",
        "Uret gik forkert",
        "the judge overrode the proposal",
        f"remaining distance Yellow/Blue {proposal.teams['YB'].distance}",
        "Judge call: 1",
        "Penalty: 2",
        "Warning: 1",
        "Adjudication: 1",
    ):
        assert fragment in flat, fragment
    names = {"YB": "Yellow/Blue", "RG": "Red/Green", None: ""}
    assert f"engine proposal: {names[proposal.winner]}; decision: {names[other]}" in flat
    # The adjudicated game is reported once (from its ruling), not again from its result.
    assert flat.count("Adjudication: 1") == 1
    assert "Rules involved: F6 ×1, P1 ×1, P2 ×1, P5 ×1, W3 ×1" in flat
    # Table numbers in the rows: the rulings were at tables 1 and 2.
    assert " 1 1 " in f" {flat} " and " 1 2 " in f" {flat} "


def test_judge_report_in_danish_names_the_call_and_the_penalty(round_with_games, kirsten):
    game, _record = _logged(round_with_games, 3, 8)
    call = judge_call_create(game=game, client_id="call-0002-abcd", reason="Uenighed om syveren")
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, kirsten))
    ruling_penalty(game=game, actor=kirsten, penalty="P1", seat="B", reason="Snød", call=call.pk)
    text = " ".join(
        pdf_text(judge_report_render(tournament=round_with_games.tournament, actor=kirsten)).split()
    )
    assert "Dommerrapport" in text and "Uenighed om syveren" in text and "Kirsten Kjær" in text
    assert "P1" in text and "Snød" in text


def test_judge_report_shows_a_time_out_result_decided_against_w3_and_why(round_with_games, kirsten):
    from games.services.results import game_result_record
    from tests.factories import organiser_of

    game = round_with_games.games.get(table_number=3)
    game_result_record(
        game=game, actor=organiser_of(round_with_games.tournament), winner="YB", timed_out=True,
        distance_yb=100, distance_rg=50, override_reason="Rød/Grøn spillede efter tid",
    )  # fmt: skip
    text = " ".join(
        pdf_text(judge_report_render(tournament=round_with_games.tournament, actor=kirsten)).split()
    )
    assert "afgjort imod afgørelsen efter W3: Rød/Grøn spillede efter tid" in text


def test_game_record_labels_judge_entries_with_reason_and_draws_a_diagram_at_each(
    round_with_games, kirsten
):
    game, record = _logged(round_with_games, 1, 12)
    ruling_void(game=game, actor=kirsten, seq=12, rule="F6", reason="Flyttede med forkert brik")
    ruling_penalty(game=game, actor=kirsten, penalty="P1", seat="Y", reason="Kiggede i bunken")
    exported = game_record_export(game=game)
    assert exported["moves"][12:] == ["! VOID 12", "! P1 Y"]

    document = data.game_record_data(game=game, lang="en")
    void, penalty = document.entries[12], document.entries[13]
    assert void.ruling and void.rule == "F6"
    assert "Entries voided: 12" in void.note and "Flyttede med forkert brik" in void.note
    assert "Kirsten Kjær" in void.note
    assert penalty.rule == "P1" and "Y" not in penalty.seat
    assert "Penalty P1: Yellow is dealt 3 cards at the next deal" in penalty.note
    by_entry = {d.after_entry: d for d in document.diagrams}
    assert by_entry[13].ruling and by_entry[14].ruling
    # The diagram after the void shows the position as if entry 12 never happened.
    assert (
        by_entry[13].position
        == replay({**record, "moves": record["moves"][:11]}).position.to_json()
    )

    text = " ".join(pdf_text(game_record_render(game=game, actor=kirsten, lang="en")).split())
    assert "Ruling [F6]: Entries voided: 12 — Flyttede med forkert brik" in text
    assert "Ruling [P1]: Penalty P1: Yellow is dealt 3 cards" in text
    assert "Position after entry 13 (ruling)" in text
    assert "Position after entry 14 (ruling)" in text


def test_game_record_in_danish_labels_a_position_correction(round_with_games, kirsten):
    game, _record = _logged(round_with_games, 2, 6, seed=9)
    position = position_from_json(game_state(game=game).position, DM2023)
    ruling_position_set(game=game, actor=kirsten, position=position, reason="Brikken stod på R5")
    text = " ".join(pdf_text(game_record_render(game=game, actor=kirsten, lang="da")).split())
    assert "Stillingen rettet af dommeren" in text and "Brikken stod på R5" in text
    assert "Stilling efter træk 7" in text
