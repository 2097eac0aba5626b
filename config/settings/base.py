"""Settings shared by every environment.

The environment is read here and only here (django-environ). Without
``DATABASE_URL`` / ``REDIS_URL`` the system runs on an embedded default:
SQLite under ``var/``, a file-system Celery broker and a file cache, so
``make run`` needs no external service.
"""

from pathlib import Path

import environ

from core.schema_components import COMPONENTS as SCHEMA_COMPONENTS
from core.secret_key import read_fallbacks, read_secret_key
from core.venue import url_host

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()

# DJANGO_SECRET_KEY, else this installation's own random key in var/secret_key
# (made once by `make migrate`; core/secret_key.py). No key: refuse to start.
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or read_secret_key(VAR_DIR)
# Earlier keys, for a rotation: sessions and table links made under them stay
# valid, and printed table tokens are reproduced as they were (docs/security.md).
SECRET_KEY_FALLBACKS = env.list("DJANGO_SECRET_KEY_FALLBACKS", default=[]) + (
    [] if env.str("DJANGO_SECRET_KEY", default="") else read_fallbacks(VAR_DIR)
)
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
# Absolute base URL used in QR codes and printed links (no trailing slash).
# ``manage.py runall`` sets it (``--venue``: the address on the venue network).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# A printed QR code must open: the host the score sheets name is always allowed.
if url_host(SITE_URL) not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(url_host(SITE_URL))

INSTALLED_APPS = [
    # No models, templates or static files: listed (first, so its Danish wins
    # over Django's own for the same English) for core/locale, the catalogue of
    # core's and config's texts.
    "core",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "people",
    "tournament",
    "accounts",
    "games",
    "judging",
    "competition",
    "printing",
    "signup",
    "season",
    "ratings",
    "stats",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Refuses bodies over DATA_UPLOAD_MAX_MEMORY_SIZE with 413 before anything reads them.
    "config.request_limits.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's choice, else the event's language, else Danish (config/middleware.py).
    "config.middleware.VisitorLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    # A page view's ApplicationError (e.g. a malformed ?param=) becomes its bilingual page.
    "core.middleware.ApplicationErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
# A refused form in the site's style, in Danish and English (config/errors.py).
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'dmpartners.sqlite3'}")
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend, making VAR_DIR on the first connection (core/sqlite).
    DATABASES["default"]["ENGINE"] = "core.sqlite"
    # WAL lets the web server, the worker and beat share the file without
    # "database is locked" errors under normal use.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # The demo's passwords are printed in the README (accounts/demo.py).
    {"NAME": "accounts.validators.NotDemoPasswordValidator"},
]
# Refuse a login with one of the demo's published passwords: on for the venue
# network (runall --venue sets it for its processes) and always in production.
REFUSE_DEMO_PASSWORDS = env.bool("REFUSE_DEMO_PASSWORDS", default=False)
# The one-time code of the first-run setup, and an invitation link, live this long.
SETUP_CODE_MINUTES = 60
INVITATION_DAYS = 7
# A password reset link works for a day (Django's default is three).
PASSWORD_RESET_TIMEOUT = 24 * 3600
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:role_home"
LOGOUT_REDIRECT_URL = "tournament:home"

LANGUAGE_CODE = "da"
LANGUAGES = [("da", "Dansk"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]  # plus each app's own locale/ (Django finds those)
# Our choices on top of Django's Danish and English formats (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "Europe/Copenhagen"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = VAR_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Generated files (score sheets carry table tokens) are readable by the app's user only.
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700

# Uploads (CSV import, game records) are small; refuse anything large.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# An event's hand-over file, uploaded on the organiser's page (config/request_limits.py).
HANDOVER_UPLOAD_MAX_BYTES = env.int("HANDOVER_UPLOAD_MAX_BYTES", default=64 * 1024 * 1024)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON is read with bounded size and nesting and storable text (core/request.py);
    # bodies read outside a serializer must be JSON objects (core.request.json_object_body).
    "DEFAULT_PARSER_CLASSES": [
        "core.request.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "DM i Partners — tournament API",
    "DESCRIPTION": "Pairings, standings, table move logs, clocks and judging.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A refusal's per-field messages nest (core.schema_components).
    "APPEND_COMPONENTS": SCHEMA_COMPONENTS,
    # Swagger UI served from our own static files (no CDN, CSP-friendly).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Path values outside a converter's pattern never reach a view (Django
    # answers 404 before DRF): say so in the schema.
    "PATH_CONVERTER_OVERRIDES": {
        "slug": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"},
        "str": {"type": "string", "pattern": "^[^/]+$"},
    },
    # Several models have a "status"/"winner": name each choice set once.
    "ENUM_NAME_OVERRIDES": {
        "PairStatusEnum": "tournament.models.Pair.Status",
        "RoundStatusEnum": "tournament.models.Round.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "GameWinnerEnum": "games.models.Game.Winner",
        "ResultSourceEnum": "games.models.Game.ResultSource",
        "ClockStatusEnum": "games.selectors.clock.CLOCK_STATUS_LABELS",
        "TeamEnum": [("YB", "YB"), ("RG", "RG")],
        "SeatEnum": [("Y", "Y"), ("R", "R"), ("B", "B"), ("G", "G")],
        "CutDecisionEnum": [("tiebreak", "tiebreak"), ("seed", "seed"), ("playoff", "playoff")],
        "JudgeCallStatusEnum": "judging.models.JudgeCall.Status",
        "SignUpStatusEnum": "signup.models.SignUp.Status",
        "SeasonEventKindEnum": "season.models.SeriesEvent.Kind",
        "RoundKindEnum": "tournament.models.Round.Kind",
        "SeasonEventStatusEnum": "season.selectors.EVENT_STATUSES",
        "QualificationMethodEnum": "season.models.Series.Method",
        # Every ruleset of the engine's registry (core.ruleset_field, the event's choices).
        "RulesetEnum": "core.ruleset_field.ruleset_choices",
    },
}

# Content-Security-Policy: no inline script or style anywhere; all JS and CSS
# come from our static files.
CSP_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)

# Celery: Redis in production; without REDIS_URL a folder under var/celery
# (no external service). Kombu's own file-system transport can half-read a
# message and crash the worker, and loses what a killed worker had taken:
# config/filebroker.py publishes by atomic rename and hands a dead worker's
# messages back (docs/decisions.md).
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    # The transport makes its folders when it first uses them (not on import).
    _celery_dir = VAR_DIR / "celery"
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT = "config.filebroker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir / "queue"),
        "data_folder_out": str(_celery_dir / "queue"),
        # Broadcast (remote control) bindings; kombu's default is ./control
        # in the working directory, which would litter the checkout.
        "control_folder": str(_celery_dir / "control"),
        # The worker polls the folder; 0.25 s keeps judge alerts prompt.
        "polling_interval": 0.25,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# Automatic backups during the event (docs/operations.md): the folder (e.g. a
# USB stick; empty: off), every how many minutes, and how many files per event.
VENUE_BACKUP_DIR = env.str("VENUE_BACKUP_DIR", default="")
VENUE_BACKUP_MINUTES = env.float("VENUE_BACKUP_MINUTES", default=5.0)
VENUE_BACKUP_KEEP = env.int("VENUE_BACKUP_KEEP", default=24)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Safety net under the per-game ETA tasks (docs/clock.md); a sweep not
    # run within 5 s is dropped, the next one does its work.
    "judging-alerts-sweep": {
        "task": "judging.tasks.alerts_sweep",
        "schedule": 1.0,
        "options": {"expires": 5},
    },
    # Sign-up emails a lost task left unsent, waitlists with free places,
    # contact emails past their retention (signup.tasks.signup_sweep).
    "signup-sweep": {
        "task": "signup.tasks.signup_sweep",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # Automatic backups to the folder the organiser chose (a USB stick); a no-op
    # without VENUE_BACKUP_DIR (competition/services/auto_backup.py).
    "venue-auto-backups": {
        "task": "competition.tasks.auto_backups",
        "schedule": 60.0 * VENUE_BACKUP_MINUTES,
        "options": {"expires": 50.0 * VENUE_BACKUP_MINUTES},
    },
    # Proves beat and a worker are alive (GET /health/, config/health.py).
    "health-heartbeat": {
        "task": "config.health.heartbeat",
        "schedule": 10.0,
        "options": {"expires": 10},
    },
}
CELERY_IMPORTS = ["config.health"]

# Email: Django's email framework, configured by one URL (django-environ),
# e.g. EMAIL_URL=smtp+tls://user:password@host:587. Without it, each message
# is kept as a private .eml file in var/mail/ (core/mail.py): never printed
# to a log with its recipient and link.
if env.str("EMAIL_URL", default=""):
    vars().update({k: v for k, v in env.email_url("EMAIL_URL").items() if v is not None})
else:
    EMAIL_BACKEND = "core.mail.PrivateFileEmailBackend"
    EMAIL_FILE_PATH = str(VAR_DIR / "mail")
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="DM i Partners <noreply@localhost>")
# Sign-up contact emails are deleted this many days after the tournament's date.
SIGNUP_EMAIL_RETENTION_DAYS = env.int("SIGNUP_EMAIL_RETENTION_DAYS", default=30)

# Every log record is masked: no table token or short code reaches a log line.
LOGGING_CONFIG = "core.log_masking.configure_logging"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# Log every garbage collection of a web process that takes at least this many
# milliseconds (config/gc_tuning.py; the round benchmark sets it). 0: off.
GC_PAUSE_LOG_MS = env.float("GC_PAUSE_LOG_MS", default=0.0)
