"""Reads of the season app: calendar, results, the live qualification ranking.

Nothing is stored: every read computes the ranking from the tournaments'
current results (competition.placings) and the people behind the players, so a
result typed in a qualifier shows in the season ranking at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from django.db.models import Q, QuerySet
from django.utils import timezone

from competition.placings import EventPlace, event_placings
from core.users import Actor
from people.models import Person, PersonMatch
from people.selectors import (
    DuplicateSuggestion,
    dismissed_matches,
    duplicate_suggestions,
    merges_of,
    person_matches_decided,
    person_matches_open,
)
from people.selectors_public import PublicNames, public_names
from season.models import Series, SeriesEvent
from season.permissions import is_series_organiser
from season.qualification import (
    EventResult,
    Placing,
    RankingRow,
    Result,
    Rules,
    qualification_ranking,
)
from tournament.models import Pair, Player
from tournament.person_permissions import persons_manageable

PODIUM = 3
# A season pair: its two people's ids, smaller first (a player without a person: minus its id).
EntryKey = tuple[int, int]
EVENT_STATUSES = [(status, status) for status in ("upcoming", "in_progress", "finished")]


@dataclass
class SeasonPair:
    """A season pair (the same two people) as it last entered an event.

    ``names`` set (the public season pages): a player who is not a public
    person is "a player" and the pair's name is left out unless all its
    players are public: a season gathers a person's results across events,
    which only a person who consented may have published.
    """

    key: EntryKey
    pair: Pair
    persons: tuple[Person | None, Person | None]
    names: PublicNames | None = None

    @property
    def player_names(self) -> tuple[str, ...]:
        if self.names is not None:
            return self.names.players(self.pair)
        return tuple(p.name for p in self.pair.players)

    @property
    def players_text(self) -> str:
        return " & ".join(self.player_names)

    @property
    def pair_name(self) -> str:
        """The pair's own name ("" without one, or when it may not be shown)."""
        if self.names is not None and not self.names.pair_is_public(self.pair):
            return ""
        return self.pair.name

    @property
    def display_name(self) -> str:
        if self.names is not None:
            return self.names.pair(self.pair)
        return self.pair.display_name

    @property
    def person_ids(self) -> list[int | None]:
        """The two people's ids (public pages: only those of public people)."""
        public = {
            p.person_id for p in self.pair.players if self.names is None or self.names.is_public(p)
        }
        return [p.pk if p and p.pk in public else None for p in self.persons]


@dataclass(frozen=True)
class PodiumPlace:
    """An event's place on the season's calendar, with the pair written as ``SeasonPair``."""

    place: int
    shared: bool
    pair: Pair
    display_name: str

    @property
    def start_number(self) -> int:
        return self.pair.start_number


@dataclass
class CalendarEntry:
    event: SeriesEvent
    status: str  # "upcoming", "in_progress" or "finished"
    podium: list[PodiumPlace] = field(default_factory=list)
    qualified: list[SeasonPair] = field(default_factory=list)

    @property
    def tournament(self) -> Any:
        return self.event.tournament

    @property
    def signup_open(self) -> bool:
        closes_at = self.tournament.signup_closes_at
        return self.status == "upcoming" and closes_at is not None and closes_at > timezone.now()


@dataclass
class SeasonRow:
    row: RankingRow
    entry: SeasonPair
    # The pair's result in each qualifier played so far, in calendar order (None: absent).
    cells: list[Result | None] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        # Pages and the CSV read the ranking's fields (rank, points, …) off the row.
        return getattr(self.row, name)


@dataclass
class SeasonOverview:
    series: Series
    calendar: list[CalendarEntry]
    qualifiers: list[SeriesEvent]
    ranking: list[SeasonRow]
    final: SeriesEvent | None

    @property
    def played(self) -> list[SeriesEvent]:
        """Qualifiers with results so far: the ranking's columns."""
        started = {c.event.pk for c in self.calendar if c.status != "upcoming"}
        return [q for q in self.qualifiers if q.pk in started]

    @property
    def qualified(self) -> list[SeasonRow]:
        return [r for r in self.ranking if r.row.qualified]

    @property
    def provisional(self) -> bool:
        return any(c.status != "finished" for c in self.calendar if c.event.kind == "qualifier")

    @property
    def tied_at_cut(self) -> bool:
        return any(r.row.tied_at_cut for r in self.ranking)


def visible_series(user: Actor) -> QuerySet[Series]:
    series = Series.objects.all()
    if getattr(user, "is_staff", False):
        return series
    if getattr(user, "is_authenticated", False):
        return series.filter(Q(published=True) | Q(roles__user=user)).distinct()
    return series.filter(published=True)


def series_for_viewer(*, slug: str, user: Actor) -> Series | None:
    """The season if this user may see it: published, or one they organise."""
    series = Series.objects.filter(slug=slug).first()
    if series is None or not (series.published or is_series_organiser(user, series)):
        return None
    return series


def series_events(*, series: Series, public: bool = True) -> list[SeriesEvent]:
    """The season's events by date; ``public``: only published tournaments."""
    events = series.events.select_related("tournament").order_by("tournament__date", "pk")
    if public:
        events = events.filter(tournament__published=True)
    return list(events)


def entry_key(pair: Pair) -> EntryKey:
    """The two people of a pair, in a fixed order (a player without a person: by player)."""
    ids = [p.person_id or -p.pk for p in pair.players]
    return (min(ids), max(ids))


def rules_of(series: Series) -> Rules:
    return Rules(
        method=series.method,
        qualifiers_per_event=series.qualifiers_per_event,
        pass_down=series.pass_down,
        points_table=tuple(series.points_table or ()),
        best_results=series.best_results,
        final_places=series.final_places,
        tiebreak=series.tiebreak,
    )


def _podium(places: list[EventPlace], names: PublicNames | None) -> list[PodiumPlace]:
    return [
        PodiumPlace(p.place, p.shared, p.pair, names.pair(p.pair) if names else p.pair.display_name)
        for p in places[:PODIUM]
    ]


def series_overview(*, series: Series, public: bool = True) -> SeasonOverview:
    """Calendar with each event's podium, the qualification ranking, the final.

    ``public``: published events only, and players named only if they are
    public people (``SeasonPair``); organisers of the season see everything.
    """
    events = series_events(series=series, public=public)
    qualifiers = [e for e in events if e.kind == SeriesEvent.Kind.QUALIFIER]
    calendar: list[CalendarEntry] = []
    results: list[EventResult] = []
    entries: dict[EntryKey, SeasonPair] = {}
    placed = [(event, event_placings(tournament=event.tournament)) for event in events]
    names = (
        public_names(pairs=[p.pair for _e, placings in placed for p in placings.places])
        if public
        else None
    )
    for order, (event, placings) in enumerate(placed):
        status = "finished" if placings.finished else "in_progress" if placings.started else ""
        podium = _podium(placings.places, names)
        calendar.append(CalendarEntry(event, status or "upcoming", podium=podium))
        if event.kind != SeriesEvent.Kind.QUALIFIER:
            continue
        for place in placings.places:
            key = entry_key(place.pair)
            entries[key] = SeasonPair(key, place.pair, (None, None), names)  # latest event wins
        results.append(
            EventResult(
                event_id=event.pk,
                order=order,
                finished=placings.finished,
                placings=[Placing(entry_key(p.pair), p.place) for p in placings.places],
            )
        )
    _load_persons(entries)
    ranking = [
        SeasonRow(row, entries[cast(EntryKey, row.entry)])
        for row in qualification_ranking(results, rules_of(series))
    ]
    by_event: dict[int, list[SeasonPair]] = {}
    for season_row in ranking:
        if season_row.row.qualified_in is not None:
            by_event.setdefault(season_row.row.qualified_in, []).append(season_row.entry)
    for entry in calendar:
        entry.qualified = by_event.get(entry.event.pk, [])
    final = next((e for e in events if e.kind == SeriesEvent.Kind.FINAL), None)
    overview = SeasonOverview(series, calendar, qualifiers, ranking, final)
    for season_row in ranking:
        season_row.cells = [season_row.row.results.get(q.pk) for q in overview.played]
    return overview


def _load_persons(entries: dict[EntryKey, SeasonPair]) -> None:
    ids = {i for key in entries for i in key if i > 0}
    persons = Person.objects.in_bulk(ids)
    for entry in entries.values():
        entry.persons = (
            persons.get(entry.pair.player_1.person_id or 0),
            persons.get(entry.pair.player_2.person_id or 0) if entry.pair.player_2 else None,
        )


@dataclass
class PersonInSeason:
    person: Person
    events: list[str]  # the season's tournaments the person played, by name
    names: list[str]  # how the person was written in them
    # Whether the viewer may merge or anonymise them (tournament.person_permissions).
    may_manage: bool = False


@dataclass
class SeasonPeople:
    people: list[PersonInSeason]
    suggestions: list[DuplicateSuggestion]
    merges: list[Any]


def series_people(*, series: Series, actor: Actor | None = None) -> SeasonPeople:
    """Everyone who played in the season, likely duplicates, and the merges made;
    whom ``actor`` may merge or anonymise (``PersonInSeason.may_manage``).

    People who played in the same event are never suggested as one: a
    tournament cannot have the same human twice; nor are two people whose
    suggested match someone dismissed.
    """
    players = (
        Player.objects.filter(tournament__season_events__series=series, person__isnull=False)
        .select_related("person", "tournament")
        .order_by("person__name", "tournament__date")
    )
    found: dict[int, PersonInSeason] = {}
    by_event: dict[int, set[int]] = {}
    for player in players:
        person = player.person
        assert person is not None
        entry = found.setdefault(person.pk, PersonInSeason(person, [], []))
        if player.tournament.name not in entry.events:
            entry.events.append(player.tournament.name)
        if player.name not in entry.names:
            entry.names.append(player.name)
        by_event.setdefault(player.tournament_id, set()).add(person.pk)
    apart = {frozenset((a, b)) for ids in by_event.values() for a in ids for b in ids if a < b}
    apart |= dismissed_matches(person_ids=found)
    manageable = persons_manageable(actor=actor, person_ids=set(found))
    for entry in found.values():
        entry.may_manage = entry.person.pk in manageable
    people = sorted(found.values(), key=lambda p: (p.person.name_key, p.person.pk))
    persons = [p.person for p in people]
    return SeasonPeople(
        people=people,
        suggestions=duplicate_suggestions(persons=persons, apart=apart),
        merges=merges_of(persons=persons),
    )


@dataclass
class MatchForViewer:
    """A suggested match and what the viewer may do with it."""

    match: PersonMatch
    may_confirm: bool
    may_dismiss: bool
    may_undo: bool


@dataclass
class PersonMatches:
    open: list[MatchForViewer]
    decided: list[MatchForViewer]


def person_matches_for(*, actor: Actor) -> PersonMatches:
    """The suggested matches ``actor`` may act on: staff all of them, an
    organiser those with at least one person of their own events."""
    open_, decided = person_matches_open(), person_matches_decided()
    ids = {pk for m in [*open_, *decided] for pk in (m.new_id, m.known_id)}
    mine = persons_manageable(actor=actor, person_ids=ids)

    def view(match: PersonMatch) -> MatchForViewer | None:
        both = {match.new_id, match.known_id} <= mine
        if not (both or match.new_id in mine or match.known_id in mine):
            return None
        confirmed = match.status == PersonMatch.Status.CONFIRMED
        undoable = confirmed and match.new.merged_into_id == match.known_id
        return MatchForViewer(
            match,
            may_confirm=both and match.status == PersonMatch.Status.OPEN,
            may_dismiss=match.status == PersonMatch.Status.OPEN,
            # After the merge the known person holds every row: who manages it may undo.
            may_undo=undoable and match.known_id in mine,
        )

    return PersonMatches(
        open=[v for v in map(view, open_) if v is not None],
        decided=[v for v in map(view, decided) if v is not None],
    )
