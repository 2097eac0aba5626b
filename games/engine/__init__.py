"""Pure-Python rules engine for Partners (rulesets ``dm2023``, ``rulebook``, ``fr``, ``duo``).

Spec: ``shared/rules/RULES.md`` (rule ids) and ``shared/rules/NOTATION.md``
(positions, moves, game records, command line). Never imports Django.

    >>> from games.engine import Position, legal_moves, apply_move
    >>> p = Position.initial()
    >>> [str(m) for m in legal_moves(p, "Y", "8")]
    ['8: in']
    >>> apply_move(p, "Y", "8: in").position.pawns("Y")
    ['YH', 'YH', 'YH', 'YS']
"""

from __future__ import annotations

from .board import CARDS, COLOUR_DA, COLOUR_EN, SEATS, TEAMS, partner_of, team_of
from .distance import adjudicate, remaining_distance, team_standing
from .duo.game import DuoState
from .duo.position import DuoPosition
from .effects import index_effects, parse_effect
from .errors import MESSAGES as ERROR_MESSAGES
from .errors import EngineError, IllegalMoveError, NotationError, PositionError
from .facade import (
    canonical_move,
    initial_position,
    initial_state,
    position_from_json,
    position_legal_moves,
    position_play,
)
from .game import (
    AnyPosition,
    AnyState,
    GameState,
    ReplayError,
    ReplayResult,
    ReplayStep,
    replay_steps,
)
from .judge import JudgeEntry, entry_marks, format_judge_entry, parse_judge_entry, void_check
from .notation import Discard, Move, format_move, parse_entry, parse_move
from .position import Position
from .rules import Applied, Event, apply_move, legal_moves
from .ruleset import DM2023, DUO, FR, RULEBOOK, Ruleset, get_ruleset, ruleset_names
from .variant import (
    VARIANTS,
    DuoVariant,
    PartnersVariant,
    Variant,
    find_variant,
    register_variant,
    replay,
    selfplay_game,
    variant_of,
)

__all__ = [
    "CARDS",
    "COLOUR_DA",
    "COLOUR_EN",
    "DM2023",
    "DUO",
    "ERROR_MESSAGES",
    "FR",
    "RULEBOOK",
    "SEATS",
    "TEAMS",
    "VARIANTS",
    "AnyPosition",
    "AnyState",
    "Applied",
    "Discard",
    "DuoPosition",
    "DuoState",
    "DuoVariant",
    "EngineError",
    "Event",
    "GameState",
    "IllegalMoveError",
    "JudgeEntry",
    "Move",
    "NotationError",
    "PartnersVariant",
    "Position",
    "PositionError",
    "ReplayError",
    "ReplayResult",
    "ReplayStep",
    "Ruleset",
    "Variant",
    "adjudicate",
    "apply_move",
    "canonical_move",
    "entry_marks",
    "find_variant",
    "format_judge_entry",
    "format_move",
    "get_ruleset",
    "index_effects",
    "initial_position",
    "initial_state",
    "legal_moves",
    "parse_effect",
    "parse_entry",
    "parse_judge_entry",
    "parse_move",
    "partner_of",
    "position_from_json",
    "position_legal_moves",
    "position_play",
    "register_variant",
    "remaining_distance",
    "replay",
    "replay_steps",
    "ruleset_names",
    "selfplay_game",
    "team_of",
    "team_standing",
    "variant_of",
    "void_check",
]
