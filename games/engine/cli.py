"""The JSON command line (NOTATION.md "Command line").

One JSON request on standard input, one JSON answer on standard output.
Exit 0 for every well-formed request (an illegal move is a normal answer),
2 with ``{"error": …}`` for malformed input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .errors import EngineError, NotationError
from .game import AnyPosition
from .variant import VARIANTS, Variant, find_variant

USAGE = "usage: python -m games.engine legal|apply|replay|batch|bench  (JSON request on stdin)"


class Malformed(Exception):
    """A request that cannot be answered (exit 2)."""

    def __init__(self, error: dict[str, str]) -> None:
        super().__init__(error.get("message", ""))
        self.error = error


def _bad(en: str, da: str) -> Malformed:
    return Malformed({"rule": "N", "message": en, "message_da": da})


def _field(req: Any, name: str) -> Any:
    if not isinstance(req, dict):
        raise _bad("The request must be a JSON object.", "Forespørgslen skal være et JSON-objekt.")
    if name not in req:
        raise _bad(f"The field {name!r} is missing.", f"Feltet {name!r} mangler.")
    return req[name]


def _variant(req: Any) -> Variant:
    name = _field(req, "ruleset")
    try:
        return find_variant(name)
    except ValueError:
        known = ", ".join(VARIANTS)
        raise _bad(
            f"Unknown ruleset {name!r} (known: {known}).",
            f"Ukendt regelsæt {name!r} (kendte: {known}).",
        ) from None


def _position(req: Any, variant: Variant) -> AnyPosition:
    try:
        return variant.position_from_json(_field(req, "position"))
    except EngineError as e:
        raise Malformed(e.to_json()) from None


def _seat(req: Any, variant: Variant) -> str:
    seat = _field(req, "seat")
    if seat not in variant.seats:
        en, da = variant.unknown_seat
        raise _bad(en.format(seat=seat), da.format(seat=seat))
    return str(seat)


def cmd_legal(req: Any) -> dict[str, Any]:
    """``{"ruleset", "position", "seat", "card"}`` -> ``{"moves": [...]}``."""
    variant = _variant(req)
    position = _position(req, variant)
    seat = _seat(req, variant)
    card = _field(req, "card")
    if card not in variant.deck:
        en, da = variant.unknown_card
        raise _bad(en.format(card=card), da.format(card=card))
    return {"moves": variant.legal_moves(position, seat, card)}


def cmd_apply(req: Any) -> dict[str, Any]:
    """``{"ruleset", "position", "seat", "move"}`` -> ok/position/events or ok false/error.

    ``move`` may be a discard ``X: …``: D4 is checked against the position,
    which comes back unchanged.
    """
    variant = _variant(req)
    position = _position(req, variant)
    seat = _seat(req, variant)
    move = _field(req, "move")
    try:
        return variant.apply_answer(position, seat, move)
    except NotationError as e:
        raise Malformed(e.to_json()) from None


def cmd_replay(req: Any) -> dict[str, Any]:
    """A game record -> the NOTATION.md replay answer."""
    if not isinstance(req, dict):
        raise _bad("A game record must be a JSON object.", "Et spil skal være et JSON-objekt.")
    variant = _variant(req)
    try:
        return variant.replay_answer(req)
    except EngineError as e:
        raise Malformed(e.to_json()) from None


COMMANDS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "legal": cmd_legal,
    "apply": cmd_apply,
    "replay": cmd_replay,
}


def _answer(cmd: Callable[[Any], dict[str, Any]], text: str) -> tuple[int, dict[str, Any]]:
    try:
        req = json.loads(text)
    except ValueError as e:
        return 2, {
            "error": {
                "rule": "N",
                "message": f"Bad JSON: {e}.",
                "message_da": f"Ugyldig JSON: {e}.",
            }
        }
    try:
        return 0, cmd(req)
    except Malformed as e:
        return 2, {"error": e.error}


def _batch_line(line: str) -> dict[str, Any]:
    try:
        req = json.loads(line)
    except ValueError as e:
        return {
            "error": {
                "rule": "N",
                "message": f"Bad JSON: {e}.",
                "message_da": f"Ugyldig JSON: {e}.",
            }
        }
    name = req.get("cmd") if isinstance(req, dict) else None
    cmd = COMMANDS.get(name) if isinstance(name, str) else None
    if cmd is None:
        return {
            "error": {
                "rule": "N",
                "message": 'Each line needs "cmd": legal, apply or replay.',
                "message_da": 'Hver linje skal have "cmd": legal, apply eller replay.',
            }
        }
    try:
        return cmd(req)
    except Malformed as e:
        return {"error": e.error}


def _dump(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n")


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run one command; returns the exit code."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    if len(argv) < 1 or argv[0] not in (*COMMANDS, "batch", "bench"):
        print(USAGE, file=sys.stderr)
        _dump({"error": {"rule": "N", "message": USAGE, "message_da": USAGE}}, out)
        return 2
    name = argv[0]
    if name == "bench":
        from .bench import run_bench

        games = int(argv[argv.index("--games") + 1]) if "--games" in argv else None
        result = run_bench() if games is None else run_bench(games=games)
        out.write(json.dumps(result, indent=2) + "\n")
        return 0
    if name == "batch":
        for line in inp:
            if line.strip():
                _dump(_batch_line(line), out)
                out.flush()
        return 0
    code, answer = _answer(COMMANDS[name], inp.read())
    _dump(answer, out)
    return code
