"""Writing many rows at once: PostgreSQL's COPY, ``bulk_create`` elsewhere.

A season's rating history is tens of thousands of rows rewritten in one go;
COPY writes them several times faster than multi-row INSERTs. SQLite (the
embedded default) runs one prepared INSERT over all rows, each value adapted
by its model field as the ORM would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


def rows_insert(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (values in ``fields`` order) into ``model``'s table; the count."""
    meta = model._meta
    model_fields = [meta.get_field(name) for name in fields]
    columns = [str(field.column) for field in model_fields]  # type: ignore[union-attr]
    if connection.vendor != "postgresql":
        return _rows_executemany(meta.db_table, columns, model_fields, rows)
    from psycopg import sql

    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(meta.db_table), sql.SQL(", ").join(sql.Identifier(c) for c in columns)
    )
    count = 0
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def _rows_executemany(
    table: str, columns: list[str], model_fields: list[Any], rows: Iterable[Sequence[Any]]
) -> int:
    """One prepared INSERT run for every row: no model instances (bulk_create built
    one per row, most of the time on SQLite), each value adapted by its field."""
    quote = connection.ops.quote_name
    # Table and column names come from the model, quoted; values are parameters.
    statement = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608
        quote(table), ", ".join(quote(c) for c in columns), ", ".join(["%s"] * len(columns))
    )
    prepare = [field.get_db_prep_save for field in model_fields]
    values = [
        [to_db(value, connection) for to_db, value in zip(prepare, row, strict=True)]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(statement, values)
    return len(values)


def advisory_lock(key: int) -> None:
    """Serialise a job across processes until the transaction ends (PostgreSQL).

    SQLite needs none: its write transactions already run one at a time.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
