"""HTML pages of the tournament app: the front page, where a login lands,
the language switch, and the organiser gate (``common``) every organiser page
shares. The pages of a tournament in play are ``competition.views``.
"""
