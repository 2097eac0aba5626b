"""Every PDF prints hostile names as the literal text they are.

Names reach reportlab's Paragraph mini-markup, where ``<a href>`` would be a
live link, ``<img src>`` would embed a file from the server's disk,
``<script>`` would stop the build and ``&`` would start an entity. Each
builder of ``printing.documents`` renders every name below, and the test
finds each name in the PDF's text as typed (direction controls, which
reportlab cannot draw, left out). A builder added without a case here
fails ``test_every_builder_is_covered``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest

from printing import documents
from printing.documents.types import (
    Bracket,
    BracketMatch,
    BracketRound,
    FinalLine,
    FinalStandings,
    GameRecord,
    Incident,
    JudgeReport,
    PairingRow,
    PairingsList,
    RecordEntry,
    StandingLine,
    StandingsTable,
)
from tests.printing.documents.samples import pair, sheet
from tests.printing.pdf_tools import pdf_text

HOSTILE = [
    '<a href="https://evil.example/">Klik her</a>',
    '<img src="/etc/passwd"/>',
    "<script>alert(1)</script>",
    "Vejle & Co <Jylland>",
    "&nbsp;&amp;&#65;",
    '<font color="red">Rød</font> <b>Fed</b>',
    "Ali \u202eHans\u202c Jensen",  # a right-to-left override inside a name
    "Ø" * 120,  # the longest player name the database takes
]


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _expected(name: str) -> str:
    return _flat(name.replace("\u202e", "").replace("\u202c", ""))


def _pairs():
    return [
        pair(n + 1, name, f"Makker {n + 1}", name=f"Par {name}", club=name)
        for n, name in enumerate(HOSTILE)
    ]


def _tournament() -> str:
    return "DM <i>Partners</i> & Co"


def score_sheets() -> bytes:
    pairs = _pairs()
    sheets = [
        sheet(table=n + 1, tournament=_tournament(), venue=HOSTILE[3], pair_yb=p, pair_rg=p)
        for n, p in enumerate(pairs)
    ]
    return documents.build_score_sheets(sheets, page_size="A4", lang="da")


def pairings_list() -> bytes:
    pairs = _pairs()
    rows = [PairingRow(n + 1, p, pairs[-1 - n], "Y") for n, p in enumerate(pairs)]
    return documents.build_pairings_list(
        PairingsList(_tournament(), 3, rows, byes=pairs[:2], round_title=HOSTILE[3]), lang="da"
    )


def standings() -> bytes:
    lines = [
        StandingLine(n + 1, p, 2.0, 1, 1, 0, 0, 0.0, 0, 0, 0, 0, head_to_head=p.player_1)
        for n, p in enumerate(_pairs())
    ]
    return documents.build_standings(StandingsTable(_tournament(), lines), lang="da")


def bracket() -> bytes:
    pairs = _pairs()
    matches = [
        BracketMatch(n + 1, pairs[2 * n], pairs[2 * n + 1], winner="a")
        for n in range(len(pairs) // 2)
    ]
    rounds = [BracketRound(HOSTILE[3], 4, matches)]
    return documents.build_bracket(Bracket(_tournament(), rounds), lang="da")


def judge_report() -> bytes:
    at = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)
    incidents = [
        Incident("ruling", 1, n + 1, name, rule="P2", at=at, judge=name)
        for n, name in enumerate(HOSTILE)
    ]
    report = JudgeReport(_tournament(), incidents, sources_note=HOSTILE[0])
    return documents.build_judge_report(report, lang="da")


def game_record() -> bytes:
    players = dict(zip("YRBG", HOSTILE, strict=False))
    entries = [
        RecordEntry(1, "Y 11: in", seat="Y"),
        RecordEntry(2, "! WARN R P5", ruling=True, rule="P5", note=HOSTILE[4]),
    ]
    record = GameRecord(
        _tournament(), 2, 5, players, "Y", entries, [], winner="YB", result_note=HOSTILE[5]
    )
    return documents.build_game_record(record, lang="da")


def final_results() -> bytes:
    lines = [FinalLine(n + 1, p, HOSTILE[3]) for n, p in enumerate(_pairs())]
    final = FinalStandings(_tournament(), True, lines, venue=HOSTILE[3])
    return documents.build_final_results(final, lang="da")


def _names_in(build: Callable[[], bytes]) -> list[str]:
    if build is game_record:
        return [*HOSTILE[:4], HOSTILE[4], HOSTILE[5]]
    if build is judge_report:
        return [*HOSTILE, HOSTILE[0]]
    return HOSTILE


BUILDERS: dict[str, Callable[[], bytes]] = {
    "build_score_sheets": score_sheets,
    "build_pairings_list": pairings_list,
    "build_standings": standings,
    "build_bracket": bracket,
    "build_judge_report": judge_report,
    "build_game_record": game_record,
    "build_final_results": final_results,
}


def test_every_builder_is_covered():
    assert set(documents.__all__) == set(BUILDERS), (
        "render the new document with the hostile names: add it to BUILDERS"
    )


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_hostile_names_print_as_literal_text(name):
    build = BUILDERS[name]
    pdf = build()
    text = _flat(pdf_text(pdf))
    for hostile in _names_in(build):
        assert _expected(hostile) in text, f"{name}: {hostile!r} is not printed as typed"
    assert _flat("DM <i>Partners</i> & Co") in text
    # No markup became live: no link annotation, no embedded image.
    assert b"/URI" not in pdf
    assert b"/Subtype /Image" not in pdf


@pytest.mark.django_db
@pytest.mark.parametrize("document", ["rounds/1/pairings.pdf", "print/standings.pdf"])
def test_public_pdfs_of_an_event_with_hostile_names(client, document):
    from tests.factories import (
        GameFactory,
        PairFactory,
        PlayerFactory,
        RoundFactory,
        TournamentFactory,
    )

    tournament = TournamentFactory(slug="hostile", name=_tournament())
    round_ = RoundFactory(tournament=tournament, number=1)
    pairs = [
        PairFactory(
            tournament=tournament,
            player_1=PlayerFactory(tournament=tournament, name=HOSTILE[n]),
            player_2=PlayerFactory(tournament=tournament, name=HOSTILE[n + 1]),
        )
        for n in (0, 2, 4, 6)
    ]
    GameFactory(round=round_, table_number=1, pair_yb=pairs[0], pair_rg=pairs[1], winner="YB",
                result_source="typed")  # fmt: skip
    GameFactory(round=round_, table_number=2, pair_yb=pairs[2], pair_rg=pairs[3], winner="RG",
                result_source="typed")  # fmt: skip
    response = client.get(f"/tournaments/hostile/{document}")
    assert response.status_code == 200
    text = _flat(pdf_text(response.content))
    for hostile in HOSTILE:
        assert _expected(hostile) in text
    assert _flat(_tournament()) in text
