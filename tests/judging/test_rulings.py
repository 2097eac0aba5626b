"""Rulings: every kind, their effect on the replayed log and on the standings."""

from __future__ import annotations

import pytest

from competition.selectors import standings_for_tournament
from core.errors import ApplicationError, PermissionDenied
from core.validation import InputRefused
from games.engine import DM2023, position_from_json, replay
from games.models import Game, MoveEntry
from games.selectors import game_log, game_record_export, game_state, move_log_verify
from games.selectors.adjudication import adjudication_proposal
from games.services.clock import clock_time_up
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.models import Ruling
from judging.services.rulings import (
    JudgeAtTable,
    adjudication_decide,
    ruling_penalty,
    ruling_position_set,
    ruling_result,
    ruling_uphold,
    ruling_void,
    ruling_warning,
    void_preview,
)
from tests.judging.conftest import log_moves, rule, ruling_input

pytestmark = pytest.mark.django_db


def _texts(game):
    return [e.text for e in game_state(game=game).entries or ()]


def _replay_of_export(game):
    return replay(game_record_export(game=game))


def test_uphold_writes_a_judge_entry_and_changes_nothing_else(logged, judge):
    before = game_state(game=logged)
    ruling = ruling_uphold(game=logged, actor=judge, seq=10, reason="Trækket var lovligt")
    after = game_state(game=logged)
    assert ruling.kind == Ruling.Kind.UPHOLD and ruling.judge == judge
    assert _texts(logged)[-1] == "! UPHOLD 10"
    assert after.position == before.position and after.to_move == before.to_move
    assert move_log_verify(game=logged).ok


def test_void_of_the_last_entry_and_play_continues(logged, judge, record):
    ruling = ruling_void(game=logged, actor=judge, seq=10, reason="Spillede med forkert brik")
    state = game_state(game=logged)
    nine = replay({**record, "moves": record["moves"][:9]})
    assert state.position == nine.position.to_json()
    assert state.to_move == nine.state.to_move
    assert ruling.log_entries == [{"seq": 11, "text": "! VOID 10"}]
    # The same seat plays again: the original entry is legal once more.
    log_moves_from(logged, [record["moves"][9]], start=11)
    assert game_state(game=logged).seq == 12
    assert move_log_verify(game=logged).ok


def log_moves_from(game, moves, start):
    from games.services.move_log import move_submit

    for i, text in enumerate(moves):
        seq = start + i
        move_submit(game=game, text=text, client_id=f"again-{seq:04d}", expected_seq=seq)


def test_void_preview_lists_entries_that_become_illegal(logged, judge):
    affected = void_preview(table=JudgeAtTable(logged, judge), seq=5)
    assert affected and all(a["entry"] > 5 for a in affected)
    assert void_preview(table=JudgeAtTable(logged, judge), seq=10) == []


def test_void_in_the_middle_needs_a_decision_for_later_entries(logged, judge):
    with pytest.raises(ApplicationError) as err:
        ruling_void(game=logged, actor=judge, seq=5, reason="fejl")
    assert err.value.status_code == 422
    assert len(_texts(logged)) == 10 and not Ruling.objects.exists()


def test_void_with_later_entries_voided_too(logged, judge, record):
    affected = [a["entry"] for a in void_preview(table=JudgeAtTable(logged, judge), seq=5)]
    ruling_void(game=logged, actor=judge, seq=5, also=affected, reason="fejl ved post 5")
    state = game_state(game=logged)
    assert state.position == replay({**record, "moves": record["moves"][:4]}).position.to_json()


def test_a_void_of_several_entries_reads_the_log_once_and_no_legal_moves(
    logged, judge, monkeypatch
):
    """The entries a void names are checked against one read of the log, not
    a table state (with its legal moves) rebuilt for each of them."""
    from games.selectors import LogView, log_cache
    from judging.services import rulings

    affected = [a["entry"] for a in void_preview(table=JudgeAtTable(logged, judge), seq=5)]
    assert len(affected) >= 2
    log_cache.clear()
    reads = []
    monkeypatch.setattr(rulings, "game_log", lambda **kw: reads.append(kw) or game_log(**kw))

    def no_legal_moves(view):
        raise AssertionError("a ruling computed the legal moves")

    monkeypatch.setattr(LogView, "_fill_legal", no_legal_moves)
    ruling_void(game=logged, actor=judge, seq=5, also=affected, reason="fejl ved post 5")
    assert len(reads) == 1
    assert Ruling.objects.get().data["void"] == sorted({5, *affected})


def test_void_keeping_later_entries_needs_and_uses_a_position(logged, judge):
    affected = [a["entry"] for a in void_preview(table=JudgeAtTable(logged, judge), seq=5)]
    table = game_state(game=logged).position
    with pytest.raises(ApplicationError) as err:
        ruling_void(game=logged, actor=judge, seq=5, keep=affected, reason="fejl")
    assert err.value.code == "position_required"
    position = position_from_json(table, DM2023)
    ruling_void(game=logged, actor=judge, seq=5, keep=affected, position=position, reason="fejl")
    texts = _texts(logged)
    assert texts[-2].startswith("! VOID 5 KEEP") and texts[-1].startswith("! SET ")
    assert game_state(game=logged).position == table
    assert _replay_of_export(logged).ok


def test_position_correction(logged, judge):
    position = game_state(game=logged).position
    position["Y"] = ["YH", "YH", "YH", "YH"]
    ruling_position_set(
        game=logged, actor=judge, position=position_from_json(position, DM2023), reason="Gul stod"
    )
    assert game_state(game=logged).position["Y"] == ["YH", "YH", "YH", "YH"]
    assert _replay_of_export(logged).position.pawns("Y") == ["YH", "YH", "YH", "YH"]


def test_an_impossible_position_is_refused_and_changes_nothing(logged, judge):
    bad = game_state(game=logged).position
    bad["Y"] = ["YH", "YH", "YH"]
    with pytest.raises(InputRefused):
        ruling_input("position", {"position": bad, "reason": "x"}, ruleset=DM2023)
    assert len(_texts(logged)) == 10 and not Ruling.objects.exists()


def test_p1_gives_three_cards_at_the_next_deal(logged, judge, record):
    ruling_penalty(game=logged, actor=judge, penalty="P1", seat="R", reason="Flyttede før kort")
    moves = record["moves"]
    # Play on until the next deal has begun.
    n = 10
    while game_state(game=logged).hand_sizes != {"Y": 0, "R": 0, "B": 0, "G": 0}:
        before = game_state(game=logged)
        log_moves_from(logged, [moves[n]], start=before.seq)
        n += 1
        if game_state(game=logged).dealer != before.dealer or sum(
            game_state(game=logged).hand_sizes.values()
        ) > sum(before.hand_sizes.values()):
            break
    hands = game_state(game=logged).hand_sizes
    assert hands["R"] == 3 and hands["Y"] == hands["B"] == hands["G"] == 4
    ruling = Ruling.objects.get(kind=Ruling.Kind.PENALTY)
    assert ruling.rule == "P1" and ruling.pair == logged.pair_rg


def test_p2_sends_a_pawn_of_the_talker_home(logged, judge):
    position = game_state(game=logged).position
    colour, loc = next(
        (c, loc) for c in "YRBG" for loc in position[c] if loc[1:].isdigit() or loc.endswith("S")
    )
    ruling_penalty(game=logged, actor=judge, penalty="P2", seat=colour, pawn=loc, reason="Snak")
    after = game_state(game=logged).position[colour]
    assert after.count(f"{colour}H") == position[colour].count(f"{colour}H") + 1


def test_p2_needs_a_pawn_on_the_track(logged, judge):
    with pytest.raises(ApplicationError) as err:
        ruling_penalty(game=logged, actor=judge, penalty="P2", seat="Y", reason="Snak")
    assert err.value.code == "pawn_required"
    with pytest.raises(ApplicationError) as err:
        ruling_penalty(game=logged, actor=judge, penalty="P2", seat="Y", pawn="Y13", reason="x")
    assert err.value.code == "P2"
    assert not Ruling.objects.exists()


def test_p3_with_the_forced_move_is_played(logged, judge, record):
    forced = record["moves"][10]
    seat, move = forced.split(" ", 1)
    ruling_penalty(game=logged, actor=judge, penalty="P3", seat=seat, move=move, reason="Rørt brik")
    expected = replay({**record, "moves": record["moves"][:11]})
    assert game_state(game=logged).position == expected.position.to_json()
    assert _texts(logged)[-1] == f"! P3 {forced}"


def test_p4_recorded_without_a_move(logged, judge):
    ruling_penalty(game=logged, actor=judge, penalty="P4", seat="B", reason="Kort lagt")
    assert _texts(logged)[-1] == "! P4 B"


def test_warning_is_recorded(logged, judge):
    ruling_warning(game=logged, actor=judge, seat="G", rule="P5", reason="Signalerede")
    ruling = Ruling.objects.get()
    assert ruling.rule == "P5" and ruling.pair == logged.pair_rg
    assert _texts(logged)[-1] == "! WARN G P5"


def test_awarded_result_goes_to_the_standings(logged, judge):
    ruling_result(game=logged, actor=judge, winner="RG", reason="YB udeblev (forfeit)")
    logged.refresh_from_db()
    assert logged.winner == "RG" and logged.result_source == Game.ResultSource.JUDGE
    assert logged.status == Game.Status.FINISHED
    rows = {r.pair_id: r for r in standings_for_tournament(tournament=logged.round.tournament)}
    assert rows[logged.pair_rg_id].wins == 1 and rows[logged.pair_yb_id].losses == 1
    assert _replay_of_export(logged).winner == "RG"


def test_a_finished_game_only_takes_result_rulings(logged, judge):
    ruling_result(game=logged, actor=judge, winner="RG", reason="forfeit")
    with pytest.raises(ApplicationError) as err:
        rule(game=logged, actor=judge, kind="uphold", data={"seq": 3, "reason": "x"})
    assert err.value.code == "game_finished"
    ruling_result(game=logged, actor=judge, winner="YB", reason="Fejl i tildelingen")
    logged.refresh_from_db()
    assert logged.winner == "YB"


def test_time_out_adjudication_confirms_the_proposal(logged, judge):
    clock_time_up(game_id=logged.pk)
    proposal = adjudication_proposal(game=logged)
    winner = proposal.winner or "YB"
    reason = "" if proposal.winner else "lige"  # a tie needs the judge's reason
    adjudication_decide(game=logged, actor=judge, winner=winner, reason=reason)
    logged.refresh_from_db()
    assert logged.winner == winner and logged.timed_out
    assert logged.result_source == Game.ResultSource.ADJUDICATED
    assert logged.distance_yb == proposal.teams["YB"].distance
    ruling = Ruling.objects.get(kind=Ruling.Kind.ADJUDICATION)
    assert ruling.rule == "W3" and ruling.data["proposal"] == proposal.winner


def test_overriding_the_proposal_needs_a_reason(logged, judge):
    clock_time_up(game_id=logged.pk)
    proposal = adjudication_proposal(game=logged)
    other = "RG" if proposal.winner == "YB" else "YB"
    with pytest.raises(ApplicationError) as err:
        adjudication_decide(game=logged, actor=judge, winner=other, reason="")
    assert err.value.code == "reason_required"
    logged.refresh_from_db()
    assert not logged.winner
    adjudication_decide(game=logged, actor=judge, winner=other, reason="Uret gik forkert")
    logged.refresh_from_db()
    assert logged.winner == other and Ruling.objects.get().data["override"] is True


def test_adjudication_only_at_time_up(logged, judge):
    with pytest.raises(ApplicationError) as err:
        adjudication_decide(game=logged, actor=judge, winner="YB", reason="x")
    assert err.value.code == "not_time_up"


def test_proposal_follows_the_events_order(logged):
    tournament = logged.round.tournament
    tournament.adjudication = "locked_then_distance"
    tournament.save()
    logged.round.tournament.refresh_from_db()
    assert adjudication_proposal(game=logged).order == "locked_then_distance"


@pytest.mark.parametrize(
    "kind, data",
    [
        ("uphold", {"seq": 10}),
        ("void", {"seq": 10}),
        ("penalty", {"penalty": "P1", "seat": "Y"}),
        ("warning", {"seat": "Y"}),
        ("result", {"winner": "YB"}),
        ("position", {"position": {"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4,
                                   "G": ["GH"] * 4}}),
    ],
)  # fmt: skip
def test_only_judges_of_this_event_may_rule(logged, other_judge, player, kind, data):
    for actor in (other_judge, player):
        with pytest.raises(PermissionDenied):
            rule(game=logged, actor=actor, kind=kind, data={**data, "reason": "x"})
    assert len(_texts(logged)) == 10 and not Ruling.objects.exists()
    assert MoveEntry.objects.filter(game=logged).count() == 10


def test_exported_record_carries_the_judge_entries(logged, judge):
    ruling_warning(game=logged, actor=judge, seat="Y", reason="advarsel")
    ruling_void(game=logged, actor=judge, seq=10, reason="annulleret")
    exported = game_record_export(game=logged)
    assert exported["moves"][-2:] == ["! WARN Y", "! VOID 10"]
    assert replay(exported).ok


def test_organiser_may_rule(logged):
    from tests.factories import organiser_of

    organiser = organiser_of(logged.round.tournament, "arr")
    outcome = rule(game=logged, actor=organiser, kind="warning", data={"seat": "B", "reason": "x"})
    assert outcome.ruling.judge == organiser and outcome.call is None


def test_a_refused_table_entry_is_recorded_for_the_incident_history(logged, record):
    from games.services.move_log import move_submit
    from judging.models import MoveRefusal

    seq = game_state(game=logged).seq
    to_move = game_state(game=logged).to_move
    with pytest.raises(ApplicationError):
        move_submit(game=logged, text="5: Y14+5", client_id="refused-0001", expected_seq=seq)
    refusal = MoveRefusal.objects.get()
    assert refusal.seat == to_move and refusal.rule
    assert refusal.pair_id in (logged.pair_yb_id, logged.pair_rg_id)
    assert game_state(game=logged).seq == seq


def test_judge_entries_can_be_imported(game, judge, record):
    from games.services.move_log import game_record_import

    moves = [*record["moves"][:6], "! WARN B", "! VOID 6"]
    game_record_import(game=game, actor=judge, record={**record, "moves": moves})
    assert _texts(game)[-2:] == ["! WARN B", "! VOID 6"]
    assert move_log_verify(game=game).ok


__all__ = ["log_moves"]


# --- a ruling answers its judge call ---------------------------------------------


def _clock_status(game):
    from games.selectors.clock import clock_state

    return clock_state(game=Game.objects.select_related("round__tournament").get(pk=game.pk)).status


_POSITION = {"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}


@pytest.mark.parametrize(
    "kind, data",
    [
        ("uphold", {"seq": 10}),
        ("void", {"seq": 10}),
        ("position", {"position": _POSITION}),
        ("penalty", {"penalty": "P1", "seat": "Y"}),
        ("warning", {"seat": "R", "rule": "P5"}),
    ],
)
def test_a_ruling_closes_its_call_and_the_clock_runs_again(logged, judge, kind, data):
    from judging.models import JudgeCall
    from judging.services.calls import judge_call_create, judge_call_take

    call = judge_call_create(game=logged, client_id="call-0001", seq=10, reason="tvist")
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert _clock_status(logged) == "paused"
    outcome = rule(
        game=logged, actor=judge, kind=kind, data={**data, "reason": "afgjort", "call": call.pk}
    )
    assert outcome.ruling.call_id == call.pk
    assert outcome.call.closed and outcome.call.clock == "resumed"
    assert JudgeCall.objects.get(pk=call.pk).status == JudgeCall.Status.CLOSED
    assert _clock_status(logged) == "running"


def test_a_ruling_can_keep_its_call_open_for_more(logged, judge):
    from judging.models import JudgeCall
    from judging.services.calls import judge_call_create

    call = judge_call_create(game=logged, client_id="call-0001")
    outcome = rule(
        game=logged, actor=judge, kind="penalty",
        data={"penalty": "P1", "seat": "Y", "reason": "x", "call": call.pk,
              "keep_call_open": True},
    )  # fmt: skip
    assert outcome.call is None and outcome.ruling.call_id == call.pk
    assert JudgeCall.objects.get(pk=call.pk).status == JudgeCall.Status.OPEN
    assert _clock_status(logged) == "paused"


def test_a_refused_ruling_leaves_the_call_open_and_the_clock_paused(logged, judge):
    from judging.models import JudgeCall
    from judging.services.calls import judge_call_create

    call = judge_call_create(game=logged, client_id="call-0001")
    with pytest.raises(ApplicationError) as err:
        rule(game=logged, actor=judge, kind="uphold", data={"seq": 99, "reason": "x",
                                                                     "call": call.pk})  # fmt: skip
    assert err.value.code == "entry_not_found"
    assert JudgeCall.objects.get(pk=call.pk).status == JudgeCall.Status.OPEN
    assert _clock_status(logged) == "paused" and not Ruling.objects.exists()


def test_after_a_ruling_a_clock_paused_by_hand_stays_paused_and_says_why(logged, judge):
    from games.services.clock import clock_pause
    from judging.services.calls import judge_call_create

    clock_pause(judge=JudgeAtGame(logged, judge), reason="spiller på toilet")
    call = judge_call_create(game=logged, client_id="call-0001")
    outcome = rule(
        game=logged, actor=judge, kind="uphold", data={"seq": 10, "reason": "ok", "call": call.pk}
    )
    assert outcome.call.closed and outcome.call.clock == "paused"
    english, danish = outcome.call.message_en, outcome.call.message_da
    assert "stays paused: it was paused by hand (spiller på toilet)" in english
    assert "Genoptag det, når spillet går videre" in danish
    assert _clock_status(logged) == "paused"


def test_a_result_ruling_closes_the_call_and_says_the_game_is_over(logged, judge):
    from judging.services.calls import judge_call_create

    call = judge_call_create(game=logged, client_id="call-0001")
    outcome = rule(
        game=logged, actor=judge, kind="result",
        data={"winner": "RG", "reason": "Opgivet", "call": call.pk},
    )  # fmt: skip
    assert outcome.call.clock == "stopped"
    assert outcome.call.message_da == "Tilkaldet er lukket; spillet er slut."


@pytest.mark.parametrize("call", ["12x", "1.5", True, [1]])
def test_a_malformed_call_is_refused_and_nothing_is_ruled(api, logged, judge, call):
    api.force_authenticate(judge)
    answer = api.post(
        f"/api/judging/games/{logged.pk}/rulings/",
        {"kind": "warning", "seat": "Y", "reason": "x", "call": call},
        format="json",
    )
    error = answer.json()["error"]
    assert answer.status_code == 400 and error["code"] == "call_invalid" and error["message_da"]
    assert not Ruling.objects.exists() and len(_texts(logged)) == 10
