"""What the games app announces to the apps above it.

The games app sits below judging, ratings and statistics
(docs/architecture.md): a table's clock, move log and results must not import
their services. Instead they send these signals, and those apps connect their
receivers when they start (``AppConfig.ready``). Receivers run synchronously
inside the sender's transaction, exactly as a direct call would, and their
exceptions propagate to the sender; a receiver that does work later schedules
it with ``transaction.on_commit``.
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

# A result was recorded, corrected or cleared. Arguments: ``game``.
game_result_changed = Signal()

# Many games' results were replaced at once (an event returned from a venue
# laptop). Arguments: ``tournament_id``.
results_replaced = Signal()

# The hall screen wants the open judge calls of a round. Arguments:
# ``round_id``. A receiver returns ``{game_id: "open" | "taken"}``.
hall_calls_wanted = Signal()

# The table device wants the judge's rulings on its game, to tell the players
# what changed and why. Arguments: ``game``. A receiver returns a list of
# ``games.selectors.TableRuling`` (id, kind, reason, judge, log, at), newest last.
table_rulings_wanted = Signal()

# A game's replay wants every ruling given at it, to show each where it
# happened. Arguments: ``game``. A receiver returns a list of
# ``games.selectors.ReplayRuling`` (kind, label, reason, log) in the order
# they were given; no judge's name (the replay is public).
replay_rulings_wanted = Signal()
