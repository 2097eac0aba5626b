from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    """A tournament in play: rounds and their games, standings, the bracket, the
    podium, and the pages and APIs that show them. It sits above ``games`` and
    ``judging``; the events, roles and pairs it plays with are ``tournament``'s.
    """

    name = "competition"
    verbose_name = _("Competition")
