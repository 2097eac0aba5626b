"""The table device's mirror of the engine (static/js/table/rules.js) against the engine.

Offline, the page plays queued entries with the mirror: the board, the seat
to move, the hand counts and the refusals it shows come from it. Here every
position of self-play games is given to both: each legal entry must do
exactly what the engine says (effect, next seat, hands, deal), and probes of
every card with every pawn the seat may tap, plus wrong cards, wrong seats
and discards, must be accepted or refused exactly as the engine does, with
the same rule and the same words in Danish and English.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from games.engine import (
    CARDS,
    SEATS,
    EngineError,
    GameState,
    index_effects,
    replay,
    selfplay_game,
)
from games.selectors import table_rules

SEEDS = (3, 7, 11)
PROBE_EVERY = 7  # positions; the probes of each are ~100 entries

pytestmark = pytest.mark.slow


def _state_json(state: GameState) -> dict[str, Any]:
    return {
        "position": state.position.to_json(),
        "to_move": state.to_move,
        "dealer": state.dealer,
        "deal_number": state.deal_number,
        "hand_sizes": dict(state.hand_sizes),
        "cards_seen": dict(state.cards_seen),
        "penalised": list(state.penalised),
        "winner": state.winner,
    }


def _probes(state: GameState, rng: random.Random) -> list[str]:
    """Entry texts a table may produce in ``state``: taps, typing, wrong seats, discards."""
    seat = state.to_move
    assert seat is not None
    position = state.position.to_json()
    colour = seat if not state.position.is_finished(seat) else SEATS[(SEATS.index(seat) + 2) % 4]
    own = [*sorted(set(position[colour])), colour + "S", colour + "H"]
    others = [loc for s in SEATS if s != colour for loc in sorted(set(position[s]))]
    texts = []
    for loc in own:
        texts += [f"{n}: {loc}+{n}" for n in ("2", "3", "5", "6", "9", "10", "12", "13", "8")]
        texts += [f"1: {loc}+1", f"1: {loc}+14", f"4: {loc}-4", f"11: {loc}+11"]
        texts += [f"7: {loc}+7", f"7: {loc}+3", f"5: {loc}+4", f"4: {loc}+4", f"1: {loc}+2"]
    for loc in rng.sample(others, min(2, len(others))):
        texts += [f"5: {loc}+5", f"4: {loc}-4", f"J: {loc}<>{own[0]}"]
    for card in ("8", "11", "13", "5", "7", "J"):
        texts.append(f"{card}: in")
    ring = [loc for loc in own + others if loc[1:].isdigit()]
    for a, b in itertools.pairwise(ring):
        texts.append(f"J: {b}<>{a}")
    texts += [f"J: {own[0]}<>{own[-1]}", "5: Y3+5>Y9"]
    hand = state.hand_sizes[seat]
    for size in (hand, hand + 1) if hand else ():
        cards = [rng.choice(CARDS) for _ in range(size)]
        # Two kinds over their count: the engine names whichever its set yields first.
        over = {c for c in cards if state.cards_seen[c] + cards.count(c) > 4}
        if len(over) <= 1:
            texts.append("X: " + " ".join(cards))
    entries = [f"{seat} {t}" for t in texts]
    wrong = SEATS[(SEATS.index(seat) + 1) % 4]
    entries.append(f"{wrong} 8: in")
    entries.append(f"{seat} 5 Y3+5")
    return entries


def _expect(state: GameState, entry: str) -> list[Any]:
    try:
        after, _events = state.play(entry)
    except EngineError as err:
        return ["err", err.rule, err.message_en, err.message_da]
    return ["ok", _state_json(after)]


def _cases() -> tuple[list[dict[str, Any]], list[list[Any]]]:
    """Every position of the games: its legal entries with their effects, the
    entry played next, and (every ``PROBE_EVERY``-th position) the probes."""
    rng = random.Random(13)
    states: list[dict[str, Any]] = []
    cases: list[list[Any]] = []
    for seed in SEEDS:
        record = selfplay_game(seed, first_dealer="Y")
        state = replay({**record, "moves": []}).state
        for index, move in enumerate(record["moves"]):
            k = len(states)
            states.append(_state_json(state))
            entries, effects = state.legal_entries_with_effects()
            cases.append([k, "", "entries", entries, index_effects(effects)])
            cases.append([k, move, *_expect(state, move)])
            if index % PROBE_EVERY == 0:
                cases += [[k, e, *_expect(state, e)] for e in _probes(state, rng)]
            state, _events = state.play(move)
    return states, cases


MIRROR = """async () => {
  const m = await import("/static/js/table/rules.js");
  const data = await (await fetch("/mirror-cases.json")).json();
  const [states, cases, catalogues, colours, rules] = data;
  const games = states.map((s) => m.gameFromState(s, rules));
  const out = [];
  const summary = (g) => {
    const s = m.stateOf(g);
    return JSON.stringify([s.position, s.to_move, s.dealer, s.deal_number, s.hand_sizes,
                           s.cards_seen, s.penalised, s.winner]);
  };
  for (const [k, text, kind, ...want] of cases) {
    let got;
    if (kind === "entries") {
      const [entries, effects] = want;
      const mine = m.legalEntries(games[k]);
      if (JSON.stringify(mine) !== JSON.stringify(entries)) {
        out.push({ state: k, got: mine, expected: entries });
      }
      const seat = states[k].to_move;
      for (const card of Object.keys(entries)) {
        entries[card].forEach((move, i) => {
          const effect = m.playEntry(games[k], seat + " " + move).effect;
          const expected = effects.effects[effects.by_card[card][i]];
          if (effect !== expected) out.push({ state: k, move, got: effect, expected });
        });
      }
      continue;
    }
    try {
      const r = m.playEntry(games[k], text);
      got = ["ok", summary(r.game)];
    } catch (e) {
      if (!(e instanceof m.RuleError)) throw e;
      const en = m.message(e, catalogues.en, colours), da = m.message(e, catalogues.da, colours);
      got = ["err", en.rule, en.text, da.text];
    }
    const expected = kind === "ok" ? ["ok", summary(m.gameFromState(want[0], rules))]
                                   : ["err", ...want];
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      out.push({ text, state: k, got, expected });
      if (out.length >= 20) break;
    }
  }
  return { checked: cases.length, mismatches: out };
}"""


def test_the_mirror_plays_and_refuses_exactly_as_the_engine(page, live_server):
    states, cases = _cases()
    kinds = {c[2] for c in cases}
    assert kinds == {"entries", "ok", "err"}
    assert len(states) > 1000
    assert sum(1 for c in cases if c[2] == "err") > 5000
    rules = {lang: table_rules(ruleset="dm2023", lang=lang) for lang in ("en", "da")}
    catalogues = {lang: rules[lang]["messages"] for lang in rules}
    data = json.dumps([states, cases, catalogues, rules["da"]["colours"], rules["da"]])
    # Served to the page as one JSON body: as evaluate() arguments it took 30 s.
    page.route(
        "**/mirror-cases.json",
        lambda route: route.fulfill(body=data, content_type="application/json"),
    )
    page.goto(f"{live_server.url}/t/")
    result = page.evaluate(MIRROR)
    assert result["checked"] == len(cases)
    assert result["mismatches"] == []
