"""The tournament's settings are one list (tournament.models.TOURNAMENT_SETTINGS)."""

from competition.forms import TIEBREAK_SLOTS, TournamentForm
from competition.serializers import TournamentSerializer
from tournament.models import TOURNAMENT_SETTINGS, Tournament
from tournament.services.registration import SETTING_FIELDS


def test_every_setting_is_a_field_of_the_tournament():
    names = {field.name for field in Tournament._meta.get_fields()}
    assert set(TOURNAMENT_SETTINGS) <= names
    assert len(set(TOURNAMENT_SETTINGS)) == len(TOURNAMENT_SETTINGS)


def test_the_api_the_service_and_the_form_take_the_same_settings():
    assert TournamentSerializer.Meta.fields == ["slug", *TOURNAMENT_SETTINGS, "data_version"]
    assert frozenset(TOURNAMENT_SETTINGS) == SETTING_FIELDS
    form = TournamentForm()
    # The tiebreak order is edited in its ordered slots; publishing is the dashboard's step.
    plain = set(TOURNAMENT_SETTINGS) - {"tiebreaks", "published"}
    assert plain <= set(form.fields)
    assert {f"tiebreak_{n}" for n in range(1, TIEBREAK_SLOTS + 1)} <= set(form.fields)


def test_the_input_serializer_and_the_services_typed_settings_follow_the_list():
    from competition.serializers import TournamentUpdateInputSerializer
    from tournament.services.registration import TournamentSettings

    assert set(TournamentUpdateInputSerializer().fields) == set(TOURNAMENT_SETTINGS)
    keys = TournamentSettings.__required_keys__ | TournamentSettings.__optional_keys__
    assert keys == frozenset(TOURNAMENT_SETTINGS)
