"""REST routes of the tournament app (mounted under /api/)."""

from rest_framework.routers import SimpleRouter

from tournament.api import GameResultViewSet, PairViewSet, RoundViewSet, TournamentViewSet

router = SimpleRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("pairs", PairViewSet, basename="pair")
router.register("rounds", RoundViewSet, basename="round")
router.register("games", GameResultViewSet, basename="game-result")

urlpatterns = router.urls
