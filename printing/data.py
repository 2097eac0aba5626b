"""Gather the plain data the document builders need.

The only module of this app that reads other apps: through their selectors
where they exist (competition.selectors, competition.services.knockout,
games.selectors / games.services.move_log), so the builders stay pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import selectors
from games.models import Game
from games.services.tokens import game_token
from judging import selectors_records as records
from printing.documents.base import local_time, seat_name, team_name
from printing.documents.types import (
    Bracket,
    BracketMatch,
    BracketRound,
    FinalLine,
    FinalStandings,
    GameRecord,
    Incident,
    JudgeReport,
    PairInfo,
    PairingRow,
    PairingsList,
    RulingNote,
    ScoreSheet,
    StandingLine,
    StandingsTable,
    TableKind,
)
from printing.timeline import record_timeline
from tournament.models import Pair, Round, Tournament


def pair_info(pair: Pair) -> PairInfo:
    return PairInfo(
        start_number=pair.start_number,
        player_1=pair.player_1.name,
        player_2=pair.player_2.name if pair.player_2 else "",
        name=pair.name,
        club=pair.club,
    )


def round_title(round: Round, lang: str) -> str:
    """The knockout stage's name (e.g. "Semi-finals"), "Playoff"; empty for Swiss rounds."""
    if round.kind == Round.Kind.PLAYOFF:
        return "Playoff" if lang == "en" else "Omspil"
    if round.kind != Round.Kind.KNOCKOUT:
        return ""
    name_en, name_da = selectors.knockout_stage_names(round.bracket_matches or 0)
    return name_en if lang == "en" else name_da


def round_games(*, round: Round) -> list[Game]:
    return selectors.pairings_for_round(round=round)


def table_url(token: str) -> str:
    return f"{settings.SITE_URL}/t/{token}/"


def score_sheets_data(
    *, round: Round, games: Iterable[Game] | None = None, lang: str = "da"
) -> list[ScoreSheet]:
    """One sheet per game of ``round``, with its table link.

    Issues a token to any game that has none yet (a write): callers are the
    organiser-only view and the print task.
    """
    tournament = round.tournament
    sheets = []
    for game in games if games is not None else round_games(round=round):
        token = game_token(game=game)
        sheets.append(
            ScoreSheet(
                tournament=tournament.name,
                round_number=round.number,
                round_title=round_title(round, lang),
                table_number=game.table_number,
                pair_yb=pair_info(game.pair_yb),
                pair_rg=pair_info(game.pair_rg),
                first_dealer=game.first_dealer,
                alert_minutes=tournament.alert_minutes,
                limit_minutes=tournament.time_limit_minutes,
                date=tournament.date,
                venue=tournament.venue,
                started_at=game.started_at or round.started_at,
                table_url=table_url(token),
                short_code=game.short_code,
                seating=TableKind.of(tournament.variant.ruleset),
            )
        )
    return sheets


def pairings_data(*, round: Round, lang: str = "da") -> PairingsList:
    rows = [
        PairingRow(g.table_number, pair_info(g.pair_yb), pair_info(g.pair_rg), g.first_dealer)
        for g in round_games(round=round)
    ]
    byes = [pair_info(b.pair) for b in selectors.byes_for_round(round=round)]
    return PairingsList(
        tournament=round.tournament.name,
        round_number=round.number,
        round_title=round_title(round, lang),
        rows=rows,
        byes=byes,
        published=round.status != Round.Status.DRAFT,
        seating=TableKind.of(round.tournament.variant.ruleset),
    )


def standings_data(
    *, tournament: Tournament, up_to_round: int | None = None, lang: str = "da"
) -> StandingsTable:
    lines = []
    for row in selectors.standings_for_tournament(tournament=tournament, up_to_round=up_to_round):
        note = row.tiebreak_note_en if lang == "en" else row.tiebreak_note_da
        head_to_head = row.head_to_head
        lines.append(
            StandingLine(
                rank=row.rank,
                pair=pair_info(row.pair),
                points=row.points,
                games_played=row.games_played,
                wins=row.wins,
                losses=row.losses,
                byes=row.byes,
                buchholz=row.buchholz,
                locked_for=row.locked_for,
                locked_against=row.locked_against,
                locked_diff=row.locked_diff,
                distance_diff=row.distance_diff,
                head_to_head="" if head_to_head is None else str(head_to_head),
                shared_rank=row.shared_rank,
                tiebreak_note=note or "",
            )
        )
    return StandingsTable(
        tournament=tournament.name,
        lines=lines,
        up_to_round=up_to_round,
        tiebreaks=list(tournament.tiebreaks or []),
        singles=tournament.is_singles,
    )


def _winner_side(match: selectors.BracketMatch) -> str:
    winner = match.winner
    if winner is None or match.game is None:  # a bye is no won match
        return ""
    if match.pair_a is not None and winner.pk == match.pair_a.pk:
        return "a"
    if match.pair_b is not None and winner.pk == match.pair_b.pk:
        return "b"
    return ""


def bracket_data(*, tournament: Tournament, lang: str = "da") -> Bracket:
    rounds = []
    for bracket_round in selectors.bracket_for_tournament(tournament=tournament):
        title = bracket_round.name_en if lang == "en" else bracket_round.name_da
        matches = [
            BracketMatch(
                slot=m.slot,
                pair_a=pair_info(m.pair_a) if m.pair_a is not None else None,
                pair_b=pair_info(m.pair_b) if m.pair_b is not None else None,
                winner=_winner_side(m),
                table_number=m.game.table_number if m.game is not None else None,
                is_third_place=m.is_third_place,
            )
            for m in bracket_round.matches
        ]
        rounds.append(
            BracketRound(title=title, round_number=bracket_round.round.number, matches=matches)
        )
    return Bracket(tournament=tournament.name, rounds=rounds)


def final_results_data(*, tournament: Tournament, lang: str = "da") -> FinalStandings:
    from competition.placings import final_results

    final = final_results(tournament=tournament)
    return FinalStandings(
        tournament=tournament.name,
        finished=final.finished,
        lines=[
            FinalLine(
                place=p.place,
                pair=pair_info(p.pair),
                how=p.how_en if lang == "en" else p.how_da,
                shared=p.shared,
            )
            for p in final.places
        ],
        date=tournament.date,
        venue=tournament.venue,
        singles=tournament.is_singles,
    )


def person_name(user: User | None) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def game_ruling_notes(*, game: Game) -> dict[int, RulingNote]:
    """Reason, rule and judge of each judge entry, keyed by its number in the exported record.

    The exported record holds the active entries in ``seq`` order, so entry
    number n is the n-th active entry; a ruling names the ``seq`` it wrote.
    """
    from games.selectors import active_entries

    numbers = {
        seq: number
        for number, seq in enumerate(active_entries(game=game).values_list("seq", flat=True), 1)
    }
    notes: dict[int, RulingNote] = {}
    for ruling in records.rulings_for_game(game=game):
        note = RulingNote(reason=ruling.reason, rule=ruling.rule, judge=person_name(ruling.judge))
        for written in ruling.log_entries or []:
            seq = written.get("seq") if isinstance(written, dict) else None
            number = numbers.get(seq) if isinstance(seq, int) else None
            if number is not None:
                notes[number] = note
    return notes


def game_record_data(*, game: Game, lang: str = "da") -> GameRecord:
    from games.selectors import game_log, game_record_export, short_hash

    record = game_record_export(game=game)
    entries, diagrams, checked = record_timeline(
        record, lang=lang, rulings=game_ruling_notes(game=game)
    )
    final_hash = short_hash(game_log(game=game).last_hash) if entries else ""
    return GameRecord(
        tournament=game.round.tournament.name,
        round_number=game.round.number,
        table_number=game.table_number,
        players=dict(record.get("players") or {}),
        first_dealer=game.first_dealer,
        entries=entries,
        diagrams=diagrams,
        winner=game.winner,
        result_note=game.result_note,
        final_hash=final_hash,
        checked=checked,
        seating=TableKind.of(game.round.tournament.variant.ruleset),
    )


def _result_incidents(tournament: Tournament) -> list[Incident]:
    """Results decided on time or by a judge that no ruling row explains (e.g. set by hand)."""
    explained = records.result_ruling_game_ids(tournament=tournament)
    games = (
        Game.objects.filter(round__tournament=tournament)
        .filter(
            Q(result_source__in=[Game.ResultSource.ADJUDICATED, Game.ResultSource.JUDGE])
            | Q(timed_out=True)
        )
        .exclude(pk__in=explained)
        .select_related("round")
    )
    incidents = []
    for game in games:
        adjudicated = game.result_source == Game.ResultSource.ADJUDICATED or game.timed_out
        details = [
            _("Winner: %(team)s") % {"team": game.get_winner_display()} if game.winner else "",
            _distances(game.distance_yb, game.distance_rg),
            _("decided against the adjudication (W3): %(reason)s")
            % {"reason": game.result_override}
            if game.result_override
            else "",
            game.result_note,
        ]
        incidents.append(
            Incident(
                kind="adjudication" if adjudicated else "ruling",
                round_number=game.round.number,
                table_number=game.table_number,
                rule="W3" if adjudicated else "",
                at=game.result_recorded_at,
                text="; ".join(d for d in details if d),
            )
        )
    return incidents


def _distances(yb: Any, rg: Any) -> str:
    if yb is None or rg is None:
        return ""
    return _("remaining distance Yellow/Blue %(yb)s, Red/Green %(rg)s") % {"yb": yb, "rg": rg}


def _alert_incidents(tournament: Tournament) -> list[Incident]:
    incidents = []
    for alert in records.alerts_for_tournament(tournament=tournament):
        limit = records.alert_is_time_limit(alert)
        incidents.append(
            Incident(
                kind="time_out" if limit else "alert",
                round_number=alert.game.round.number,
                table_number=alert.game.table_number,
                rule="W2",
                at=alert.raised_at,
                judge=person_name(alert.acknowledged_by),
                text=_("%(kind)s at %(minute)d min")
                % {"kind": alert.get_kind_display(), "minute": alert.mark_minute},
            )
        )
    return incidents


def _call_incidents(tournament: Tournament) -> list[Incident]:
    incidents = []
    for call in records.judge_calls_for_tournament(tournament=tournament):
        details = [str(call.get_status_display())]
        if call.reason:
            details.append(call.reason)
        if call.seq:
            details.append(
                _("about entry %(number)d: %(entry)s")
                % {"number": call.seq, "entry": call.entry_text}
            )
        if call.taken_at:
            details.append(_("taken %(time)s") % {"time": local_time(call.taken_at)})
        if call.closed_at:
            closer = person_name(call.closed_by)
            details.append(
                _("closed %(time)s by %(name)s")
                % {"time": local_time(call.closed_at), "name": closer}
                if closer
                else _("closed %(time)s") % {"time": local_time(call.closed_at)}
            )
        if call.paused_clock:
            details.append(_("the clock was paused"))
        incidents.append(
            Incident(
                kind="call",
                round_number=call.game.round.number,
                table_number=call.game.table_number,
                at=call.created_at,
                judge=person_name(call.taken_by or call.closed_by),
                text="; ".join(details),
            )
        )
    return incidents


def _ruling_kind(kind: str) -> str:
    return {"penalty": "penalty", "adjudication": "adjudication", "warning": "warning"}.get(
        kind, "ruling"
    )


def _ruling_details(ruling: Any) -> list[str]:
    """Penalty details and the engine's proposal vs the decision, in plain words."""
    data = ruling.data if isinstance(ruling.data, dict) else {}
    details = []
    if ruling.seat:
        player = seat_name(ruling.seat)
        pair = ruling.pair
        if pair is not None:
            player += f" ({pair.player_names})"
        details.append(_("seat %(seat)s") % {"seat": player})
    if data.get("pawn"):
        details.append(_("pawn %(pawn)s sent home") % {"pawn": data["pawn"]})
    if data.get("move"):
        details.append(_("forced move %(move)s") % {"move": data["move"]})
    if data.get("void"):
        details.append(
            _("voided entries %(numbers)s") % {"numbers": ", ".join(map(str, data["void"]))}
        )
    if data.get("keep"):
        details.append(
            _("kept entries %(numbers)s") % {"numbers": ", ".join(map(str, data["keep"]))}
        )
    if ruling.kind == "adjudication":
        details.append(
            _("engine proposal: %(proposal)s; decision: %(decision)s")
            % {
                "proposal": team_name(str(data.get("proposal", ""))),
                "decision": team_name(str(data.get("winner", ""))),
            }
        )
        if data.get("override"):
            details.append(_("the judge overrode the proposal"))
        raw_teams = data.get("teams")
        teams = raw_teams if isinstance(raw_teams, dict) else {}
        yb, rg = teams.get("YB") or {}, teams.get("RG") or {}
        if isinstance(yb, dict) and isinstance(rg, dict):
            details.append(_distances(yb.get("distance"), rg.get("distance")))
    elif ruling.kind == "result" and data.get("winner"):
        details.append(_("Winner: %(team)s") % {"team": team_name(str(data["winner"]))})
    entries = [str(e.get("text", "")) for e in ruling.log_entries or [] if isinstance(e, dict)]
    if entries:
        details.append(_("log: %(entries)s") % {"entries": " | ".join(entries)})
    return [d for d in details if d]


def _ruling_incidents(tournament: Tournament) -> list[Incident]:
    incidents = []
    for ruling in records.rulings_for_tournament(tournament=tournament):
        text = [f"{ruling.get_kind_display()}: {ruling.reason}", *_ruling_details(ruling)]
        incidents.append(
            Incident(
                kind=_ruling_kind(ruling.kind),
                round_number=ruling.game.round.number,
                table_number=ruling.game.table_number,
                rule=ruling.rule,
                at=ruling.created_at,
                judge=person_name(ruling.judge),
                text="; ".join(text),
            )
        )
    return incidents


def judge_report_data(*, tournament: Tournament) -> JudgeReport:
    return JudgeReport(
        tournament=tournament.name,
        incidents=(
            _call_incidents(tournament)
            + _ruling_incidents(tournament)
            + _result_incidents(tournament)
            + _alert_incidents(tournament)
        ),
        generated_at=timezone.now(),
        sources_note=_(
            "Includes judge calls, rulings, penalties and warnings, time-out adjudications "
            "(the engine's proposal and the judge's decision), clock alerts and results "
            "decided on time or by a judge."
        ),
    )
