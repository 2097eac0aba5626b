from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "printing"
    verbose_name = _("Printing")

    def ready(self) -> None:
        from printing.services import print_jobs_drop_on_anonymise
        from tournament.signals import players_anonymised

        players_anonymised.connect(
            print_jobs_drop_on_anonymise, dispatch_uid="printing_jobs_drop_on_anonymise"
        )
