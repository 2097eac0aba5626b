"""Partners DUO (docs/rulesets/duo.md): two players, four home areas, 3 pawns each.

DUO has its own players, pawns and cards, so it has its own small engine
beside the four-seat one: :class:`DuoPosition`, :class:`DuoMove`,
:func:`legal_moves`, :func:`apply_move`, :func:`replay`, :func:`selfplay_game`
and :func:`remaining_distance`. Rule ids are those of the DUO reading.

Areas, clockwise: ``YK`` (yellow knob pawns), ``RK``, ``YO`` (yellow hole
pawns), ``RO``. Player ``Y`` owns ``YK`` and ``YO``, player ``R`` owns ``RK``
and ``RO`` (B1). Location codes: ``YKH`` home, ``YKS`` start field,
``YK1``…``YK{n}`` the area's track fields, ``YKM1``…``YKM3`` goal circles
(``M1`` innermost). Internally a location is ``area * (n + 5) + k`` with k = 0
(H), 1 (S), 2..n+1 (fields), n+2..n+4 (M1..M3); a pawn of area a has a path
index: 0 its start field, 1..4n the track, 4n+1..4n+3 = M3, M2, M1.
Plain code: the split-4 is searched by playing parts on copies.
"""

from .board import AREAS, GOALS, PAWNS, PLAYERS, Layout, layout
from .game import DuoApplied, DuoGame, apply_move, legal_moves, remaining_distance
from .moves import DuoMove, parse_move
from .position import DuoPosition
from .record import DuoReplay, replay, selfplay_game

__all__ = [
    "AREAS",
    "GOALS",
    "PAWNS",
    "PLAYERS",
    "DuoApplied",
    "DuoGame",
    "DuoMove",
    "DuoPosition",
    "DuoReplay",
    "Layout",
    "apply_move",
    "layout",
    "legal_moves",
    "parse_move",
    "remaining_distance",
    "replay",
    "selfplay_game",
]
