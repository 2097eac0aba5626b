"""Forms of the organiser pages: they check and convert input; services decide.

Each field's own limits come from ``tournament.validators``, the same ones
the API's serializers use. Rules that need the stored event (an alert before
the time limit, players already entered …) are the services', whose
refusals the views put on the form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from core.request import int_invalid, int_or_none, parse_optional_int
from core.ruleset_field import ruleset_choices
from games.engine import Variant
from games.models import Game
from games.validators import MAX_NOTE, RESULT_HIGH, RESULT_VALIDATORS, ResultNumber
from tournament.models import (
    TIEBREAK_CHOICES,
    TOURNAMENT_SETTINGS,
    Pair,
    Tournament,
)
from tournament.validators import (
    PAIR_TEXT_LIMITS,
    PAIR_VALIDATORS,
    SETTING_VALIDATORS,
    tiebreaks_check,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TIEBREAK_SLOTS = 5
MAX_CSV_BYTES = 1024 * 1024

# The settings the form edits as plain fields: the tiebreak order has its own
# ordered slots (TIEBREAK_SLOTS); publishing is the dashboard's own step.
SETTINGS_FIELDS = [name for name in TOURNAMENT_SETTINGS if name not in ("tiebreaks", "published")]

# Rehearsal speeds a test event's clocks can run at (clock minutes per real minute).
CLOCK_SPEEDS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


def clock_speed_label(speed: float) -> str:
    if speed == 1.0:
        return str(_("Real time (1 minute is a minute)"))
    return str(_("%(speed)s× faster: rehearsal only") % {"speed": f"{speed:g}"})


class DateInput(forms.DateInput):
    input_type = "date"


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


class TournamentForm(forms.ModelForm):
    """All settings of a tournament; the tiebreak order as ordered choices."""

    class Meta:
        model = Tournament
        fields = [*SETTINGS_FIELDS[:1], "slug", *SETTINGS_FIELDS[1:]]
        widgets = {
            "date": DateInput(format="%Y-%m-%d"),
            "signup_closes_at": DateTimeInput(format="%Y-%m-%dT%H:%M"),
        }

    def __init__(self, *args: Any, creating: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The engine's rulesets named in the page's language, asked per form (not
        # once at import), so a ruleset registered later is offered too.
        cast(forms.ChoiceField, self.fields["ruleset"]).choices = ruleset_choices()
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Leave empty to make one from the name.")
        if not creating:
            del self.fields["slug"]
        for name, field in self.fields.items():
            # A typed choice (the knockout size) offers only allowed values, and
            # its validators would see the text before it becomes a number.
            if not isinstance(field, forms.TypedChoiceField):
                field.validators = [*field.validators, *SETTING_VALIDATORS.get(name, [])]
        # A form without it (an older page, a script) keeps the event's language.
        self.fields["language"].required = False
        self._clock_speed_field()
        order = list(self.instance.tiebreaks) if self.instance.pk else None
        order = order or [key for key, _label in TIEBREAK_CHOICES]
        choices = [("", "—"), *TIEBREAK_CHOICES]
        for slot in range(TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{slot + 1}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)s") % {"n": slot + 1},
                choices=choices,
                required=False,
                initial=order[slot] if slot < len(order) else "",
            )

    def _clock_speed_field(self) -> None:
        """The rehearsal speed as a choice; a speed set through the API stays one."""
        speeds = list(CLOCK_SPEEDS)
        current = float(self.instance.clock_speed or 1.0)
        if current not in speeds:
            speeds.append(current)
        self.fields["clock_speed"] = forms.TypedChoiceField(
            label=_("Clock speed"),
            choices=[(f"{s:g}", clock_speed_label(s)) for s in sorted(speeds)],
            coerce=float,
            empty_value=None,
            required=False,
            initial=f"{current:g}",
            help_text=_(
                "For a test event: its clocks run this many times faster, to rehearse a "
                "round in minutes. Fixed once a round has started."
            ),
        )

    def _post_clean(self) -> None:
        # The model's own validation (constraints) is the service's job: the
        # service answers with a bilingual message the view shows.
        pass

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        slots = [data.get(f"tiebreak_{n + 1}") for n in range(TIEBREAK_SLOTS)]
        order = [str(key) for key in slots if key]
        tiebreaks_check(order)
        data["tiebreaks"] = order
        return data

    def settings(self) -> dict[str, Any]:
        """The cleaned values as service keyword arguments."""
        data = self.cleaned_data
        fields = {name: data[name] for name in SETTINGS_FIELDS if name in data}
        fields["tiebreaks"] = data["tiebreaks"]
        if not fields.get("language"):
            fields.pop("language", None)
        if fields.get("clock_speed") is None:
            fields.pop("clock_speed", None)
        return fields


def _pair_text(name: str, label: StrOrPromise, *, required: bool = True) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=PAIR_TEXT_LIMITS[name],
        required=required,
        validators=PAIR_VALIDATORS[name],
    )


def _pair_number(name: str, label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, validators=PAIR_VALIDATORS[name])


class PairForm(forms.Form):
    player_1 = _pair_text("player_1", _("Player 1"))
    player_2 = _pair_text("player_2", _("Player 2"))
    club = _pair_text("club", _("Club"), required=False)
    name = _pair_text("name", _("Pair name"), required=False)
    seed = _pair_number("seed", _("Seed"))
    rating = _pair_number("rating", _("Rating"))

    def __init__(self, *args: Any, singles: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if singles:
            # A singles event's entrant is one player, without a pair name.
            del self.fields["player_2"]
            del self.fields["name"]
            self.fields["player_1"].label = _("Player")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for key in ("player_1", "player_2", "club", "name"):
            if isinstance(data.get(key), str):
                data[key] = " ".join(data[key].split())
        return data


class PairRegisterForm(PairForm):
    check_in = forms.BooleanField(label=_("Checked in"), required=False, initial=True)


class PairEditForm(PairForm):
    fixed_table = forms.IntegerField(
        label=_("Fixed table"),
        min_value=1,
        required=False,
        help_text=_("For a player who cannot move between tables. Empty: none."),
    )

    @classmethod
    def for_pair(cls, pair: Pair, data: Any = None) -> PairEditForm:
        return cls(
            data,
            singles=pair.tournament.is_singles,
            initial={
                "player_1": pair.player_1.name,
                "player_2": pair.player_2.name if pair.player_2 else "",
                "club": pair.club,
                "name": pair.name,
                "seed": pair.seed,
                "rating": pair.rating,
                "fixed_table": pair.fixed_table,
            },
        )


class PairsImportForm(forms.Form):
    csv_file = forms.FileField(label=_("CSV file"), required=False)
    csv_text = forms.CharField(
        label=_("…or paste the rows"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "First line: the column names player_1, player_2, club, name, seed, rating "
            "(any order; only player_1 and player_2 are required). Separated by ; or ,."
        ),
    )

    def __init__(self, *args: Any, singles: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if singles:
            self.fields["csv_text"].help_text = _(
                "First line: the column names player, club, seed, rating (any order; only "
                "player is required), then one player per line. Separated by ; or ,."
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("csv_file")
        text = data.get("csv_text") or ""
        if upload:
            if upload.size > MAX_CSV_BYTES:
                raise forms.ValidationError(_("The file is too large (at most 1 MB)."))
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise forms.ValidationError(
                    _("The file is not UTF-8 text. Save it as “CSV UTF-8” and try again.")
                ) from error
        if not text.strip():
            raise forms.ValidationError(_("Choose a file or paste the rows."))
        data["text"] = text.lstrip("\ufeff")
        return data


class RoundPairForm(forms.Form):
    METHOD_CHOICES = [
        ("auto", _("Automatic (seeds if any pair has a seed, else a random draw)")),
        ("seed", _("By seed")),
        ("random", _("Random draw")),
    ]
    method = forms.ChoiceField(label=_("Round 1"), choices=METHOD_CHOICES, initial="auto")


class SwapForm(forms.Form):
    pair_a = forms.ModelChoiceField(label=_("Pair"), queryset=Pair.objects.none())
    pair_b = forms.ModelChoiceField(label=_("swap with"), queryset=Pair.objects.none())
    allow_rematch = forms.BooleanField(label=_("Allow a rematch"), required=False)

    def __init__(self, *args: Any, pairs: QuerySet[Pair], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("pair_a", "pair_b"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)  # declared above
            field.queryset = pairs

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("pair_a") and data.get("pair_a") == data.get("pair_b"):
            raise forms.ValidationError(_("Choose two different pairs."))
        return data


def _result_number(label: StrOrPromise, name: str) -> forms.IntegerField:
    """A number of the result, with the API's check (``games.validators``)."""
    field = forms.IntegerField(label=label, required=False, validators=RESULT_VALIDATORS[name])
    field.widget.attrs.update(min=0, max=RESULT_HIGH[name])
    return field


class ResultForm(forms.Form):
    winner = forms.ChoiceField(
        label=_("Winner"),
        choices=[(Game.Winner.YB, Game.Winner.YB.label), (Game.Winner.RG, Game.Winner.RG.label)],
        widget=forms.RadioSelect,
    )
    locked_yb = _result_number(_("Locked pawns, Yellow/Blue"), "locked_yb")
    locked_rg = _result_number(_("Locked pawns, Red/Green"), "locked_rg")
    distance_yb = _result_number(_("Remaining distance, Yellow/Blue"), "distance_yb")
    distance_rg = _result_number(_("Remaining distance, Red/Green"), "distance_rg")
    timed_out = forms.BooleanField(label=_("Stopped at the time limit"), required=False)
    override_reason = forms.CharField(
        label=_("Judge's reason, if the time-out result differs from the adjudication (W3)"),
        max_length=MAX_NOTE,
        required=False,
    )
    note = forms.CharField(label=_("Note"), max_length=MAX_NOTE, required=False)

    @classmethod
    def for_game(
        cls, game: Game, data: Any = None, *, variant: Variant | None = None
    ) -> ResultForm:
        """The result form of ``game`` under its event's ruleset (``variant``, read
        from the game when not given): a side's locked pawns up to the pawns it brings."""
        initial = {
            "winner": game.winner or None,
            "locked_yb": game.locked_yb,
            "locked_rg": game.locked_rg,
            "distance_yb": game.distance_yb,
            "distance_rg": game.distance_rg,
            "timed_out": game.timed_out,
            "override_reason": game.result_override,
            "note": game.result_note,
        }
        form = cls(data, initial=initial, prefix=f"g{game.pk}")
        variant = variant or game.round.tournament.variant
        if variant.singles:
            form.for_singles()
        form.locked_at_most(variant.pawns_per_side)
        return form

    def for_singles(self) -> None:
        """One player a side, Yellow or Red (docs/rulesets/duo.md S1)."""
        labels = {
            "locked_yb": _("Locked pawns, Yellow"),
            "locked_rg": _("Locked pawns, Red"),
            "distance_yb": _("Remaining distance, Yellow"),
            "distance_rg": _("Remaining distance, Red"),
        }
        for name, label in labels.items():
            self.fields[name].label = label

    def locked_at_most(self, pawns: int) -> None:
        """A side locks at most the pawns it brings (S2: 8 for a pair, 6 for a DUO player)."""
        for name in ("locked_yb", "locked_rg"):
            field = cast(forms.IntegerField, self.fields[name])
            field.widget.attrs["max"] = pawns
            field.validators = [ResultNumber(name, pawns)]


class ResultClearForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class KnockoutCreateForm(forms.Form):
    source = forms.ChoiceField(
        label=_("Bracket from"),
        choices=[("standings", _("the standings")), ("seeds", _("the seeds"))],
        initial="standings",
    )
    # The organiser's choice to cut before the planned Swiss rounds are closed;
    # the page labels it with what it does (``KnockoutReadiness.early_en``/``_da``).
    early = forms.BooleanField(required=False, widget=forms.HiddenInput)


class KnockoutCutForm(KnockoutCreateForm):
    """The bracket, with the choice for a cut that falls inside a shared rank."""

    cut = forms.ChoiceField(
        label=_("Decide the tie at the cut"),
        choices=[
            ("tiebreak", _("By the next tiebreak")),
            ("seed", _("By the seed list")),
            ("playoff", _("By a playoff game")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )


class PublishForm(forms.Form):
    """The dashboard's publish step: make the event public, or take it off the public pages."""

    action = forms.ChoiceField(choices=[("publish", _("Publish")), ("unpublish", _("Unpublish"))])


class RoleGrantForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[("organiser", _("Organiser")), ("judge", _("Judge"))],
    )


# The largest row id the database holds (a bigint).
MAX_ID = 2**63 - 1


class StreamTableForm(forms.Form):
    """The table to send to the stream (``game``: its id; empty: none) and the round
    page to go back to (``round``)."""

    game = forms.CharField(required=False, strip=False, max_length=30)
    round = forms.CharField(required=False, max_length=30)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.is_valid()

    def back(self) -> int | None:
        """The round page to go back to, if one was named."""
        return int_or_none(self.cleaned_data.get("round", ""), minimum=1, maximum=MAX_ID)

    def chosen(self) -> bool:
        return bool(str(self.cleaned_data.get("game", "")).strip())

    def game_id(self) -> int | None:
        """The chosen table's game, or None; a value that is no id is refused (400)."""
        if "game" not in self.cleaned_data:
            raise int_invalid("game", 1, MAX_ID)
        game = self.cleaned_data["game"]
        return parse_optional_int(game, field="game", minimum=1, maximum=MAX_ID)
