import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_application = get_wsgi_application()

from tournament.public_fastpath import PublicPageFastPath  # noqa: E402 - needs Django set up

application = PublicPageFastPath(django_application)
