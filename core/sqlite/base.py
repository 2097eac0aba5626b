"""Django's SQLite backend, making the database file's folder on the first connection.

The embedded default keeps its database under ``VAR_DIR``, which may name a
folder that does not exist yet (a fresh checkout, a second event on the same
machine). SQLite cannot create a file in a missing folder; Django's backend
does not make it, and settings do not create folders on import. So the
folder is made here, when a connection is first opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        name = str(conn_params.get("database", ""))
        if name and name != ":memory:" and not name.startswith("file:"):
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        return super().get_new_connection(conn_params)
