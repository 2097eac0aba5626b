"""Small helpers for building positions and reading answers in tests."""

from __future__ import annotations

from games.engine import SEATS, Position, apply_move, legal_moves


def P(**colours: list[str]) -> Position:
    """A position; each colour's unlisted pawns are in its start circle."""
    return Position.from_json(
        {s: list(colours.get(s, [])) + [s + "H"] * (4 - len(colours.get(s, []))) for s in SEATS}
    )


def legal(position: Position, seat: str, card: str) -> list[str]:
    return [str(m) for m in legal_moves(position, seat, card)]


def after(position: Position, seat: str, move: str) -> dict[str, list[str]]:
    return apply_move(position, seat, move).position.to_json()


def events(position: Position, seat: str, move: str) -> list[tuple[str, str, str]]:
    return [(e.type, e.colour, e.at) for e in apply_move(position, seat, move).events]
