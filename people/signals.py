"""What the people app announces to apps built on it (ratings).

Sent inside the transaction of a merge or its undoing, with ``persons``: the
results those people played now belong to someone else. A receiver that
rebuilds data schedules the work with ``transaction.on_commit``.
"""

from __future__ import annotations

from django.dispatch import Signal

people_changed = Signal()
