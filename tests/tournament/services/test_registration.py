"""Events, roles and pairs: create, edit, register, import, check in, drop."""

from __future__ import annotations

import datetime

import pytest

from competition.pairs_csv import pairs_csv_read
from core.errors import ApplicationError, PermissionDenied
from tests.factories import (
    PairFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    judge_of,
    organiser_of,
)
from tournament.models import AuditEntry, Bye, Pair, Player, Round, Tournament, TournamentRole
from tournament.services.registration import (
    pair_check_in,
    pair_check_out,
    pair_drop,
    pair_register,
    pair_update,
    pairs_import_csv,
    tournament_create,
    tournament_role_grant,
    tournament_role_revoke,
    tournament_update,
)

pytestmark = pytest.mark.django_db

JUDGE, ORGANISER = TournamentRole.Role.JUDGE, TournamentRole.Role.ORGANISER


@pytest.fixture
def tournament():
    return TournamentFactory()


@pytest.fixture
def organiser(tournament):
    return organiser_of(tournament)


# --------------------------------------------------------------------------
# Tournaments


def test_create_makes_the_actor_organiser_and_a_unique_slug():
    user = UserFactory()
    first = tournament_create(
        actor=user, name="DM i Partners Århus", date=datetime.date(2026, 11, 28)
    )
    second = tournament_create(
        actor=user, name="DM i Partners Århus", date=datetime.date(2027, 1, 2)
    )
    assert first.slug == "dm-i-partners-arhus"
    assert second.slug == "dm-i-partners-arhus-2"
    assert TournamentRole.objects.filter(tournament=first, user=user, role="organiser").exists()
    assert AuditEntry.objects.filter(tournament=first, action="tournament_create").exists()


def test_create_with_settings_and_defaults():
    t = tournament_create(
        actor=UserFactory(),
        name="Cup",
        date=datetime.date(2026, 5, 1),
        venue="Aarhus",
        swiss_rounds=7,
        knockout_size=8,
        third_place_game=True,
        tiebreaks=["wins", "buchholz"],
    )
    t.refresh_from_db()
    assert (t.swiss_rounds, t.knockout_size, t.third_place_game) == (7, 8, True)
    assert t.tiebreaks == ["wins", "buchholz"]
    assert (t.time_limit_minutes, t.alert_minutes, t.ruleset) == (60, 50, "dm2023")


def test_create_needs_a_signed_in_user():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        tournament_create(actor=AnonymousUser(), name="X", date=datetime.date(2026, 1, 1))
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"alert_minutes": 60}, "alert_not_before_limit"),
        ({"time_limit_minutes": 40}, "alert_not_before_limit"),
        ({"points_win": 0}, "points_invalid"),
        ({"points_loss": 3}, "points_invalid"),
    ],
)
def test_update_refuses_settings_that_contradict_the_stored_ones(
    tournament, organiser, fields, code
):
    # Each value alone is in range (tests/tournament/test_inputs.py); together
    # with the event's other settings it is not.
    before = Tournament.objects.values().get(pk=tournament.pk)
    with pytest.raises(ApplicationError) as err:
        tournament_update(tournament=tournament, actor=organiser, **fields)
    assert err.value.code == code
    assert err.value.message_da and err.value.message_en != err.value.message_da
    assert Tournament.objects.values().get(pk=tournament.pk) == before


def test_update_takes_only_settings(tournament, organiser):
    # The boundary drops unknown keys; a caller naming one is a programming error.
    with pytest.raises(TypeError):
        tournament_update(
            tournament=tournament,
            actor=organiser,
            colour="red",  # type: ignore[call-arg]
        )


def test_update_changes_audits_and_bumps_the_data_version(tournament, organiser):
    version = tournament.data_version
    updated = tournament_update(
        tournament=tournament, actor=organiser, alert_minutes=45, venue="Vejle"
    )
    assert (updated.alert_minutes, updated.venue) == (45, "Vejle")
    assert updated.data_version == version + 1
    entry = AuditEntry.objects.get(action="tournament_update")
    assert entry.actor == organiser and entry.data == {"alert_minutes": "45", "venue": "Vejle"}


def test_update_bye_points_rescore_existing_byes(tournament, organiser):
    pair = PairFactory(tournament=tournament)
    bye = Bye.objects.create(round=RoundFactory(tournament=tournament), pair=pair, points=2)
    tournament_update(tournament=tournament, actor=organiser, points_bye=1)
    bye.refresh_from_db()
    assert bye.points == 1


@pytest.mark.parametrize("who", ["anonymous", "judge", "other_organiser"])
def test_update_refused_for_others(tournament, who):
    from django.contrib.auth.models import AnonymousUser

    actor = {
        "anonymous": lambda: AnonymousUser(),
        "judge": lambda: judge_of(tournament),
        "other_organiser": lambda: organiser_of(TournamentFactory(), "other"),
    }[who]()
    with pytest.raises(PermissionDenied):
        tournament_update(tournament=tournament, actor=actor, venue="Nowhere")
    tournament.refresh_from_db()
    assert tournament.venue == "Odense"


def test_roles_grant_and_revoke_but_never_the_last_organiser(tournament, organiser):
    judge = UserFactory(username="dommer")
    tournament_role_grant(tournament=tournament, actor=organiser, user=judge, role=JUDGE)
    assert TournamentRole.objects.filter(user=judge, role="judge").exists()
    tournament_role_revoke(tournament=tournament, actor=organiser, user=judge, role=JUDGE)
    assert not TournamentRole.objects.filter(user=judge).exists()
    with pytest.raises(ApplicationError) as err:
        tournament_role_revoke(
            tournament=tournament, actor=organiser, user=organiser, role=ORGANISER
        )
    assert err.value.code == "last_organiser"


# --------------------------------------------------------------------------
# Pairs


def test_register_numbers_pairs_and_checks_in(tournament, organiser):
    a = pair_register(tournament=tournament, actor=organiser, player_1="Anna", player_2="Bo")
    b = pair_register(
        tournament=tournament, actor=organiser, player_1="Cy", player_2="Di", club="Vejle",
        seed=1, check_in=True,
    )  # fmt: skip
    assert (a.start_number, b.start_number) == (1, 2)
    assert a.status == Pair.Status.REGISTERED and b.status == Pair.Status.CHECKED_IN
    assert b.player_1.club == "Vejle" and b.seed == 1
    assert a.first_round == 1


def test_register_refuses_a_player_already_registered(tournament, organiser):
    pair_register(tournament=tournament, actor=organiser, player_1="Anna", player_2="Bo")
    with pytest.raises(ApplicationError) as err:
        pair_register(tournament=tournament, actor=organiser, player_1="anna", player_2="Eva")
    assert err.value.code == "pair_duplicate"
    assert Pair.objects.count() == 1 and Player.objects.count() == 2


def test_register_refuses_the_same_player_twice_and_taken_seed(tournament, organiser):
    with pytest.raises(ApplicationError) as err:
        pair_register(tournament=tournament, actor=organiser, player_1="Anna", player_2="ANNA")
    assert err.value.code == "pair_same_player"
    pair_register(tournament=tournament, actor=organiser, player_1="A", player_2="B", seed=3)
    with pytest.raises(ApplicationError) as err:
        pair_register(tournament=tournament, actor=organiser, player_1="C", player_2="D", seed=3)
    assert err.value.code == "seed_taken"


def test_late_entry_starts_in_the_next_round(tournament, organiser):
    RoundFactory(tournament=tournament, number=1)
    RoundFactory(tournament=tournament, number=2)
    late = pair_register(tournament=tournament, actor=organiser, player_1="Sen", player_2="Ankomst")
    assert late.first_round == 3


def test_register_refused_for_a_judge(tournament):
    with pytest.raises(PermissionDenied):
        pair_register(tournament=tournament, actor=judge_of(tournament), player_1="A", player_2="B")
    assert not Pair.objects.exists()


def test_update_pair_renames_players_and_audits(tournament, organiser):
    pair = pair_register(tournament=tournament, actor=organiser, player_1="Anna", player_2="Bo")
    pair_update(pair=pair, actor=organiser, player_2="Bodil", rating=1500)
    pair.refresh_from_db()
    assert pair.player_2.name == "Bodil" and pair.rating == 1500
    assert AuditEntry.objects.get(action="pair_update").data["player_2"] == {
        "from": "Bo",
        "to": "Bodil",
    }


def test_check_in_out_and_drop_with_double_taps_refused(tournament, organiser):
    pair = PairFactory(tournament=tournament, status=Pair.Status.REGISTERED)
    pair_check_in(pair=pair, actor=organiser)
    assert pair.status == Pair.Status.CHECKED_IN
    with pytest.raises(ApplicationError) as err:
        pair_check_in(pair=pair, actor=organiser)
    assert err.value.code == "pair_already_checked_in"
    pair_check_out(pair=pair, actor=organiser)
    assert pair.status == Pair.Status.REGISTERED
    pair_drop(pair=pair, actor=organiser)
    assert pair.status == Pair.Status.DROPPED
    with pytest.raises(ApplicationError):
        pair_drop(pair=pair, actor=organiser)
    assert AuditEntry.objects.filter(action__startswith="pair_").count() == 3


# --------------------------------------------------------------------------
# CSV import (read by competition.pairs_csv, stored by the service)


def _import(tournament, organiser, text):
    read = pairs_csv_read(text)
    return pairs_import_csv(
        tournament=tournament, actor=organiser, rows=read.rows, refused=read.refused
    )


def test_import_semicolon_csv_with_bom_and_any_column_order(tournament, organiser):
    text = "\ufeffclub;player_2;player_1;seed\nVejle;Bo;Anna;1\n\nOdense;Dorte;Carl;\n"
    report = _import(tournament, organiser, text)
    assert report.ok and [p.start_number for p in report.created] == [1, 2]
    anna = Pair.objects.get(player_1__name="Anna")
    assert (anna.player_2.name, anna.club, anna.seed) == ("Bo", "Vejle", 1)
    assert Pair.objects.get(player_1__name="Carl").seed is None


def test_import_reports_every_bad_row_and_creates_nothing(tournament, organiser):
    pair_register(tournament=tournament, actor=organiser, player_1="Eva", player_2="Finn")
    text = (
        "player_1,player_2,seed\n"
        "Anna,Bo,1\n"  # fine
        ",Carl,\n"  # line 3: missing player
        "Dorte,Dorte,\n"  # line 4: same player twice
        "Gitte,Hans,x\n"  # line 5: seed not a number
        "Eva,Ida,\n"  # line 6: already registered
        "Jens,Kim,1\n"  # line 7: seed taken by line 2
        "Lars,Mia\n"  # line 8: wrong field count
    )
    report = _import(tournament, organiser, text)
    assert report.created == []
    assert [e.line for e in report.errors] == [3, 4, 5, 6, 7, 8]
    assert all(e.message_en and e.message_da for e in report.errors)
    assert Pair.objects.count() == 1


def test_import_needs_the_header(tournament, organiser):
    report = _import(tournament, organiser, "Anna,Bo\n")
    assert [e.line for e in report.errors] == [1]
    empty = _import(tournament, organiser, "  \n")
    assert empty.errors and not Pair.objects.exists()


def test_import_after_round_one_makes_late_entries(tournament, organiser):
    RoundFactory(tournament=tournament, number=1, status=Round.Status.CLOSED)
    report = _import(tournament, organiser, "player_1,player_2\nA,B\n")
    assert report.created[0].first_round == 2


def test_names_in_right_to_left_scripts_are_welcome(tournament, organiser):
    pair = pair_register(tournament=tournament, actor=organiser, player_1="سارة", player_2="‏דוד")
    assert pair.player_1.name == "سارة" and pair.player_2.name == "‏דוד"


def test_the_ruleset_is_chosen_at_creation_from_all_the_engines_rulesets():
    from games.engine import get_ruleset, ruleset_names

    user = UserFactory()
    for name in ("rulebook", "fr", "duo"):
        t = tournament_create(
            actor=user, name=f"Klubturnering {name}", date=datetime.date(2026, 12, 1), ruleset=name
        )
        assert t.ruleset == name
    field = Tournament._meta.get_field("ruleset")
    assert [value for value, _label in field.choices] == ruleset_names()
    # Singles (docs/rulesets/duo.md S1) exactly where the engine seats two players.
    assert {n for n in ruleset_names() if Tournament(ruleset=n).is_singles} == {
        n for n in ruleset_names() if get_ruleset(n).players == 2
    }
    for name in ruleset_names():
        assert len(Tournament(ruleset=name).seats) == get_ruleset(name).players
    # An unknown ruleset is refused at the boundary: tests/tournament/test_inputs.py.


def test_the_ruleset_is_fixed_once_a_round_has_started(tournament, organiser):
    tournament_update(tournament=tournament, actor=organiser, ruleset="rulebook")
    RoundFactory(tournament=tournament)
    with pytest.raises(ApplicationError) as err:
        tournament_update(tournament=tournament, actor=organiser, ruleset="fr")
    assert err.value.code == "ruleset_fixed"
    tournament.refresh_from_db()
    assert tournament.ruleset == "rulebook"
    tournament_update(tournament=tournament, actor=organiser, ruleset="rulebook")  # unchanged: fine
