"""What the tournament app announces to the apps built on it.

``tournament_settings_changed`` is sent inside the transaction of
``tournament_update`` when settings changed, with ``tournament`` and
``fields`` (the names of the changed settings). Publishing or unpublishing
an event changes which of its games count outside it (ratings count the
games of rounds everyone sees), and its date changes their order; a receiver
that rebuilds data schedules the work with ``transaction.on_commit``.

``players_anonymised`` (``tournaments``: the events whose players were
renamed) is sent inside the transaction of an anonymisation: an app that
stored a document made from the old names (printing's PDFs) drops it.
"""

from __future__ import annotations

from django.dispatch import Signal

tournament_settings_changed = Signal()
players_anonymised = Signal()
