import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_asgi_application()

# As in wsgi.py: load what the first requests would, then keep it out of the
# garbage collector's full walks. (The public-page fast path is WSGI only.)
from config.gc_tuning import freeze_startup_objects  # noqa: E402 - needs Django set up

freeze_startup_objects()
