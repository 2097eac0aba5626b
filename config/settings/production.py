"""Production settings: everything secret or site-specific comes from the environment."""

from core.venue import url_host

from .base import *
from .base import SITE_URL, env

DEBUG = False
SECRET_KEY = env.str("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
if url_host(SITE_URL) not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(url_host(SITE_URL))
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
# Rate limits key on the client IP: how many reverse proxies append to
# X-Forwarded-For in front of the app (0: use REMOTE_ADDR). docs/security.md
RATELIMIT_PROXY_COUNT = env.int("DJANGO_RATELIMIT_PROXY_COUNT", default=1)
# The demo's passwords are published in the README: never a way in here.
REFUSE_DEMO_PASSWORDS = True
