from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.signals import game_result_changed
        from people.signals import people_changed
        from ratings.services import ratings_people_changed, ratings_result_changed

        game_result_changed.connect(ratings_result_changed, dispatch_uid="ratings_result_changed")
        people_changed.connect(ratings_people_changed, dispatch_uid="ratings_people_changed")
