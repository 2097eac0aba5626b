"""The walks' world is built once per module: each test still gets it as built.

``security_world`` (tests/conftest.py) shares one build of
tests/security/world.py among a module's tests. The first test here changes
everything a test can change (rows, the objects it was handed, the media
files, the cache, the table-token memo); the second, run after it in the same
module, finds the world as built. (Run alone, the second passes trivially;
the pair runs in file order, in one process.)
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction

from games.models import Game
from games.services import tokens
from printing.models import PrintJob
from tests.security.world import World, fingerprint
from tournament.models import Tournament

BUILT: dict[str, object] = {}


@pytest.fixture
def world(security_world: World) -> World:
    return security_world


def test_a_test_changes_the_world(world: World) -> None:
    BUILT["fingerprint"] = fingerprint()
    BUILT["main_name"] = world.main.name
    Tournament.objects.filter(pk=world.main.pk).update(name="Ændret")
    Game.objects.filter(pk=world.game_b.pk).delete()
    world.main.name = "Ændret i hukommelsen"
    world.objects["extra"] = "left behind"
    world.tokens["token"] = "forged"
    job = PrintJob.objects.get(pk=world.job.pk)
    job.file.delete(save=False)
    cache.set("left-behind", 1)
    tokens.game_from_token(token=world.token_for("token_closed"), for_write=False)
    assert tokens._read_memo._data
    # A test's own savepoints come and go without ending the module's transaction.
    with transaction.atomic():
        Tournament.objects.filter(pk=world.other.pk).update(name="Også ændret")


def test_the_next_test_finds_it_as_built(world: World) -> None:
    if not BUILT:
        pytest.skip("run with the test above it")
    assert not tokens._read_memo._data
    assert fingerprint() == BUILT["fingerprint"]
    assert Game.objects.filter(pk=world.game_b.pk).exists()
    assert world.main.name == BUILT["main_name"]
    assert "extra" not in world.objects
    assert world.tokens["token"] != "forged"
    assert tokens.game_from_token(token=world.tokens["token"], for_write=False) == world.game
    job = PrintJob.objects.get(pk=world.job.pk)
    with job.file.open("rb") as pdf:
        assert pdf.read().startswith(b"%PDF")
    assert cache.get("left-behind") is None
