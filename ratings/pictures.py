"""The rating curves as a picture: each person's rating after each game."""

from __future__ import annotations

from django.utils.translation import gettext as _

from people.models import Person
from printing.charts import rating_chart
from ratings.selectors import rating_curves


def rating_curves_svg(people: list[Person]) -> str:
    curves = rating_curves(people=people)
    return rating_chart(
        {p.name: [v for _, v in curves[p.pk]] for p in people},
        title=_("Rating after each game"),
        x_title=_("Games"),
    )
