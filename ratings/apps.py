from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from games.signals import game_result_changed, results_replaced
        from people.models import Person
        from people.page_version import people_version_bump_on_commit
        from people.signals import people_changed
        from ratings.services import (
            ratings_people_changed,
            ratings_result_changed,
            ratings_results_replaced,
            ratings_tournament_changed,
        )
        from tournament.signals import tournament_settings_changed

        game_result_changed.connect(ratings_result_changed, dispatch_uid="ratings_result_changed")
        people_changed.connect(ratings_people_changed, dispatch_uid="ratings_people_changed")
        results_replaced.connect(ratings_results_replaced, dispatch_uid="ratings_results_replaced")
        # Only games of rounds everyone sees are rated: publishing or unpublishing re-rates.
        tournament_settings_changed.connect(
            ratings_tournament_changed, dispatch_uid="ratings_tournament_changed"
        )
        # Names, clubs, consent and merges are on the rating pages: their cache key follows.
        for signal in (post_save, post_delete):
            signal.connect(
                people_version_bump_on_commit,
                sender=Person,
                dispatch_uid=f"ratings_people_{signal}",
            )
        people_changed.connect(people_version_bump_on_commit, dispatch_uid="ratings_people_version")
