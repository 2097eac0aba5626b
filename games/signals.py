"""What the games app announces to the apps above it.

The games app sits below judging (docs/architecture.md): a table's clock and
move log must not import the judges' services. Instead they send these
signals, and judging connects its receivers when it starts
(``judging.apps.JudgingConfig.ready``). Receivers run synchronously inside
the sender's transaction, exactly as a direct call would, and their
exceptions propagate to the sender.
"""

from __future__ import annotations

from django.dispatch import Signal

# A clock was started, paused, resumed, extended, stopped or ran out.
# Arguments: ``tournament_id``.
clock_changed = Signal()

# A clock mark (``kind``: "alert" or "limit") of ``game_id`` fell due
# (the Celery task fired). A receiver returns what it raised, or None.
clock_mark_reached = Signal()

# The engine refused a table's entry. Arguments: ``game``, ``text`` (the raw
# entry), ``rule`` (the rule id), ``message_en``, ``message_da``.
move_refused = Signal()
