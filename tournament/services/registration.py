"""Events, their staff and their pairs: create, edit, register, import, check in."""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from core.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from core.request import parse_int
from core.text import name_check
from people.models import Person
from people.services import persons_for_names
from tournament.models import (
    TOURNAMENT_SETTINGS,
    Pair,
    Player,
    Round,
    Tournament,
    TournamentRole,
)
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.services.standings import KNOWN_TIEBREAKS

SETTING_FIELDS = frozenset(TOURNAMENT_SETTINGS)
INT_LIMITS = {
    "time_limit_minutes": (1, 600),
    "alert_minutes": (1, 600),
    "swiss_rounds": (0, 30),
    "knockout_size": (0, 16),
    "points_win": (0, 100),
    "points_loss": (0, 100),
    "points_bye": (0, 100),
}
BOOL_FIELDS = ("third_place_game", "pause_clock_on_call", "published", "signup_approval")
MAX_SIGNUP_CAPACITY = 2000
MAX_IMPORT_ROWS = 2000
# Any number parse_int takes (18 digits); the range of each setting is checked after.
ANY_INT = 10**18 - 1
CSV_COLUMNS = ("player_1", "player_2", "club", "name", "seed", "rating")


def _invalid(code: str, en: str, da: str, **extra: Any) -> ApplicationError:
    return ApplicationError(code, en, da, extra=extra or None)


# --------------------------------------------------------------------------
# Settings validation (shared by create and update)


def _clean_text(value: Any, *, field: str, max_length: int, required: bool) -> str:
    """A one-line name or label: no control or direction characters (``core.text``)."""
    text = name_check("" if value is None else str(value).strip(), field=field)
    if required and not text:
        raise _invalid(
            "field_required", f"{field} must not be empty.", f"{field} skal udfyldes.", field=field
        )
    if len(text) > max_length:
        raise _invalid(
            "field_too_long",
            f"{field} is longer than {max_length} characters.",
            f"{field} er længere end {max_length} tegn.",
            field=field,
        )
    return text


def _clean_int(value: Any, *, field: str, low: int, high: int) -> int:
    number = parse_int(
        value,
        field=field,
        minimum=-ANY_INT,
        maximum=ANY_INT,
        error=_invalid(
            "field_not_a_number",
            f"{field} must be a whole number.",
            f"{field} skal være et helt tal.",
            field=field,
        ),
    )
    if not low <= number <= high:
        raise _invalid(
            "field_out_of_range",
            f"{field} must be between {low} and {high}.",
            f"{field} skal være mellem {low} og {high}.",
            field=field,
        )
    return number


def _clean_date(value: Any) -> datetime.date:
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise _invalid(
            "field_bad_date",
            "date must be a date (YYYY-MM-DD).",
            "date skal være en dato (ÅÅÅÅ-MM-DD).",
            field="date",
        ) from None


def _clean_settings(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - SETTING_FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        raise _invalid(
            "unknown_field", f"Unknown setting: {names}.", f"Ukendt indstilling: {names}."
        )
    clean: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "name":
            clean[key] = _clean_text(value, field=key, max_length=200, required=True)
        elif key == "venue":
            clean[key] = _clean_text(value, field=key, max_length=200, required=False)
        elif key == "date":
            clean[key] = _clean_date(value)
        elif key in INT_LIMITS:
            low, high = INT_LIMITS[key]
            clean[key] = _clean_int(value, field=key, low=low, high=high)
        elif key in BOOL_FIELDS:
            if not isinstance(value, bool):
                raise _invalid(
                    "field_not_boolean",
                    f"{key} must be true or false.",
                    f"{key} skal være sand eller falsk.",
                    field=key,
                )
            clean[key] = value
        elif key == "ruleset":
            if value != Tournament.Ruleset.DM2023:
                raise _invalid(
                    "ruleset_unknown",
                    "Only the ruleset dm2023 is available.",
                    "Kun regelsættet dm2023 er tilgængeligt.",
                    field=key,
                )
            clean[key] = value
        elif key == "adjudication":
            if value not in Tournament.Adjudication.values:
                raise _invalid(
                    "adjudication_unknown",
                    "Unknown time-out adjudication.",
                    "Ukendt afgørelse ved tidsudløb.",
                    field=key,
                )
            clean[key] = value
        elif key == "language":
            if value not in dict(django_settings.LANGUAGES):
                raise _invalid(
                    "language_unknown",
                    "The event's language must be Danish (da) or English (en).",
                    "Turneringens sprog skal være dansk (da) eller engelsk (en).",
                    field=key,
                )
            clean[key] = value
        elif key == "clock_speed":
            clean[key] = _clean_clock_speed(value)
        elif key == "tiebreaks":
            clean[key] = _clean_tiebreaks(value)
        elif key == "signup_capacity":
            clean[key] = _optional_int(value, field=key, low=1, high=MAX_SIGNUP_CAPACITY)
        elif key == "signup_closes_at":
            clean[key] = _clean_moment(value, field=key)
    return clean


def _clean_moment(value: Any, *, field: str) -> datetime.datetime | None:
    """A point in time, or None; a time without a zone is Danish time."""
    if value is None or value == "":
        return None
    moment = value
    if not isinstance(moment, datetime.datetime):
        try:
            moment = datetime.datetime.fromisoformat(str(value))
        except ValueError:
            raise _invalid(
                "field_bad_datetime",
                f"{field} must be a date and time (YYYY-MM-DDTHH:MM).",
                f"{field} skal være en dato og et klokkeslæt (ÅÅÅÅ-MM-DDTTT:MM).",
                field=field,
            ) from None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


# Clock minutes per real minute. Below a tenth a 60-minute limit would be
# more than ten hours away, and 1e-300 overflowed every date it touched.
CLOCK_SPEED_MIN = 0.1
CLOCK_SPEED_MAX = 1000.0


def _clean_clock_speed(value: Any) -> float:
    speed = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if speed is None or not CLOCK_SPEED_MIN <= speed <= CLOCK_SPEED_MAX:
        raise _invalid(
            "clock_speed_invalid",
            f"Clock speed must be a number from {CLOCK_SPEED_MIN:g} to {CLOCK_SPEED_MAX:g} "
            "(clock minutes per real minute; 1 is real time).",
            f"Urets hastighed skal være et tal fra {CLOCK_SPEED_MIN:g} til {CLOCK_SPEED_MAX:g} "
            "(urminutter pr. rigtigt minut; 1 er rigtig tid).",
            field="clock_speed",
        )
    return float(speed)


def _clean_tiebreaks(value: Any) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(k, str) for k in value):
        raise _invalid(
            "tiebreaks_invalid",
            "The tiebreak order must be a list of tiebreak names.",
            "Rækkefølgen af tiebreaks skal være en liste af navne.",
            field="tiebreaks",
        )
    unknown = [k for k in value if k not in KNOWN_TIEBREAKS]
    if unknown or len(set(value)) != len(value):
        known = ", ".join(sorted(KNOWN_TIEBREAKS))
        raise _invalid(
            "tiebreaks_invalid",
            f"Unknown or repeated tiebreak; use each of {known} at most once.",
            f"Ukendt eller gentaget tiebreak; brug hver af {known} højst én gang.",
            field="tiebreaks",
        )
    return list(value)


def tournament_settings_check(fields: dict[str, Any]) -> dict[str, Any]:
    """The settings among ``fields`` checked as an organiser's edit is (a restored backup).

    Other keys are ignored; returns the cleaned settings.
    """
    values = _clean_settings({k: v for k, v in fields.items() if k in SETTING_FIELDS})
    full = {
        f.name: f.get_default() for f in Tournament._meta.concrete_fields if f.name in INT_LIMITS
    }
    full.update({k: v for k, v in values.items() if k in INT_LIMITS})
    _check_consistency(full)
    return values


def _check_consistency(values: dict[str, Any]) -> None:
    if values["alert_minutes"] >= values["time_limit_minutes"]:
        raise _invalid(
            "alert_not_before_limit",
            "The judge alert must come before the time limit.",
            "Dommeralarmen skal komme før tidsgrænsen.",
            field="alert_minutes",
        )
    if values["knockout_size"] not in (0, 4, 8, 16):
        raise _invalid(
            "knockout_size_invalid",
            "The knockout size must be 0, 4, 8 or 16.",
            "Knockout-størrelsen skal være 0, 4, 8 eller 16.",
            field="knockout_size",
        )
    if values["points_win"] <= values["points_loss"]:
        raise _invalid(
            "points_invalid",
            "A win must give more points than a loss.",
            "En sejr skal give flere point end et nederlag.",
            field="points_win",
        )


def _unique_slug(base: str) -> str:
    base = (slugify(base) or "turnering")[:70]
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


# --------------------------------------------------------------------------
# Tournaments and roles


@transaction.atomic
def tournament_create(
    *,
    actor: Any,
    name: str,
    date: datetime.date | str,
    slug: str | None = None,
    venue: str = "",
    **settings: Any,
) -> Tournament:
    """Create an event; the actor becomes its organiser.

    Any signed-in user may create an event (accounts are made by the site
    administrators; there is no self sign-up).
    """
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied(
            "Sign in to create a tournament.", "Log ind for at oprette en turnering."
        )
    values = _clean_settings({"name": name, "date": date, "venue": venue, **settings})
    full = {
        f.name: f.get_default() for f in Tournament._meta.concrete_fields if f.name in INT_LIMITS
    }
    full.update(values)
    _check_consistency(full)
    if slug:
        slug = _clean_text(slug, field="slug", max_length=80, required=True)
        if slugify(slug) != slug:
            raise _invalid(
                "slug_invalid",
                "The short name may only hold lower-case letters, digits and hyphens.",
                "Det korte navn må kun indeholde små bogstaver, tal og bindestreger.",
                field="slug",
            )
        if Tournament.objects.filter(slug=slug).exists():
            raise Conflict(
                "slug_taken",
                f"The short name {slug} is already used by another tournament.",
                f"Det korte navn {slug} bruges allerede af en anden turnering.",
            )
    else:
        slug = _unique_slug(values["name"])
    try:
        with transaction.atomic():
            tournament = Tournament.objects.create(slug=slug, **values)
    except IntegrityError:
        raise Conflict(
            "slug_taken",
            f"The short name {slug} is already used by another tournament.",
            f"Det korte navn {slug} bruges allerede af en anden turnering.",
        ) from None
    TournamentRole.objects.create(
        tournament=tournament, user=actor, role=TournamentRole.Role.ORGANISER
    )
    audit_record(tournament=tournament, actor=actor, action="tournament_create", target=tournament)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor: Any, **fields: Any) -> Tournament:
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    values = _clean_settings(fields)
    full = {f: getattr(tournament, f) for f in INT_LIMITS}
    full.update({k: v for k, v in values.items() if k in INT_LIMITS})
    _check_consistency(full)
    swiss_paired = tournament.rounds.filter(kind=Round.Kind.SWISS).count()
    if "swiss_rounds" in values and values["swiss_rounds"] < swiss_paired:
        raise _invalid(
            "swiss_rounds_below_paired",
            f"{swiss_paired} Swiss rounds are already paired.",
            f"{swiss_paired} schweizerrunder er allerede parret.",
            field="swiss_rounds",
        )
    knockout_started = tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    if knockout_started and (
        values.get("knockout_size", tournament.knockout_size) != tournament.knockout_size
        or values.get("third_place_game", tournament.third_place_game)
        != tournament.third_place_game
    ):
        raise _invalid(
            "knockout_started",
            "The knockout has started; its size and third-place game can no longer change.",
            "Knockout-fasen er begyndt; størrelse og bronzekamp kan ikke længere ændres.",
        )
    changed = {k: v for k, v in values.items() if getattr(tournament, k) != v}
    if not changed:
        return tournament
    for key, value in changed.items():
        setattr(tournament, key, value)
    tournament.save(update_fields=list(changed))
    if "points_bye" in changed:
        # A bye scores the configured points, also after the setting changes.
        from tournament.models import Bye

        Bye.objects.filter(round__tournament=tournament, round__kind=Round.Kind.SWISS).update(
            points=changed["points_bye"]
        )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="tournament_update",
        target=tournament,
        data={k: str(v) for k, v in changed.items()},
    )
    tournament_data_changed(tournament=tournament)
    tournament.refresh_from_db(fields=["data_version"])
    return tournament


def _clean_role(role: str) -> str:
    if role not in TournamentRole.Role.values:
        raise _invalid("role_unknown", "Unknown role.", "Ukendt rolle.", field="role")
    return role


@transaction.atomic
def tournament_role_grant(
    *, tournament: Tournament, actor: Any, user: Any, role: str
) -> TournamentRole:
    require_organiser(actor, tournament)
    role = _clean_role(role)
    granted, created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    if created:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="role_grant",
            target=user,
            data={"role": role},
        )
    return granted


@transaction.atomic
def tournament_role_revoke(*, tournament: Tournament, actor: Any, user: Any, role: str) -> None:
    require_organiser(actor, tournament)
    role = _clean_role(role)
    roles = TournamentRole.objects.select_for_update().filter(tournament=tournament, role=role)
    entry = roles.filter(user=user).first()
    if entry is None:
        raise NotFound(
            "role_not_found", "This user does not have that role.", "Brugeren har ikke den rolle."
        )
    if role == TournamentRole.Role.ORGANISER and roles.count() == 1:
        raise Conflict(
            "last_organiser",
            "A tournament must keep at least one organiser.",
            "En turnering skal have mindst én arrangør.",
        )
    entry.delete()
    audit_record(
        tournament=tournament, actor=actor, action="role_revoke", target=user, data={"role": role}
    )


# --------------------------------------------------------------------------
# Pairs


@dataclass(frozen=True)
class PairData:
    player_1: str
    player_2: str
    club: str = ""
    name: str = ""
    seed: int | None = None
    rating: int | None = None


def _optional_int(value: Any, *, field: str, low: int, high: int) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return _clean_int(value, field=field, low=low, high=high)


def _clean_pair(
    *, player_1: Any, player_2: Any, club: Any = "", name: Any = "", seed: Any = None,
    rating: Any = None,
) -> PairData:  # fmt: skip
    data = PairData(
        player_1=_clean_text(player_1, field="player_1", max_length=120, required=True),
        player_2=_clean_text(player_2, field="player_2", max_length=120, required=True),
        club=_clean_text(club, field="club", max_length=120, required=False),
        name=_clean_text(name, field="name", max_length=200, required=False),
        seed=_optional_int(seed, field="seed", low=1, high=100000),
        rating=_optional_int(rating, field="rating", low=-100000, high=100000),
    )
    if data.player_1.casefold() == data.player_2.casefold():
        raise _invalid(
            "pair_same_player",
            "A pair needs two different players.",
            "Et par skal bestå af to forskellige spillere.",
        )
    return data


def _active_pairs(tournament: Tournament, exclude: Pair | None = None) -> Any:
    pairs = Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.DROPPED)
    if exclude is not None:
        pairs = pairs.exclude(pk=exclude.pk)
    return pairs.select_related("player_1", "player_2")


def _conflicts(
    data: PairData, existing: list[Pair], exclude: Pair | None = None
) -> ApplicationError | None:
    """A player already in another active pair, or a seed already taken."""
    names = {data.player_1.casefold(), data.player_2.casefold()}
    for pair in existing:
        if exclude is not None and pair.pk == exclude.pk:
            continue
        taken = names & {pair.player_1.name.casefold(), pair.player_2.name.casefold()}
        if taken:
            who = ", ".join(sorted(taken))
            return Conflict(
                "pair_duplicate",
                f"{who} is already registered (start number {pair.start_number}).",
                f"{who} er allerede tilmeldt (startnummer {pair.start_number}).",
            )
        if data.seed is not None and pair.seed == data.seed:
            return Conflict(
                "seed_taken",
                f"Seed {data.seed} is already given to start number {pair.start_number}.",
                f"Seedning {data.seed} er allerede givet til startnummer {pair.start_number}.",
            )
    return None


def _next_round_number(tournament: Tournament) -> int:
    return (tournament.rounds.aggregate(m=Max("number"))["m"] or 0) + 1


def _persons(data: list[PairData]) -> list[tuple[Person, Person]]:
    """Each pair's two people, found or created by name and club in one go."""
    found = persons_for_names([(p, d.club) for d in data for p in (d.player_1, d.player_2)])
    return list(zip(found[::2], found[1::2], strict=True))


def _create_pair(
    tournament: Tournament, data: PairData, *, start_number: int, first_round: int,
    check_in: bool, persons: tuple[Person, Person],
) -> Pair:  # fmt: skip
    player_1, player_2 = (
        Player.objects.create(tournament=tournament, name=name, club=data.club, person=person)
        for name, person in zip((data.player_1, data.player_2), persons, strict=True)
    )
    return Pair.objects.create(
        tournament=tournament,
        start_number=start_number,
        name=data.name,
        player_1=player_1,
        player_2=player_2,
        club=data.club,
        seed=data.seed,
        rating=data.rating,
        first_round=first_round,
        status=Pair.Status.CHECKED_IN if check_in else Pair.Status.REGISTERED,
    )


def _lock(tournament: Tournament) -> Tournament:
    """Serialise writes that number things within one event."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def pair_register(
    *,
    tournament: Tournament,
    actor: Any,
    player_1: str,
    player_2: str,
    club: str = "",
    name: str = "",
    seed: int | None = None,
    rating: int | None = None,
    check_in: bool = False,
    persons: tuple[Person, Person] | None = None,
) -> Pair:
    """Register a pair. Once round 1 is paired it is a late entry: it starts
    on 0 points in the next round.

    The players are linked to the people they are (``persons`` when the
    caller knows them, e.g. a season's final; else found by name and club).
    """
    require_organiser(actor, tournament)
    return _register(
        tournament, actor, player_1=player_1, player_2=player_2, club=club, name=name,
        seed=seed, rating=rating, check_in=check_in, persons=persons, action="pair_register",
    )  # fmt: skip


@transaction.atomic
def pair_register_signed_up(
    *, tournament: Tournament, actor: Any, player_1: str, player_2: str, club: str, name: str,
    persons: tuple[Person, Person],
) -> Pair:  # fmt: skip
    """A pair that signed up online becomes a pair of the tournament.

    Only for the signup app, which has checked the sign-up may take a place
    (open, within capacity, approved when asked); ``actor`` is the approving
    organiser or None when no approval is needed.
    """
    return _register(
        tournament, actor, player_1=player_1, player_2=player_2, club=club, name=name,
        seed=None, rating=None, check_in=False, persons=persons, action="pair_signup",
    )  # fmt: skip


def _register(
    tournament: Tournament, actor: Any, *, player_1: str, player_2: str, club: str, name: str,
    seed: int | None, rating: int | None, check_in: bool,
    persons: tuple[Person, Person] | None, action: str,
) -> Pair:  # fmt: skip
    tournament = _lock(tournament)
    data = _clean_pair(
        player_1=player_1, player_2=player_2, club=club, name=name, seed=seed, rating=rating
    )
    problem = _conflicts(data, list(_active_pairs(tournament)))
    if problem:
        raise problem
    start_number = (tournament.pairs.aggregate(m=Max("start_number"))["m"] or 0) + 1
    pair = _create_pair(
        tournament,
        data,
        start_number=start_number,
        first_round=_next_round_number(tournament),
        check_in=check_in,
        persons=persons or _persons([data])[0],
    )
    audit_record(
        tournament=tournament,
        actor=actor,
        action=action,
        target=pair,
        data={"start_number": start_number, "first_round": pair.first_round},
    )
    tournament_data_changed(tournament=tournament)
    return pair


@transaction.atomic
def pair_withdraw(*, pair: Pair, actor: Any) -> None:
    """A pair that signed up online withdraws (its private link, or the
    organiser for it): before round 1 is paired it leaves no trace in the
    event but the audit entry. Afterwards the organiser drops it instead.

    Only for the signup app, which has checked the link or the organiser.
    """
    tournament = _lock(pair.tournament)
    if tournament.rounds.exists():
        raise Conflict(
            "tournament_started",
            "The tournament has started: a pair can no longer withdraw online. "
            "Tell the organiser, who can drop the pair.",
            "Turneringen er gået i gang: et par kan ikke længere melde fra online. "
            "Sig det til arrangøren, som kan tage parret ud.",
        )
    pair = Pair.objects.select_related("player_1", "player_2").get(pk=pair.pk)
    players = [pair.player_1_id, pair.player_2_id]
    audit_record(
        tournament=tournament,
        actor=actor,
        action="pair_withdraw",
        target=pair,
        data={"start_number": pair.start_number},
    )
    pair.delete()
    Player.objects.filter(pk__in=players).delete()
    tournament_data_changed(tournament=tournament)


@dataclass(frozen=True)
class RowError:
    line: int
    message_en: str
    message_da: str


@dataclass
class ImportReport:
    created: list[Pair] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _csv_rows(csv_text: str) -> tuple[list[tuple[int, dict[str, str]]], list[RowError]]:
    text = csv_text.lstrip("\ufeff")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    errors: list[RowError] = []
    try:
        for record in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if header is None:
                header = [cell.strip().lower() for cell in record]
                missing = [c for c in ("player_1", "player_2") if c not in header]
                unknown = [c for c in header if c not in CSV_COLUMNS]
                if missing or unknown or len(set(header)) != len(header):
                    errors.append(
                        RowError(
                            line,
                            "The first row must name the columns: player_1, player_2 and "
                            "optionally club, name, seed, rating (each once).",
                            "Første række skal navngive kolonnerne: player_1, player_2 og "
                            "eventuelt club, name, seed, rating (hver én gang).",
                        )
                    )
                    return [], errors
                continue
            if len(record) != len(header):
                errors.append(
                    RowError(
                        line,
                        f"Expected {len(header)} fields, found {len(record)}.",
                        f"Forventede {len(header)} felter, fandt {len(record)}.",
                    )
                )
                continue
            rows.append((line, dict(zip(header, record, strict=True))))
    except csv.Error as exc:
        errors.append(
            RowError(
                reader.line_num,
                f"The file is not valid CSV ({exc}).",
                f"Filen er ikke gyldig CSV ({exc}).",
            )
        )
    if header is None and not errors:
        errors.append(RowError(1, "The file is empty.", "Filen er tom."))
    if len(rows) > MAX_IMPORT_ROWS:
        errors.append(
            RowError(
                rows[MAX_IMPORT_ROWS][0],
                f"At most {MAX_IMPORT_ROWS} pairs per import.",
                f"Højst {MAX_IMPORT_ROWS} par pr. import.",
            )
        )
    return rows, errors


@transaction.atomic
def pairs_import_csv(*, tournament: Tournament, actor: Any, csv_text: str) -> ImportReport:
    """All or nothing: if any row is bad nothing is created and every bad row
    is reported with its line number."""
    require_organiser(actor, tournament)
    tournament = _lock(tournament)
    rows, errors = _csv_rows(csv_text)
    existing = list(_active_pairs(tournament))
    accepted: list[PairData] = []
    seen: list[Pair] = list(existing)
    for line, row in rows:
        try:
            data = _clean_pair(**{k: row.get(k, "") for k in CSV_COLUMNS})
        except ApplicationError as exc:
            errors.append(RowError(line, exc.message_en, exc.message_da))
            continue
        problem = _conflicts(data, seen)
        if problem:
            errors.append(RowError(line, problem.message_en, problem.message_da))
            continue
        accepted.append(data)
        # Stand-in so later rows in the same file are checked against this one.
        seen.append(
            Pair(
                start_number=0,
                seed=data.seed,
                player_1=Player(name=data.player_1),
                player_2=Player(name=data.player_2),
            )
        )
    if errors:
        errors.sort(key=lambda e: e.line)
        return ImportReport(created=[], errors=errors)
    start = (tournament.pairs.aggregate(m=Max("start_number"))["m"] or 0) + 1
    first_round = _next_round_number(tournament)
    created = [
        _create_pair(
            tournament, data, start_number=start + k, first_round=first_round, check_in=False,
            persons=persons,
        )
        for k, (data, persons) in enumerate(zip(accepted, _persons(accepted), strict=True))
    ]  # fmt: skip
    if created:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="pairs_import_csv",
            target=f"{len(created)} pairs",
            data={"start_numbers": [p.start_number for p in created]},
        )
        tournament_data_changed(tournament=tournament)
    return ImportReport(created=created, errors=[])


PAIR_FIELDS = frozenset({"player_1", "player_2", "club", "name", "seed", "rating"})


@transaction.atomic
def pair_update(*, pair: Pair, actor: Any, **fields: Any) -> Pair:
    require_organiser(actor, pair.tournament)
    unknown = set(fields) - PAIR_FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        raise _invalid("unknown_field", f"Unknown field: {names}.", f"Ukendt felt: {names}.")
    pair = Pair.objects.select_for_update().select_related("player_1", "player_2").get(pk=pair.pk)
    current = {
        "player_1": pair.player_1.name,
        "player_2": pair.player_2.name,
        "club": pair.club,
        "name": pair.name,
        "seed": pair.seed,
        "rating": pair.rating,
    }
    data = _clean_pair(**{**current, **fields})
    problem = _conflicts(data, list(_active_pairs(pair.tournament)), exclude=pair)
    if problem:
        raise problem
    new = {
        "player_1": data.player_1,
        "player_2": data.player_2,
        "club": data.club,
        "name": data.name,
        "seed": data.seed,
        "rating": data.rating,
    }
    changed = {k: v for k, v in new.items() if current[k] != v}
    if not changed:
        return pair
    for key in ("player_1", "player_2"):
        if key in changed:
            # A corrected name may be someone else (or someone known): link anew.
            player = getattr(pair, key)
            player.name = changed[key]
            player.person = persons_for_names([(player.name, player.club)])[0]
            player.save(update_fields=["name", "person"])
    for key in ("club", "name", "seed", "rating"):
        if key in changed:
            setattr(pair, key, changed[key])
    pair.save()
    audit_record(
        tournament=pair.tournament,
        actor=actor,
        action="pair_update",
        target=pair,
        data={k: {"from": current[k], "to": v} for k, v in changed.items()},
    )
    tournament_data_changed(tournament=pair.tournament)
    return pair


def _set_status(
    pair: Pair, actor: Any, *, allowed_from: tuple[str, ...], to: str, action: str,
    refusal: tuple[str, str, str],
) -> Pair:  # fmt: skip
    require_organiser(actor, pair.tournament)
    updated = Pair.objects.filter(pk=pair.pk, status__in=allowed_from).update(status=to)
    if not updated:
        raise Conflict(*refusal)
    pair.refresh_from_db()
    audit_record(tournament=pair.tournament, actor=actor, action=action, target=pair)
    tournament_data_changed(tournament=pair.tournament)
    return pair


@transaction.atomic
def pair_check_in(*, pair: Pair, actor: Any) -> Pair:
    """Registered (or dropped, to undo a drop) -> checked in."""
    return _set_status(
        pair,
        actor,
        allowed_from=(Pair.Status.REGISTERED, Pair.Status.DROPPED),
        to=Pair.Status.CHECKED_IN,
        action="pair_check_in",
        refusal=(
            "pair_already_checked_in",
            "This pair is already checked in.",
            "Dette par er allerede tjekket ind.",
        ),
    )


@transaction.atomic
def pair_check_out(*, pair: Pair, actor: Any) -> Pair:
    return _set_status(
        pair,
        actor,
        allowed_from=(Pair.Status.CHECKED_IN,),
        to=Pair.Status.REGISTERED,
        action="pair_check_out",
        refusal=(
            "pair_not_checked_in",
            "This pair is not checked in.",
            "Dette par er ikke tjekket ind.",
        ),
    )


@transaction.atomic
def pair_drop(*, pair: Pair, actor: Any) -> Pair:
    """A dropped pair is not paired again; the games it played stay."""
    return _set_status(
        pair,
        actor,
        allowed_from=(Pair.Status.REGISTERED, Pair.Status.CHECKED_IN),
        to=Pair.Status.DROPPED,
        action="pair_drop",
        refusal=(
            "pair_already_dropped",
            "This pair has already withdrawn.",
            "Dette par har allerede trukket sig.",
        ),
    )
