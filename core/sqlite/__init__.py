"""Django's SQLite backend, making the database file's folder when it first connects."""
