from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonConfig(AppConfig):
    name = "season"
    verbose_name = _("Seasons")
