"""API shapes of seasons. Output only names and results: no contact data."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.validation import InputSerializer
from season.models import Series, SeriesEvent
from season.selectors import EVENT_STATUSES, CalendarEntry, SeasonOverview, SeasonRow
from season.services.series import SETTING_FIELDS
from season.validators import collapse_spaces, season_validators
from tournament.validators import SETTING_VALIDATORS


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Series
        fields = ["slug", *SETTING_FIELDS, "data_version"]

    points_table = serializers.ListField(child=serializers.IntegerField())


class PlacedPairSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    start_number = serializers.IntegerField()
    display_name = serializers.CharField()


class CalendarEventSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="event.pk")
    tournament = serializers.CharField(source="event.tournament.slug")
    name = serializers.CharField(source="event.tournament.name")
    date = serializers.DateField(source="event.tournament.date")
    venue = serializers.CharField(source="event.tournament.venue")
    kind = serializers.ChoiceField(choices=SeriesEvent.Kind.choices, source="event.kind")
    status = serializers.ChoiceField(choices=EVENT_STATUSES)
    podium = PlacedPairSerializer(many=True)
    qualified = serializers.SerializerMethodField()

    def get_qualified(self, entry: CalendarEntry) -> list[str]:
        return [pair.display_name for pair in entry.qualified]


class SeasonDetailSerializer(SeasonSerializer):
    calendar = serializers.SerializerMethodField()
    final = serializers.SerializerMethodField(help_text="The final's tournament slug, once made.")

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "calendar", "final"]

    def _overview(self) -> SeasonOverview:
        return self.context["overview"]  # type: ignore[no-any-return]

    @extend_schema_field(CalendarEventSerializer(many=True))
    def get_calendar(self, series: Series) -> list[dict[str, Any]]:
        return CalendarEventSerializer(self._overview().calendar, many=True).data  # type: ignore[return-value]

    def get_final(self, series: Series) -> str | None:
        final = self._overview().final
        return final.tournament.slug if final else None


class ResultSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Among the pair's best results that count.")


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared_rank = serializers.BooleanField()
    display_name = serializers.CharField(source="entry.display_name")
    pair_name = serializers.CharField(source="entry.pair_name")
    club = serializers.CharField(source="entry.pair.club")
    players = serializers.SerializerMethodField()
    persons = serializers.SerializerMethodField(help_text="The two people (people app ids).")
    points = serializers.IntegerField()
    results = serializers.SerializerMethodField()
    qualified = serializers.BooleanField()
    qualified_in = serializers.SerializerMethodField(help_text="top_n: the qualifier's slug.")
    tied_at_cut = serializers.BooleanField()
    provisional = serializers.BooleanField()

    def _slugs(self) -> dict[int, str]:
        return self.context["slugs"]  # type: ignore[no-any-return]

    def get_players(self, row: SeasonRow) -> list[str]:
        return list(row.entry.player_names)

    def get_persons(self, row: SeasonRow) -> list[int | None]:
        return row.entry.person_ids

    @extend_schema_field(ResultSerializer(many=True))
    def get_results(self, row: SeasonRow) -> list[dict[str, Any]]:
        slugs = self._slugs()
        return [
            {
                "tournament": slugs[r.event_id],
                "place": r.place,
                "points": r.points,
                "counted": r.counted,
            }
            for r in row.results.values()
        ]

    def get_qualified_in(self, row: SeasonRow) -> str | None:
        return self._slugs().get(row.qualified_in) if row.qualified_in else None


def _setting(field: type[serializers.Field], name: str, **options: Any) -> Any:
    return field(required=False, validators=season_validators(name), **options)


class SeasonInputSerializer(InputSerializer):
    """Any of a season's settings (``SETTING_FIELDS``), each checked on its own."""

    name = _setting(serializers.CharField, "name", max_length=200)
    description = _setting(serializers.CharField, "description", max_length=2000, allow_blank=True)
    method = _setting(serializers.CharField, "method")
    qualifiers_per_event = _setting(serializers.IntegerField, "qualifiers_per_event")
    pass_down = _setting(serializers.BooleanField, "pass_down")
    points_table = _setting(
        serializers.ListField, "points_table", child=serializers.IntegerField(), allow_empty=True
    )
    best_results = _setting(serializers.IntegerField, "best_results")
    final_places = _setting(serializers.IntegerField, "final_places")
    tiebreak = _setting(serializers.CharField, "tiebreak")
    published = _setting(serializers.BooleanField, "published")

    def to_internal_value(self, data: Any) -> Any:
        values = super().to_internal_value(data)
        if "name" in values:
            values["name"] = collapse_spaces(values["name"])
        return values


class SeasonCreateInputSerializer(SeasonInputSerializer):
    name = serializers.CharField(max_length=200, validators=season_validators("name"))
    slug = _setting(serializers.CharField, "slug", max_length=80)


class EventInputSerializer(serializers.Serializer):
    tournament = serializers.CharField(max_length=80, help_text="The tournament's short name.")
    kind = serializers.ChoiceField(choices=SeriesEvent.Kind.choices, default="qualifier")


class FinalInputSerializer(InputSerializer):
    """The final's event: its name, venue and short name checked as a new event's are."""

    name = serializers.CharField(max_length=200, validators=SETTING_VALIDATORS["name"])
    date = serializers.DateField()
    venue = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        validators=SETTING_VALIDATORS["venue"],
    )
    slug = serializers.CharField(
        max_length=80, required=False, validators=SETTING_VALIDATORS["slug"]
    )


class FinalCreatedSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="tournament.slug")
    entered = serializers.SerializerMethodField()
    left_out = serializers.SerializerMethodField()

    def get_entered(self, created: Any) -> list[str]:
        return [row.entry.display_name for row in created.entered]

    def get_left_out(self, created: Any) -> list[str]:
        return [row.entry.display_name for row in created.left_out]


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="person.pk")
    name = serializers.CharField(source="person.name")
    club = serializers.CharField(source="person.club")
    publish_consent = serializers.BooleanField(source="person.publish_consent")
    events = serializers.ListField(child=serializers.CharField())
    names = serializers.ListField(child=serializers.CharField(), help_text="As written in each.")
    may_manage = serializers.BooleanField(
        help_text="Whether you may merge or anonymise them (staff, or only your own events)."
    )


class SuggestionSerializer(serializers.Serializer):
    first = serializers.IntegerField(source="first.pk")
    second = serializers.IntegerField(source="second.pk")
    first_name = serializers.CharField(source="first.name")
    second_name = serializers.CharField(source="second.name")
    reason = serializers.CharField()
    reason_en = serializers.CharField()
    reason_da = serializers.CharField()
    similarity = serializers.FloatField()


class MergeSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    survivor = serializers.IntegerField(source="person_id")
    duplicate = serializers.IntegerField(source="other_id")
    created_at = serializers.DateTimeField()
    undone_at = serializers.DateTimeField(allow_null=True)


class SeasonPeopleSerializer(serializers.Serializer):
    people = PersonSerializer(many=True)
    suggestions = SuggestionSerializer(many=True)
    merges = MergeSerializer(many=True)


class MergeInputSerializer(serializers.Serializer):
    survivor = serializers.IntegerField(help_text="Person id to keep.")
    duplicate = serializers.IntegerField(help_text="Person id merged into the survivor.")


class MatchPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    club = serializers.CharField()


class PersonMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="match.pk")
    new = MatchPersonSerializer(source="match.new", help_text="The person registered anew.")
    known = MatchPersonSerializer(source="match.known", help_text="The person already known.")
    status = serializers.CharField(source="match.status")
    created_at = serializers.DateTimeField(source="match.created_at")
    decided_at = serializers.DateTimeField(source="match.decided_at", allow_null=True)
    may_confirm = serializers.BooleanField()
    may_dismiss = serializers.BooleanField()
    may_undo = serializers.BooleanField()


class PersonMatchesSerializer(serializers.Serializer):
    open = PersonMatchSerializer(many=True)
    decided = PersonMatchSerializer(many=True)


class PersonMatchDecidedSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    status = serializers.CharField()
    new = serializers.IntegerField(source="new_id")
    known = serializers.IntegerField(source="known_id")


class ApartInputSerializer(serializers.Serializer):
    first = serializers.IntegerField(help_text="Person id.")
    second = serializers.IntegerField(help_text="Person id: a different human than first.")
