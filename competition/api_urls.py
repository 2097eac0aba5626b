"""REST routes of tournaments, pairs, rounds and results (mounted under /api/)."""

from rest_framework.routers import SimpleRouter

from competition.api import GameResultViewSet, PairViewSet, RoundViewSet, TournamentViewSet

router = SimpleRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("pairs", PairViewSet, basename="pair")
router.register("rounds", RoundViewSet, basename="round")
router.register("games", GameResultViewSet, basename="game-result")

urlpatterns = router.urls
