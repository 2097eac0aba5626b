"""Judging: alerts, judge calls, rulings and penalties, refused moves."""

from judging.models.alert import Alert
from judging.models.call import JudgeCall
from judging.models.ruling import MoveRefusal, Ruling

__all__ = ["Alert", "JudgeCall", "MoveRefusal", "Ruling"]
