"""API shapes of the sign-up. The contact email is only in ``SignUpSerializer``,
which only organisers of the tournament are given."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.validation import InputSerializer
from signup.models import SignUp
from tournament.validators import PAIR_TEXT_LIMITS, PAIR_VALIDATORS


class EnteredPairSerializer(serializers.Serializer):
    start_number = serializers.IntegerField()
    display_name = serializers.CharField()
    club = serializers.CharField()


class SignUpStateSerializer(serializers.Serializer):
    enabled = serializers.BooleanField(help_text="The tournament has online sign-up.")
    open = serializers.BooleanField()
    started = serializers.BooleanField()
    closes_at = serializers.DateTimeField(allow_null=True)
    capacity = serializers.IntegerField(allow_null=True, help_text="Null: no limit.")
    taken = serializers.IntegerField()
    free = serializers.IntegerField(allow_null=True)
    waitlist = serializers.IntegerField()
    approval = serializers.BooleanField()
    pairs = EnteredPairSerializer(many=True)


class SignUpOwnSerializer(serializers.ModelSerializer):
    """What the pair sees through its private link (no email: the link may travel)."""

    display_name = serializers.CharField(read_only=True)
    tournament: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    position = serializers.IntegerField(
        allow_null=True, read_only=True, help_text="Place on the waitlist (1 = next)."
    )
    start_number = serializers.IntegerField(
        source="pair.start_number", allow_null=True, read_only=True, default=None
    )
    link = serializers.CharField(
        read_only=True, help_text="The private link: see the sign-up, withdraw."
    )

    class Meta:
        model = SignUp
        fields = [
            "tournament",
            "status",
            "display_name",
            "pair_name",
            "player_1",
            "player_2",
            "club",
            "position",
            "start_number",
            "created_at",
            "consent_confirmed_at",
            "link",
        ]


class SignUpSerializer(serializers.ModelSerializer):
    """The organiser's view of a sign-up, contact email included."""

    display_name = serializers.CharField(read_only=True)
    position = serializers.IntegerField(allow_null=True, read_only=True)
    start_number = serializers.IntegerField(
        source="pair.start_number", allow_null=True, read_only=True, default=None
    )

    class Meta:
        model = SignUp
        fields = [
            "id",
            "status",
            "display_name",
            "pair_name",
            "player_1",
            "player_2",
            "club",
            "email",
            "language",
            "position",
            "start_number",
            "note",
            "created_at",
            "decided_at",
            "withdrawn_at",
        ]


def _name(field: str, **options: Any) -> Any:
    """A name as a pair of the tournament has it (``tournament.validators``)."""
    return serializers.CharField(
        max_length=PAIR_TEXT_LIMITS[field], validators=PAIR_VALIDATORS[field], **options
    )


class SignUpInputSerializer(InputSerializer):
    """A sign-up; the names are checked as the organiser's pair form checks them."""

    player_1 = _name("player_1")
    # Required for a pairs event; left out in a singles event (the service checks).
    player_2 = _name("player_2", required=False, allow_blank=True, default="")
    pair_name = _name("name", required=False, allow_blank=True, default="")
    club = _name("club", required=False, allow_blank=True, default="")
    email = serializers.EmailField(max_length=254)
    consent = serializers.BooleanField(
        help_text=(
            "The players agree to the terms; publication waits for the confirmation link "
            "emailed to the address."
        )
    )
    client_id = serializers.CharField(
        max_length=64,
        help_text="A random id of this submission: sending it again returns the same sign-up.",
    )

    def to_internal_value(self, data: Any) -> Any:
        values = super().to_internal_value(data)
        for key in ("player_1", "player_2", "pair_name", "club"):
            values[key] = " ".join(values[key].split())
        return values


class RejectInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ConsentPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    publish_consent = serializers.BooleanField(
        allow_null=True, help_text="null for someone this address cannot decide for."
    )


class ConsentLinkSerializer(serializers.Serializer):
    """What a confirmation link shows: the sign-up, whom it publishes, whom it cannot."""

    tournament = serializers.CharField(help_text="The tournament's slug.")
    display_name = serializers.CharField()
    status = serializers.CharField()
    consent_confirmed_at = serializers.DateTimeField(allow_null=True)
    covered = ConsentPersonSerializer(
        many=True, help_text="The people this address confirms (or withdraws) for."
    )
    not_covered = ConsentPersonSerializer(
        many=True,
        help_text=(
            "Known from elsewhere: their consent comes from the organiser or their own address."
        ),
    )


class ConsentAnswerSerializer(InputSerializer):
    confirm = serializers.BooleanField(help_text="true: publish; false: keep private (withdraw).")


class ConsentRecordSerializer(serializers.Serializer):
    given = serializers.BooleanField()
    via = serializers.CharField()
    # Popped into the declared fields by DRF's metaclass; mypy sees Field.source.
    source = serializers.CharField()  # type: ignore[assignment]
    reason = serializers.CharField()
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()


class PersonConsentSerializer(serializers.Serializer):
    """A person's effective consent and its history (organisers of their events, staff)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    publish_consent = serializers.BooleanField()
    consent_at = serializers.DateTimeField(allow_null=True)
    history = ConsentRecordSerializer(many=True)


class PersonConsentInputSerializer(InputSerializer):
    given = serializers.BooleanField(help_text="true: consent given; false: withdrawn.")
    reason = serializers.CharField(
        max_length=300,
        help_text='How it was given or withdrawn, e.g. "signed paper form 12 March".',
    )
