"""HTML pages of the tournament app: public pages and the organiser's desk.

``public`` needs no login; the ``organiser_*`` modules are for organisers of
the tournament in the URL. All writes go through the services.
"""
