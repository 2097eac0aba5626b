"""Writing many rows at once: PostgreSQL's COPY, ``bulk_create`` elsewhere.

A season's rating history is tens of thousands of rows rewritten in one go;
COPY writes them several times faster than multi-row INSERTs. SQLite (the
embedded default) takes the ``bulk_create`` path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


def rows_insert(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (values in ``fields`` order) into ``model``'s table; the count."""
    if connection.vendor != "postgresql":
        objects = [model(**dict(zip(fields, row, strict=True))) for row in rows]
        model._default_manager.bulk_create(objects, batch_size=2000)
        return len(objects)
    from psycopg import sql

    meta = model._meta
    columns = [str(meta.get_field(name).column) for name in fields]  # type: ignore[union-attr]
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(meta.db_table), sql.SQL(", ").join(sql.Identifier(c) for c in columns)
    )
    count = 0
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def advisory_lock(key: int) -> None:
    """Serialise a job across processes until the transaction ends (PostgreSQL).

    SQLite needs none: its write transactions already run one at a time.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
