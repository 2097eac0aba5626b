"""What the tournament app announces to apps built on it.

``players_anonymised`` (``tournaments``: the events whose players were
renamed) is sent inside the transaction of an anonymisation: an app that
stored a document made from the old names (printing's PDFs) drops it.
"""

from __future__ import annotations

from django.dispatch import Signal

players_anonymised = Signal()
