"""Season pages: ``public`` (calendar, results, ranking, CSV) and ``organiser``."""
