"""HTML pages of a tournament: public pages and the organiser's desk.

``public`` needs no login; the ``organiser_*`` modules are for organisers of
the tournament in the URL (the gate is ``tournament.views.common``). All
writes go through the services.
"""
