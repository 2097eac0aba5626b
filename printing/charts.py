"""Pictures as SVG, drawn by pygal: distance over a game, rating curves, card usage.

Each function returns the SVG text. Pages show it as an ``<img>`` with a
``data:`` address (``svg_data_uri``): the site's Content-Security-Policy
forbids inline styles, and an SVG loaded as an image keeps its own. PDFs
turn the same text into a reportlab drawing (``stats.pdf``). Kept in ``printing``
because both the rating pages and the statistics pages draw with it.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence

import pygal
from pygal.style import Style

# The board's colours for the two teams; greys for everything else.
_STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#222",
    foreground_strong="#111",
    foreground_subtle="#888",
    colors=("#d4a106", "#c0392b", "#2c6fbb", "#2e8b57", "#7a4fa0", "#555555"),
    font_family="DejaVu Sans, Arial, sans-serif",
    # Large enough to read when a phone shows the 640-wide picture at 360 px.
    title_font_size=22,
    label_font_size=15,
    major_label_font_size=15,
    legend_font_size=17,
    value_font_size=15,
)
_COMMON = {
    "style": _STYLE,
    "width": 640,
    "height": 360,
    "js": [],  # no script: the picture is an image, and scripts would need a CDN
    "disable_xml_declaration": True,
    "legend_at_bottom": True,
    "show_dots": False,
    "explicit_size": True,
}


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def _render(chart: pygal.graph.graph.Graph) -> str:
    return str(chart.render(is_unicode=True))


def distance_chart(
    distance: Sequence[tuple[int, int]], *, title: str, teams: tuple[str, str], x_title: str
) -> str:
    """Remaining distance of both teams after each entry (entry 0 is the start)."""
    chart = pygal.Line(
        **_COMMON, title=title, x_title=x_title, show_minor_x_labels=False, truncate_label=-1
    )
    chart.x_labels = [str(i) for i in range(len(distance))]
    chart.x_labels_major_every = max(1, len(distance) // 10)
    chart.add(teams[0], [d[0] for d in distance])
    chart.add(teams[1], [d[1] for d in distance])
    return _render(chart)


def locked_chart(
    locked: Sequence[tuple[int, int]], *, title: str, teams: tuple[str, str], x_title: str
) -> str:
    """Locked pawns of both teams after each entry."""
    chart = pygal.Line(**_COMMON, title=title, x_title=x_title, show_minor_x_labels=False)
    chart.x_labels = [str(i) for i in range(len(locked))]
    chart.x_labels_major_every = max(1, len(locked) // 10)
    chart.add(teams[0], [d[0] for d in locked])
    chart.add(teams[1], [d[1] for d in locked])
    return _render(chart)


def locked_progress_chart(lines: Mapping[str, Sequence[float]], *, title: str, x_title: str) -> str:
    """Average locked pawns after 0, 10, ... 100 % of the games, one line per team."""
    chart = pygal.Line(**{**_COMMON, "show_dots": True}, title=title, x_title=x_title)
    longest = max((len(c) for c in lines.values()), default=0)
    steps = max(1, longest - 1)
    chart.x_labels = [f"{100 * i // steps} %" for i in range(longest)]
    for name, values in lines.items():
        chart.add(name, [round(v, 2) for v in values])
    return _render(chart)


def cards_chart(cards: Mapping[str, int], *, title: str, label: str) -> str:
    """How often each card kind was played."""
    chart = pygal.Bar(**{**_COMMON, "show_legend": False}, title=title)
    chart.x_labels = list(cards)
    chart.add(label, list(cards.values()))
    return _render(chart)


def cards_by_seat_chart(lines: Mapping[str, Mapping[str, int]], *, title: str) -> str:
    """How often each card kind was played, one bar per seat (in the board's colours:
    the lines come Yellow, Red, Blue, Green)."""
    chart = pygal.Bar(**_COMMON, title=title)
    chart.x_labels = list(next(iter(lines.values()), {}))
    for name, cards in lines.items():
        chart.add(name, list(cards.values()))
    return _render(chart)


def rating_chart(curves: Mapping[str, Sequence[float]], *, title: str, x_title: str) -> str:
    """Rating (ordinal) after each game, one line per player."""
    chart = pygal.Line(**{**_COMMON, "show_dots": True}, title=title, x_title=x_title)
    longest = max((len(c) for c in curves.values()), default=0)
    chart.x_labels = [str(i) for i in range(1, longest + 1)]
    for name, curve in curves.items():
        chart.add(name, [round(v, 2) for v in curve])
    return _render(chart)
