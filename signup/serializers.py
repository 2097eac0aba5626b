"""API shapes of the sign-up. The contact email is only in ``SignUpSerializer``,
which only organisers of the tournament are given."""

from __future__ import annotations

from rest_framework import serializers

from signup.models import SignUp


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


class SignUpInputSerializer(serializers.Serializer):
    player_1 = serializers.CharField(max_length=120)
    # Required for a pairs event; left out in a singles event (the service checks).
    player_2 = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    pair_name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    email = serializers.EmailField(max_length=254)
    consent = serializers.BooleanField(
        help_text="Both players agree that their names, club and results are published."
    )
    client_id = serializers.CharField(
        max_length=64,
        help_text="A random id of this submission: sending it again returns the same sign-up.",
    )


class RejectInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
