import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_application = get_asgi_application()

# As in wsgi.py: load what the first requests would, then keep it out of the
# garbage collector's full walks. (The public-page fast path is WSGI only.)
from config.gc_tuning import freeze_startup_objects  # noqa: E402 - needs Django set up
from config.push_channels import CHANNELS  # noqa: E402
from core.push.stream import PATH_PREFIX, PushApp  # noqa: E402

push_application = PushApp(CHANNELS)


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    """Pushed changes (``/push/…``) outside Django's middleware; everything else through Django."""
    if scope["type"] == "http" and scope["path"].startswith(PATH_PREFIX):
        await push_application(scope, receive, send)
    else:
        await django_application(scope, receive, send)


freeze_startup_objects()
