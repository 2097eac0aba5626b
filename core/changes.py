"""An edit's tail: store the fields that changed, and record them once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import models


def changes_save(
    *,
    instance: models.Model,
    values: Mapping[str, Any],
    audit: Callable[[dict[str, str]], object],
) -> dict[str, Any]:
    """Save the ``values`` that differ from ``instance``'s, then ``audit`` them as text.

    Returns the changed values; when nothing differs nothing is saved or audited.
    """
    changed = {key: value for key, value in values.items() if getattr(instance, key) != value}
    if not changed:
        return changed
    for key, value in changed.items():
        setattr(instance, key, value)
    instance.save(update_fields=list(changed))
    audit({key: str(value) for key, value in changed.items()})
    return changed
