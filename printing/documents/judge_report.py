"""The judge report of an event: calls, rulings, penalties, adjudications.

Built from a plain list of incidents (rule id, table, time, judge, text);
``printing.data.judge_report_data`` decides what goes into it.
"""

from __future__ import annotations

from collections import Counter

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from printing.documents.base import (
    LIGHT_GREY,
    esc,
    local_datetime,
    local_time,
    platypus_pdf,
    styles,
)
from printing.documents.types import Incident, JudgeReport

KIND_ORDER = ("alert", "call", "ruling", "warning", "penalty", "adjudication", "time_out")


def incident_kind_label(kind: str) -> str:
    return {
        "alert": _("Clock alert"),
        "call": _("Judge call"),
        "ruling": _("Ruling"),
        "warning": _("Warning"),
        "penalty": _("Penalty"),
        "adjudication": _("Adjudication"),
        "time_out": _("Time-out"),
    }.get(kind, kind)


def _order(incident: Incident) -> tuple:
    return (incident.round_number, incident.at is None, incident.at or 0, incident.table_number)


def build_judge_report(report: JudgeReport, *, lang: str = "da") -> bytes:
    with translation.override(lang):
        st = styles()
        title = report.tournament + " — " + _("Judge report")
        story: list = [Paragraph(esc(title), st["title"])]
        if report.generated_at:
            story.append(
                Paragraph(
                    _("Made %(moment)s") % {"moment": local_datetime(report.generated_at)},
                    st["small"],
                )
            )
        counts = Counter(i.kind for i in report.incidents)
        summary = ", ".join(
            f"{incident_kind_label(kind)}: {counts[kind]}" for kind in KIND_ORDER if counts[kind]
        ) or _("No incidents recorded.")
        story += [Paragraph(summary, st["body"]), Spacer(0, 6)]
        rules = Counter(i.rule for i in report.incidents if i.rule)
        if rules:
            story.append(
                Paragraph(
                    _("Rules involved: %(rules)s")
                    % {
                        "rules": ", ".join(f"{esc(rule)} ×{n}" for rule, n in sorted(rules.items()))
                    },
                    st["body"],
                )
            )
        header = [
            _("Round"),
            _("Table"),
            _("Time"),
            _("Kind"),
            _("Rule"),
            _("Judge"),
            _("What happened"),
        ]
        rows: list[list] = [header]
        for incident in sorted(report.incidents, key=_order):
            rows.append(
                [
                    incident.round_number,
                    incident.table_number,
                    local_time(incident.at),
                    Paragraph(incident_kind_label(incident.kind), st["small"]),
                    incident.rule,
                    Paragraph(esc(incident.judge), st["small"]),
                    Paragraph(esc(incident.text), st["cell"]),
                ]
            )
        if len(rows) > 1:
            table = Table(rows, colWidths=[36, 34, 36, 70, 34, 70, 230], repeatRows=1)
            table.setStyle(
                TableStyle(
                    [
                        ("BACKGROUND", (0, 0), (-1, 0), LIGHT_GREY),
                        ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
                        ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.grey),
                        ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ]
                )
            )
            story.append(table)
        if report.sources_note:
            story += [Spacer(0, 8), Paragraph(esc(report.sources_note), st["small"])]
        return platypus_pdf(story, title=title, footer=title)
