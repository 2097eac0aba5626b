"""Dates and numbers as each language prints them (config/formats/, docs/glossary.md).

Danish gets Django's Danish formats ("26. november 2026", "26.11.2026 14:30",
"2,5") with the abbreviated month "26. nov."; never an English abbreviation
("26. Nov") or a decimal point. Pages, PDFs and emails are checked as a
reader gets them, and the sources are checked for hand-made date formats.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from printing import documents
from printing.documents.types import Incident, JudgeReport, StandingLine, StandingsTable
from signup.services.emails import email_message
from signup.services.links import signup_token
from tests.factories import TournamentFactory, organiser_of
from tests.printing.documents.samples import pair, sheet
from tests.printing.pdf_tools import pdf_text
from tests.signup.conftest import sign_up

ROOT = Path(settings.BASE_DIR)
# An English month or weekday abbreviation, as Django's "M" and "D" print them.
ENGLISH_ABBREVIATION = re.compile(
    r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b"
)
ENGLISH_MONTH = re.compile(r"\b(January|February|March|April|June|July|August|October)\b")
# What a template may pass to the date filter: a named format (the language
# picks it), a time, or parts with no English word in them.
NAMED = {
    "DATE_FORMAT",
    "DATETIME_FORMAT",
    "SHORT_DATE_FORMAT",
    "SHORT_DATETIME_FORMAT",
    "MONTH_DAY_FORMAT",
    "YEAR_MONTH_FORMAT",
}
PLAIN = {"H:i", "H:i:s", "j", "Y", "N Y", "c", "U", "Y-m-d"}
MOMENT = datetime.datetime(2026, 11, 26, 13, 30, tzinfo=datetime.UTC)  # 14:30 in Copenhagen


def _assert_danish(text: str) -> None:
    assert not ENGLISH_ABBREVIATION.search(text), ENGLISH_ABBREVIATION.search(text)
    assert not ENGLISH_MONTH.search(text), ENGLISH_MONTH.search(text)


@pytest.mark.parametrize(
    ("language", "name", "expected"),
    [
        ("da", "DATE_FORMAT", "26. november 2026"),
        ("da", "MONTH_DAY_FORMAT", "26. nov."),
        ("da", "SHORT_DATETIME_FORMAT", "26.11.2026 14:30"),
        ("en", "DATE_FORMAT", "26 November 2026"),
        ("en", "MONTH_DAY_FORMAT", "26 Nov."),
        ("en", "SHORT_DATETIME_FORMAT", "26/11/2026 14:30"),
    ],
)
def test_each_language_has_its_named_formats(language, name, expected):
    with translation.override(language):
        assert formats.date_format(timezone.localtime(MOMENT), name) == expected


def test_numbers_have_a_decimal_comma_in_danish():
    with translation.override("da"):
        assert formats.number_format(12.5, 1) == "12,5"
    with translation.override("en"):
        assert formats.number_format(12.5, 1) == "12.5"


def test_templates_give_the_date_filter_only_named_formats_or_plain_parts():
    used = re.compile(r"""\|date:(?:"([^"]*)"|'([^']*)')""")
    bad = []
    for path in sorted(ROOT.glob("**/templates/**/*")):
        if ".venv" in path.parts or path.suffix not in (".html", ".txt"):
            continue
        for match in used.finditer(path.read_text()):
            form = match.group(1) or match.group(2)
            if form not in NAMED | PLAIN:
                bad.append(f"{path.relative_to(ROOT)}: date:{form!r}")
    assert not bad, "\n".join(bad)


def test_no_code_writes_a_month_or_weekday_name_by_hand():
    by_hand = re.compile(r"strftime\([^)]*%[bBaAh]")
    bad = []
    for path in sorted(ROOT.glob("**/*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(".") or relative.parts[0] in ("var", "tests"):
            continue
        bad += [f"{relative}: {m.group(0)}" for m in by_hand.finditer(path.read_text())]
    assert not bad, "\n".join(bad)


def test_pdfs_print_danish_dates_and_decimal_commas():
    day = datetime.date(2026, 11, 28)
    score_sheet = pdf_text(documents.build_score_sheets([sheet(date=day)], lang="da"))
    assert "28.11.2026" in score_sheet
    lines = [
        StandingLine(1, pair(1, "Åse Ørum", "Bo Bæk"), 2.5, 3, 2, 0, 1, 12.5, 0, 0, 0, 0),
        StandingLine(2, pair(2, "Carl Dahl", "Dorte Eg"), 2.0, 3, 2, 1, 0, 11.0, 0, 0, 0, 0),
    ]
    standings = " ".join(
        pdf_text(documents.build_standings(StandingsTable("DM", lines), lang="da")).split()
    )
    assert "2,5" in standings and "12,5" in standings and "12.5" not in standings
    report = JudgeReport(
        "DM",
        [Incident("ruling", 1, 3, "Post 12 stadfæstet", at=MOMENT, judge="Ulla Ravn")],
        generated_at=MOMENT,
    )
    judge_report = pdf_text(documents.build_judge_report(report, lang="da"))
    assert "26.11.2026 14:30" in judge_report
    for text in (score_sheet, standings, judge_report):
        _assert_danish(text)
    english = pdf_text(documents.build_score_sheets([sheet(date=day)], lang="en"))
    assert "28/11/2026" in english


@pytest.mark.django_db
def test_the_statistics_pdf_dates_its_footer_in_danish():
    event = TournamentFactory(date=datetime.date(2026, 11, 28), published=True)
    response = Client().get(reverse("stats:tournament_pdf", args=[event.slug]))
    text = " ".join(pdf_text(response.content).split())
    assert "28. november 2026" in text and "2026-11-28" not in text
    _assert_danish(text)


@pytest.mark.django_db
def test_sign_up_email_and_pages_print_danish_dates():
    event = TournamentFactory(
        date=datetime.date(2026, 11, 28),
        signup_closes_at=MOMENT + datetime.timedelta(days=365 * 5),
        signup_capacity=4,
    )
    signup = sign_up(event)
    (email,) = signup.emails.all()
    subject, body = email_message(email=email)
    assert "28. november 2026" in body
    _assert_danish(subject + body)
    own = Client().get(reverse("signup:own", args=[signup_token(signup=signup)]))
    page = own.content.decode()
    assert "28. november 2026" in page
    _assert_danish(page)
    organiser = Client()
    organiser.force_login(organiser_of(event))
    listing = organiser.get(reverse("signup:organiser_list", args=[event.slug])).content.decode()
    assert re.search(r"Tilmeldt \d\d\.\d\d\.\d{4} \d\d:\d\d", listing)
    _assert_danish(listing)
