import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_application = get_wsgi_application()

from config.gc_tuning import freeze_startup_objects  # noqa: E402 - needs Django set up
from config.live_poll import LivePollFastPath  # noqa: E402
from config.public_fastpath import PublicPageFastPath  # noqa: E402

# Spectators' polls from their shared copies first, then the cached public pages.
application = LivePollFastPath(PublicPageFastPath(django_application), django_application)
freeze_startup_objects()
