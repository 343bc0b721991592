"""One settings module, read from the environment with safe embedded defaults.

With nothing set, the site runs in *embedded mode*: SQLite in the project folder, the in-memory
channel layer, local-memory cache, e-mail printed to the console, DEBUG on. Production sets at least
SECRET_KEY, DEBUG=false, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL (see README, "Production").
"""
from __future__ import annotations

from pathlib import Path

from westeros.env import (
    ConfigurationError,
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
EMBEDDED = not DATABASE_URL and not REDIS_URL

# DEBUG is on by default only in embedded mode; a deployment with real services defaults to off.
DEBUG = env_bool("DEBUG", EMBEDDED)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ConfigurationError("SECRET_KEY must be set when DEBUG is off (see README, 'Production').")
    SECRET_KEY = "insecure-embedded-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "games",
    "tournaments",
    "ratings",
    "chat",
    "notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "westeros.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "westeros.urls"
WSGI_APPLICATION = "westeros.wsgi.application"
ASGI_APPLICATION = "westeros.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# PostgreSQL: a connection pool of DB_POOL_SIZE per process (0: persistent connections kept
# DB_CONN_MAX_AGE seconds instead; tests use 0 and 0, so websocket threads leave no session behind).
DATABASES = {
    "default": database_from_url(
        DATABASE_URL, BASE_DIR, env_int("DB_CONN_MAX_AGE", 60), pool_size=env_int("DB_POOL_SIZE", 20)
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in throttling (accounts/throttle.py): failures allowed per window, per username and per IP.
LOGIN_FAILURES_PER_USER = env_int("LOGIN_FAILURES_PER_USER", 5)
LOGIN_FAILURES_PER_IP = env_int("LOGIN_FAILURES_PER_IP", 20)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 15 * 60)

if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    # No socket timeout: redis-py 8 reads with a 5 s default, which kills the layer's blocking
    # receive on an idle socket and closes the websocket with 1011 (seen under load in
    # benchmarks/server_live.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
# A task at each deadline (needs a broker: on by default with Redis); the sweep runs either way.
DEADLINE_TASKS = env_bool("DEADLINE_TASKS", bool(REDIS_URL))
DEADLINE_QUEUE = env_str("DEADLINE_QUEUE", "celery")
# The sweep catches deadlines whose task was lost or late (games/services/deadlines.py).
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": env_int("DEADLINE_SWEEP_SECONDS", 1)},
    # Warnings before deadlines (notifications/services.py, warn_deadlines).
    "warn-deadlines": {"task": "notifications.tasks.warn_deadlines",
                       "schedule": env_int("DEADLINE_WARNING_SWEEP_SECONDS", 30)},
    # Notifications whose delivery task was lost.
    "deliver-pending-notifications": {"task": "notifications.tasks.deliver_pending", "schedule": 60},
}
# Without a broker, notifications wait in their table for the embedded runner (never sent inside
# a request); with one, a task sends each right after the commit.
NOTIFY_OUTBOX_ONLY = env_bool("NOTIFY_OUTBOX_ONLY", not REDIS_URL)
# Redis redelivers an unacknowledged task after this; longer than any deadline eta would re-send early.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 8 * 24 * 60 * 60}

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if not env_str("EMAIL_HOST") else
    "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Westeros <noreply@westeros.local>")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "westeros.api_errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Westeros API",
    "DESCRIPTION": "Play the Game of Thrones games: accounts, tokens, games, ratings and tournaments.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Production hardening; `manage.py check --deploy` passes once DEBUG is off (README, "Production").
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
