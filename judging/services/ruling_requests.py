"""What a judge asks for, one frozen value per kind of ruling, checked where it enters.

``judging.serializers`` makes these from a request (the API's JSON, the
review page's form): each field's own checks (a reason, entry numbers, a seat
letter, a rule id, the position read in the game's ruleset) are done by then.
``judging.services.rulings.ruling_make`` takes one and keeps the rules that
need the game: the entries its log holds, the seats of its ruleset, whether
it is finished or timed out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from games.engine import AnyPosition

RulingKind = Literal["uphold", "void", "position", "penalty", "warning", "result", "adjudication"]


@dataclass(frozen=True, kw_only=True)
class RulingRequest:
    """What every ruling carries: why, and the judge call it answers (closed unless kept open)."""

    kind: ClassVar[RulingKind]
    reason: str
    call: int | None = None
    keep_call_open: bool = False


@dataclass(frozen=True, kw_only=True)
class UpholdRequest(RulingRequest):
    kind: ClassVar[RulingKind] = "uphold"
    seq: int
    rule: str = ""


@dataclass(frozen=True, kw_only=True)
class VoidRequest(RulingRequest):
    """Void ``seq`` and ``also``; ``keep`` later entries, with ``position`` corrected."""

    kind: ClassVar[RulingKind] = "void"
    seq: int
    also: tuple[int, ...] = ()
    keep: tuple[int, ...] = ()
    position: AnyPosition | None = None
    rule: str = ""


@dataclass(frozen=True, kw_only=True)
class PositionRequest(RulingRequest):
    kind: ClassVar[RulingKind] = "position"
    position: AnyPosition


@dataclass(frozen=True, kw_only=True)
class PenaltyRequest(RulingRequest):
    kind: ClassVar[RulingKind] = "penalty"
    penalty: str
    seat: str
    pawn: str = ""
    move: str = ""


@dataclass(frozen=True, kw_only=True)
class WarningRequest(RulingRequest):
    kind: ClassVar[RulingKind] = "warning"
    seat: str
    rule: str = ""


@dataclass(frozen=True, kw_only=True)
class ResultRequest(RulingRequest):
    kind: ClassVar[RulingKind] = "result"
    winner: str


@dataclass(frozen=True, kw_only=True)
class AdjudicationRequest(RulingRequest):
    """The engine's proposal confirmed, or overridden (a reason is then needed)."""

    kind: ClassVar[RulingKind] = "adjudication"
    winner: str
