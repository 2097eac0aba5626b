import datetime

from printing.documents import build_judge_report
from printing.documents.types import Incident, JudgeReport
from tests.printing.pdf_tools import pdf_text

UTC = datetime.UTC


def test_judge_report_lists_incidents_with_rule_ids_tables_and_judges():
    at = datetime.datetime(2026, 11, 28, 10, 40, tzinfo=UTC)
    report = JudgeReport(
        "DM i Partners 2026",
        [
            Incident(
                "penalty", 2, 7, "Partners talked about the game", rule="P2", at=at, judge="Kirsten"
            ),
            Incident("adjudication", 2, 3, "Stopped at 60 minutes", rule="W3", judge="Jens"),
            Incident("ruling", 1, 5, "Pawn moved before the card was laid", rule="P1", at=at),
        ],
    )
    text = pdf_text(build_judge_report(report, lang="en"))
    for fragment in (
        "Judge report",
        "P2",
        "W3",
        "P1",
        "Kirsten",
        "Jens",
        "Partners talked about the game",
        "11:40",
        "Penalty: 1",
        "Adjudication: 1",
        "Ruling: 1",
    ):
        assert fragment in text, fragment
    assert "Rules involved: P1 ×1, P2 ×1, W3 ×1" in text


def test_empty_report_in_danish():
    text = pdf_text(build_judge_report(JudgeReport("DM", [])))
    assert "Dommerrapport" in text and "Ingen hændelser registreret." in text
