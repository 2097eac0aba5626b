"""Swiss rounds through the services: pair, preview, swap, re-pair, life cycle."""

from __future__ import annotations

import pytest
from django.db.models import Q

from competition.services.pairing import (
    pair_fixed_table_set,
    round_close,
    round_pair,
    round_publish,
    round_repair,
    round_start,
    round_swap_pairs,
)
from core.errors import ApplicationError, PermissionDenied
from games.models import Game
from tests.competition.helpers import event_with_pairs, pair_and_play, play
from tests.factories import judge_of
from tournament.models import AuditEntry, Bye, Pair, Round, Tournament
from tournament.services.registration import pair_drop, pair_register

pytestmark = pytest.mark.django_db


def meetings(tournament):
    return [
        frozenset((yb, rg))
        for yb, rg in Game.objects.filter(round__tournament=tournament).values_list(
            "pair_yb_id", "pair_rg_id"
        )
    ]


def test_round_one_by_seed_when_seeds_exist():
    tournament, organiser, pairs = event_with_pairs(8)
    for k, pair in enumerate(reversed(pairs)):  # seed 1 = start number 8
        Pair.objects.filter(pk=pair.pk).update(seed=k + 1)
    round_ = round_pair(tournament=tournament, actor=organiser)
    assert round_.status == Round.Status.DRAFT and round_.pairing_method == "seed"
    top = round_.games.get(table_number=1)
    assert {top.pair_yb.start_number, top.pair_rg.start_number} == {8, 4}
    assert round_.explanation["1"]["en"].startswith("Round 1 by seed")
    assert round_.explanation["1"]["da"]


def test_round_one_random_draw_is_recorded_and_reproducible():
    tournament, organiser, _ = event_with_pairs(10)
    round_ = round_pair(tournament=tournament, actor=organiser, random_seed=1234)
    assert round_.pairing_method == "random" and round_.random_seed == 1234
    first = sorted(round_.games.values_list("table_number", "pair_yb", "pair_rg", "first_dealer"))
    round_repair(round=round_, actor=organiser)
    again = sorted(round_.games.values_list("table_number", "pair_yb", "pair_rg", "first_dealer"))
    assert first == again
    assert {d for *_, d in first} <= {"Y", "R", "B", "G"}


def test_only_checked_in_pairs_are_paired_and_odd_field_gets_one_bye():
    tournament, organiser, pairs = event_with_pairs(7)
    Pair.objects.filter(pk=pairs[0].pk).update(status=Pair.Status.REGISTERED)
    Pair.objects.filter(pk=pairs[1].pk).update(status=Pair.Status.DROPPED)
    round_ = round_pair(tournament=tournament, actor=organiser, random_seed=1)
    seated = [p for g in round_.games.all() for p in (g.pair_yb_id, g.pair_rg_id)]
    assert round_.games.count() == 2 and round_.byes.count() == 1
    assert sorted([*seated, round_.byes.get().pair_id]) == sorted(p.pk for p in pairs[2:])
    assert round_.byes.get().points == tournament.points_bye


def test_later_rounds_follow_monrad_and_avoid_rematches():
    tournament, organiser, pairs = event_with_pairs(8, swiss_rounds=5)
    for _ in range(3):
        pair_and_play(tournament, organiser)  # the lower start number always wins
    round_ = round_pair(tournament=tournament, actor=organiser)
    met = meetings(tournament)
    assert len(met) == len(set(met)) == 16
    # Start number 1 has won every game: alone on top, on table 1.
    top = round_.games.get(table_number=1)
    assert pairs[0].pk in (top.pair_yb_id, top.pair_rg_id)
    assert (
        "Ranks 1 and" in round_.explanation["1"]["en"]
        or "Ranks 1 (" in round_.explanation["1"]["en"]
    )


def test_colours_are_balanced_over_rounds():
    tournament, organiser, pairs = event_with_pairs(8, swiss_rounds=4)
    for number in range(4):
        pair_and_play(tournament, organiser, random_seed=number)
    for pair in pairs:
        yb = Game.objects.filter(pair_yb=pair).count()
        rg = Game.objects.filter(pair_rg=pair).count()
        assert yb + rg == 4 and abs(yb - rg) <= 2


def test_pairing_refused_while_previous_round_incomplete_and_double_tap_changes_nothing():
    tournament, organiser, _ = event_with_pairs(4)
    round_pair(tournament=tournament, actor=organiser)
    with pytest.raises(ApplicationError) as err:
        round_pair(tournament=tournament, actor=organiser)
    assert err.value.code == "round_not_complete"
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_pairing_stops_after_the_configured_swiss_rounds():
    tournament, organiser, _ = event_with_pairs(4, swiss_rounds=1)
    pair_and_play(tournament, organiser)
    with pytest.raises(ApplicationError) as err:
        round_pair(tournament=tournament, actor=organiser)
    assert err.value.code == "swiss_rounds_done"


def test_unavoidable_rematch_is_made_and_warned():
    tournament, organiser, _ = event_with_pairs(2, swiss_rounds=2)
    pair_and_play(tournament, organiser)
    round_ = round_pair(tournament=tournament, actor=organiser)
    assert [w["code"] for w in round_.warnings] == ["rematch"]
    assert "REMATCH" in round_.explanation["1"]["en"]


def test_dropped_pair_is_not_paired_again_and_keeps_its_games():
    tournament, organiser, pairs = event_with_pairs(6)
    pair_and_play(tournament, organiser)
    pair_drop(pair=pairs[0], actor=organiser)
    round_ = round_pair(tournament=tournament, actor=organiser)
    assert not round_.games.filter(pair_yb=pairs[0]).exists()
    assert not round_.games.filter(pair_rg=pairs[0]).exists()
    assert not round_.byes.filter(pair=pairs[0]).exists()
    assert (
        Game.objects.filter(round__number=1)
        .filter(Q(pair_yb=pairs[0]) | Q(pair_rg=pairs[0]))
        .exists()
    )


def test_late_entry_is_paired_in_its_first_round_on_zero_points():
    tournament, organiser, _ = event_with_pairs(4)
    pair_and_play(tournament, organiser)
    late = pair_register(
        tournament=tournament, actor=organiser, player_1="Sen", player_2="Ankomst", check_in=True
    )
    round_ = round_pair(tournament=tournament, actor=organiser)
    assert late.first_round == 2
    seated = [p for g in round_.games.all() for p in (g.pair_yb_id, g.pair_rg_id)]
    assert late.pk in seated or round_.byes.filter(pair=late).exists()


def test_fixed_table_is_honoured():
    tournament, organiser, pairs = event_with_pairs(8)
    pair_fixed_table_set(pair=pairs[7], actor=organiser, table_number=1)
    round_ = round_pair(tournament=tournament, actor=organiser)
    table_one = round_.games.get(table_number=1)
    assert pairs[7].pk in (table_one.pair_yb_id, table_one.pair_rg_id)
    with pytest.raises(ApplicationError) as err:
        pair_fixed_table_set(pair=pairs[0], actor=organiser, table_number=1)
    assert err.value.code == "fixed_table_taken"


def test_swap_between_tables_and_with_the_bye():
    tournament, organiser, _ = event_with_pairs(5)
    round_ = round_pair(tournament=tournament, actor=organiser, random_seed=7)
    g1, g2 = list(round_.games.order_by("table_number"))
    a, b = g1.pair_yb, g2.pair_rg
    round_ = round_swap_pairs(round=round_, actor=organiser, pair_a=a, pair_b=b)
    g1.refresh_from_db()
    g2.refresh_from_db()
    assert g1.pair_yb_id == b.pk and g2.pair_rg_id == a.pk
    assert "by hand" in round_.explanation[str(g1.table_number)]["en"]
    bye_pair = round_.byes.get().pair
    round_swap_pairs(round=round_, actor=organiser, pair_a=bye_pair, pair_b=a)
    assert round_.byes.get().pair_id == a.pk
    assert AuditEntry.objects.filter(action="round_swap_pairs").count() == 2


def test_swap_refuses_a_rematch_unless_allowed():
    tournament, organiser, _ = event_with_pairs(4, swiss_rounds=3)
    pair_and_play(tournament, organiser)
    r1 = {
        frozenset((g.pair_yb_id, g.pair_rg_id)) for g in tournament.rounds.get(number=1).games.all()
    }
    round_ = round_pair(tournament=tournament, actor=organiser)
    g1, g2 = list(round_.games.all())
    # Of the two possible swaps of g1's YB pair, exactly one recreates round 1.
    if frozenset((g2.pair_yb_id, g1.pair_rg_id)) in r1:
        a, b = g1.pair_yb, g2.pair_yb
    else:
        a, b = g1.pair_yb, g2.pair_rg
    before = sorted(round_.games.values_list("pair_yb_id", "pair_rg_id"))
    with pytest.raises(ApplicationError) as err:
        round_swap_pairs(round=round_, actor=organiser, pair_a=a, pair_b=b)
    assert err.value.code == "swap_rematch"
    assert sorted(round_.games.values_list("pair_yb_id", "pair_rg_id")) == before
    round_ = round_swap_pairs(round=round_, actor=organiser, pair_a=a, pair_b=b, allow_rematch=True)
    assert round_.warnings[-1]["code"] == "manual_rematch"


def test_swap_and_repair_refused_once_games_started():
    tournament, organiser, _ = event_with_pairs(4)
    round_ = round_pair(tournament=tournament, actor=organiser)
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    g1, g2 = list(round_.games.all())
    with pytest.raises(ApplicationError) as err:
        round_swap_pairs(round=round_, actor=organiser, pair_a=g1.pair_yb, pair_b=g2.pair_yb)
    assert err.value.code == "round_started"
    with pytest.raises(ApplicationError):
        round_repair(round=round_, actor=organiser)


def test_repair_picks_up_a_drop():
    tournament, organiser, pairs = event_with_pairs(6)
    round_ = round_pair(tournament=tournament, actor=organiser, random_seed=3)
    pair_drop(pair=pairs[2], actor=organiser)
    round_repair(round=round_, actor=organiser)
    seated = [p for g in round_.games.all() for p in (g.pair_yb_id, g.pair_rg_id)]
    seated += list(round_.byes.values_list("pair_id", flat=True))
    assert sorted(seated) == sorted(p.pk for p in pairs if p.pk != pairs[2].pk)


def test_life_cycle_publish_start_close():
    tournament, organiser, _ = event_with_pairs(4)
    round_ = round_pair(tournament=tournament, actor=organiser)
    version = Tournament.objects.get(pk=tournament.pk).data_version
    with pytest.raises(ApplicationError):
        round_start(round=round_, actor=organiser)  # not published yet
    round_publish(round=round_, actor=organiser)
    assert round_.status == Round.Status.PUBLISHED and round_.published_at
    with pytest.raises(ApplicationError) as err:
        round_publish(round=round_, actor=organiser)
    assert err.value.code == "round_not_draft"
    round_start(round=round_, actor=organiser)
    assert round_.started_at
    assert set(round_.games.values_list("status", flat=True)) == {Game.Status.IN_PROGRESS}
    assert not round_.games.filter(started_at__isnull=True).exists()
    with pytest.raises(ApplicationError) as err:
        round_close(round=round_, actor=organiser)
    assert err.value.code == "round_not_complete"
    play(round_, organiser)
    round_close(round=round_, actor=organiser)
    assert round_.status == Round.Status.CLOSED and round_.closed_at
    assert Tournament.objects.get(pk=tournament.pk).data_version > version


@pytest.mark.parametrize("service", ["pair", "publish", "fixed"])
def test_judge_cannot_pair_or_publish(service):
    tournament, organiser, pairs = event_with_pairs(4)
    judge = judge_of(tournament)
    round_ = round_pair(tournament=tournament, actor=organiser)
    with pytest.raises(PermissionDenied):
        if service == "pair":
            round_pair(tournament=tournament, actor=judge)
        elif service == "publish":
            round_publish(round=round_, actor=judge)
        else:
            pair_fixed_table_set(pair=pairs[0], actor=judge, table_number=3)
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT
    assert Bye.objects.count() == 0 and Pair.objects.filter(fixed_table__isnull=False).count() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_organisers_pairing_at_once_make_one_round(require_postgres):
    import threading

    from django.db import connection as default_connection

    tournament, organiser, _ = event_with_pairs(8)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def pair_once() -> None:
        try:
            barrier.wait()
            round_pair(tournament=tournament, actor=organiser)
            outcomes.append("paired")
        except ApplicationError as exc:
            outcomes.append(exc.code)
        finally:
            default_connection.close()

    threads = [threading.Thread(target=pair_once) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["paired", "round_not_complete"]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Game.objects.filter(round__tournament=tournament).count() == 4


# --- fair byes, fixed tables that cannot be kept ------------------------------------


def test_three_pairs_over_seven_rounds_share_the_byes():
    """Once every pair had a bye, the lowest pair used to collect them (1, 4, 2)."""
    from collections import Counter

    tournament, organiser, _ = event_with_pairs(3, swiss_rounds=7)
    for _ in range(7):
        round_ = pair_and_play(tournament, organiser)
        round_close(round=round_, actor=organiser)
    byes = Counter(
        Bye.objects.filter(round__tournament=tournament).values_list("pair_id", flat=True)
    )
    assert sorted(byes.values()) == [2, 2, 3]
    # From round 4 on every bye is another one for its pair, and the organiser is told.
    warned = [
        w["en"] for r in tournament.rounds.order_by("number") for w in r.warnings
        if w["code"] == "second_bye"
    ]  # fmt: skip
    assert len(warned) == 4 and "gets bye number 2." in warned[0]


def test_two_pairs_with_fixed_tables_meeting_warns_naming_both(django_capture_on_commit_callbacks):
    tournament, organiser, pairs = event_with_pairs(4)
    for pair, seed in zip(pairs, (1, 2, 3, 4), strict=True):
        Pair.objects.filter(pk=pair.pk).update(seed=seed)
    # By seed, 1 meets 3: both have a fixed table.
    pair_fixed_table_set(pair=pairs[0], actor=organiser, table_number=4)
    pair_fixed_table_set(pair=pairs[2], actor=organiser, table_number=2)
    round_ = round_pair(tournament=tournament, actor=organiser)
    table = round_.games.get(table_number=4)
    assert {table.pair_yb_id, table.pair_rg_id} == {pairs[0].pk, pairs[2].pk}
    [warning] = [w for w in round_.warnings if w["code"] == "fixed_table_conflict"]
    first, third = pairs[0].display_name, pairs[2].display_name
    assert warning["da"] == (
        f"#1 {first} (fast bord 4) og #3 {third} (fast bord 2) spiller mod hinanden ved bord 4; "
        f"bord 2 holdes ikke til #3 {third}."
    )


def test_a_swap_never_gives_the_bye_to_a_pair_with_more_byes():
    tournament, organiser, _ = event_with_pairs(3, swiss_rounds=3)
    first = pair_and_play(tournament, organiser)
    round_close(round=first, actor=organiser)
    second = round_pair(tournament=tournament, actor=organiser)
    holder = second.byes.get().pair
    had_one = first.byes.get().pair
    assert holder != had_one
    with pytest.raises(ApplicationError) as err:
        round_swap_pairs(
            round=second, actor=organiser, pair_a=holder, pair_b=had_one, allow_rematch=True
        )
    assert err.value.code == "swap_second_bye"
    assert "har haft 1 oversidning(er), flere end" in err.value.message_da
    assert second.byes.get().pair == holder
    other = Pair.objects.filter(tournament=tournament).exclude(pk__in=[holder.pk, had_one.pk]).get()
    round_swap_pairs(round=second, actor=organiser, pair_a=holder, pair_b=other, allow_rematch=True)
    assert second.byes.get().pair == other
