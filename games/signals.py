"""What the games app announces to apps built on it (ratings, statistics).

Sent inside the transaction that changed the result; a receiver that does
work later schedules it with ``transaction.on_commit``. The games app does
not know who listens.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent with ``game`` when a result is recorded, corrected or cleared.
game_result_changed = Signal()
