"""Move logs, replay, adjudication and the table page of events on other rulesets."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from games.engine import Position, get_ruleset, remaining_distance, replay, selfplay_game
from games.selectors import game_state, table_rules
from games.selectors.adjudication import adjudication_proposal
from games.services.move_log import move_submit
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def play(game, moves):
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"client-{i:06d}", expected_seq=i)


@pytest.mark.parametrize("name", ["rulebook", "fr"])
def test_a_whole_game_on_another_ruleset_is_logged_and_replayed(name):
    game = GameFactory(first_dealer="Y", round__tournament__ruleset=name)
    record = selfplay_game(11, get_ruleset(name), first_dealer="Y")
    play(game, record["moves"])
    state = game_state(game=game)
    expected = replay(record)
    assert state.winner == expected.winner is not None
    assert state.position == expected.position.to_json()


def test_rulebook_entries_read_own_15_and_the_proposal_measures_to_house():
    game = GameFactory(first_dealer="Y", round__tournament__ruleset="rulebook")
    record = selfplay_game(11, get_ruleset("rulebook"), first_dealer="Y")
    seen_15 = [i for i, text in enumerate(record["moves"]) if "15" in text.split(":", 1)[1]]
    assert seen_15, "the corpus game uses own 15"
    stop = seen_15[0] + 1
    play(game, record["moves"][:stop])
    state = game_state(game=game)
    assert state.position == replay(dict(record, moves=record["moves"][:stop])).position.to_json()
    proposal = adjudication_proposal(game=game)
    position = Position.from_json(state.position, get_ruleset("rulebook"))
    to_house = remaining_distance(position, get_ruleset("rulebook"))["teams"]
    assert {t: v.distance for t, v in proposal.teams.items()} == to_house


def test_a_dm2023_game_refuses_rulebook_codes():
    game = GameFactory(first_dealer="Y")
    with pytest.raises(ApplicationError) as err:
        move_submit(game=game, text="R 5: R15+5", client_id="client-000001", expected_seq=0)
    assert err.value.code == "N"


def test_table_rules_say_whether_the_device_can_go_on_offline():
    assert table_rules(ruleset="dm2023", lang="da")["offline_mirror"] is True
    assert table_rules(ruleset="rulebook", lang="da")["offline_mirror"] is False


def test_table_page_of_a_rulebook_event_says_it_must_stay_online(client):
    from django.urls import reverse

    from games.services.tokens import game_token

    game = GameFactory(first_dealer="Y", round__tournament__ruleset="fr")
    page = client.get(reverse("games:table", kwargs={"token": game_token(game=game)}))
    assert page.status_code == 200
    assert "online-notice" in page.content.decode()
    plain = GameFactory(first_dealer="Y")
    page = client.get(reverse("games:table", kwargs={"token": game_token(game=plain)}))
    assert "online-notice" not in page.content.decode()


def test_a_rulebook_event_adjudicates_by_its_own_w3_order():
    """Distance to House, then more pawns in House, whatever the event's setting says."""
    from games.selectors.adjudication import adjudication_order, adjudication_winner

    game = GameFactory(
        first_dealer="Y",
        round__tournament__ruleset="rulebook",
        round__tournament__adjudication="locked_then_distance",
    )
    assert adjudication_order(game.round.tournament) == "distance_to_house"
    record = selfplay_game(11, get_ruleset("rulebook"), first_dealer="Y")
    play(game, record["moves"][:60])
    assert adjudication_proposal(game=game).order == "distance_to_house"
    # Level on distance: more pawns in House wins; more pawns alone does not.
    level = {"YB": 40, "RG": 40}
    winner, _, why_da = adjudication_winner("distance_to_house", {"YB": 1, "RG": 2}, level)
    assert winner == "RG" and "i Hus" in why_da
    shorter = {"YB": 30, "RG": 40}
    assert adjudication_winner("distance_to_house", {"YB": 0, "RG": 3}, shorter)[0] == "YB"
    dm = GameFactory(first_dealer="Y", round__tournament__adjudication="locked_then_distance")
    assert adjudication_order(dm.round.tournament) == "locked_then_distance"
