"""One settings module, read from the environment with safe embedded defaults.

With nothing set, the site runs in *embedded mode*: SQLite in the project folder, the in-memory
channel layer, local-memory cache, e-mail printed to the console, DEBUG on. Production sets at least
SECRET_KEY, DEBUG=false, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL or REDIS_SENTINELS (see README, "Production").
"""
from __future__ import annotations

from pathlib import Path

from kombu import Exchange, Queue

from westeros import redis_config
from westeros.env import (
    ConfigurationError,
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DATABASE_URL = env_str("DATABASE_URL")
# Redis: REDIS_URL, or REDIS_SENTINELS (Redis Sentinel) and the variables that go with it. REDIS.enabled
# is Redis mode either way; how each part reaches Redis is built in westeros/redis_config.py.
REDIS = redis_config.redis_settings()
REDIS_URL = REDIS.url  # empty through Sentinel: test REDIS.enabled for Redis mode
EMBEDDED = not DATABASE_URL and not REDIS.enabled

# DEBUG is on by default only in embedded mode; a deployment with real services defaults to off.
DEBUG = env_bool("DEBUG", EMBEDDED)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        # One line and exit status 1, no traceback (ConfigurationError is a SystemExit).
        raise ConfigurationError("SECRET_KEY must be set when DEBUG is off (see README, 'Embedded mode and production').")
    SECRET_KEY = "insecure-embedded-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The site's public address, the start of every link the site sends (notification e-mails and
# webhooks, password-reset e-mails): never taken from a request's Host header. `dev.py start` sets it
# to the address it serves; `check --deploy` refuses a loopback one with DEBUG off (westeros/checks.py).
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000")

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
    "events",  # the per-user event stream (GET /api/v1/stream/events)
    "challenges",
    "westeros.apps.WesterosConfig",  # deployment checks, the links in e-mails
]

MIDDLEWARE = [
    # 413 for an oversized body, 404/400 for a NUL in the path, a query parameter or a header
    "westeros.middleware.RequestLimitsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # the Content-Security-Policy header: CONTENT_SECURITY_POLICY below (westeros/csp.py)
    "westeros.csp.SiteCSPMiddleware",
    # Static files with DEBUG off too (Daphne serves none): STATIC_ROOT, see "Static files" below.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # the page's language (Django's LocaleMiddleware, after the user is known): the account's
    # setting, else the language cookie, else Accept-Language, else English (westeros/i18n.py)
    "westeros.i18n.SiteLocaleMiddleware",
    # a bot account's browser session may read but not act (docs/bots.md)
    "accounts.middleware.BotSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "westeros.middleware.DatabaseUnavailableMiddleware",
]

# The largest request body read (a 413 beyond, westeros/middleware.py); the largest the API takes
# is a tournament with its 5,000-character description.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024)
# The largest request body a server process reads at all: the site's Daphne (westeros/asgi_server.py,
# which `manage.py serve` and the systemd unit run) answers 413 to a larger one before reading it, and
# deploy/nginx-westeros.conf's client_max_body_size is the same (1088k). 64 KiB above Django's limit,
# for multipart boundaries and headers: a body a little over Django's limit is still refused by Django
# itself, in the API's error shape.
REQUEST_BODY_MAX_SIZE = env_int("REQUEST_BODY_MAX_SIZE", DATA_UPLOAD_MAX_MEMORY_SIZE + 64 * 1024)

# Websockets (westeros/consumers.py, FrameLimits). A message larger than WEBSOCKET_MAX_MESSAGE_SIZE bytes
# closes the socket with 1009: Daphne refuses it before reading it whole (the DAPHNE_* settings are
# read by `manage.py serve`, Daphne's runserver; westeros/asgi_server.py passes the same). The largest
# a client sends is a chat message: 1,000 characters, under 12 KB even with every one \u-escaped.
WEBSOCKET_MAX_MESSAGE_SIZE = env_int("WEBSOCKET_MAX_MESSAGE_SIZE", 64 * 1024)
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = WEBSOCKET_MAX_MESSAGE_SIZE
# Frames a socket may send: a token bucket of WEBSOCKET_FRAME_BURST frames refilled at
# WEBSOCKET_FRAME_RATE a second. A frame beyond it is dropped (one warning per flood); a socket that
# goes on until another burst's worth was dropped is closed with 4008.
WEBSOCKET_FRAME_RATE = env_int("WEBSOCKET_FRAME_RATE", 20)
WEBSOCKET_FRAME_BURST = env_int("WEBSOCKET_FRAME_BURST", 50)
# Threads a server process runs its websockets' database work on (westeros/socket_db.py): sockets
# connect side by side (2 x this many handshakes at a time, westeros/socket_db.py), and hold at most
# this many database connections per process for them.
WEBSOCKET_DB_THREADS = env_int("WEBSOCKET_DB_THREADS", 8)

# Connections the server's listening socket queues before accepting them (Twisted's default is 50,
# which resets a burst of a few hundred simultaneous requests). `manage.py serve` uses it; the
# production command passes the same number to Daphne (README). The kernel caps it at somaxconn.
LISTEN_BACKLOG = env_int("LISTEN_BACKLOG", 2048)

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
# Form widgets (an input, a select and its options) rendered by Jinja2 with Django's own widget
# templates: the same HTML at half the CPU of the template language (issue 27); the admin's own widget
# templates and every page stay Django templates (westeros/form_renderer.py).
FORM_RENDERER = "westeros.form_renderer.SiteFormRenderer"

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

# Bounded waits: a Redis that hangs (rather than refusing connections) makes a log-in answer 503
# after a couple of seconds instead of holding the request (accounts/throttle.py fails closed).
REDIS_CACHE_OPTIONS = redis_config.CACHE_OPTIONS
CACHES = redis_config.caches(REDIS)
# A logged-in request reads its session from the cache (Redis; in embedded mode the one server
# process's memory), the database only when the cache lost it: one query less on every page (issue
# 27). Written through to the database, so a session outlives a cache flush or a Redis failover, and
# logging out deletes both.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# Log-ins (accounts/backends.py: the account read by a query compiled once per process); Django's own
# backend only reads the sessions made before it.
AUTHENTICATION_BACKENDS = ["accounts.backends.AccountBackend", "django.contrib.auth.backends.ModelBackend"]
# channels-redis, without a socket timeout on its blocking reads (westeros/redis_config.py says why).
CHANNEL_LAYERS = redis_config.channel_layers(REDIS, capacity=env_int("CHANNEL_LAYER_CAPACITY", 5000),
                                             expiry=env_int("CHANNEL_LAYER_EXPIRY", 30))
# How long the sockets ride out a Redis outage before they are closed with 4503 (westeros/channel_layer.py;
# a Sentinel failover takes about 3 s); 0 closes them at the first failed read.
CHANNEL_LAYER_RECEIVE_GRACE = env_int("CHANNEL_LAYER_RECEIVE_GRACE", 15)

_BROKER = redis_config.celery_broker(REDIS)
CELERY_BROKER_URL = _BROKER["url"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS.enabled
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# Tasks are acknowledged when a worker starts them, and a worker fetches a task only when a process
# is free (no prefetch): a worker never holds an unacknowledged message for long, so losing Redis
# (or the worker) loses at most a sweep that the next one repeats. Every task is idempotent and the
# database is the truth: deadlines are swept from it, notifications wait in their outbox.
# (Long-held unacknowledged messages are what killed workers on a Redis restart: kombu's
# restore_unacked fails on the lost connection. See README, "Deadlines and faults".)
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_DISABLE_PREFETCH = True
# Redis (directly or through Sentinel), through a transport that does not exit when Redis goes away
# (westeros/broker.py).
CELERY_BROKER_TRANSPORT = _BROKER["transport"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # a worker waits for Redis to come back, however long
# visibility_timeout: a message reserved by a worker that was then killed returns to the queue after
# 300 s; through Sentinel, the primary's name too.
CELERY_BROKER_TRANSPORT_OPTIONS = _BROKER["transport_options"]
# Deadlines: beat sends a sweep every DEADLINE_SWEEP_SECONDS; it drains the overdue games for at most
# DEADLINE_SWEEP_BUDGET_SECONDS (then the next sweep goes on). A sweep that waited in the queue
# longer than a few periods (workers down) is dropped unrun: a newer one does the same work.
DEADLINE_SWEEP_SECONDS = env_int("DEADLINE_SWEEP_SECONDS", 1)
DEADLINE_SWEEP_BUDGET_SECONDS = env_int("DEADLINE_SWEEP_BUDGET_SECONDS", 10)
# Sweeps run side by side in each tick on PostgreSQL (threads sharing the overdue games through SKIP
# LOCKED; SQLite always uses one), each claiming DEADLINE_SWEEP_BATCH games per transaction, so a
# burst of deadlines falling due together is resolved several games at a time (README, "Performance").
DEADLINE_SWEEP_WORKERS = env_int("DEADLINE_SWEEP_WORKERS", 4)
DEADLINE_SWEEP_BATCH = env_int("DEADLINE_SWEEP_BATCH", 8)  # games claimed (and committed) together
DEADLINE_QUEUE = env_str("DEADLINE_QUEUE", "deadlines")
# Workers started without -Q consume both queues, one message from each in turn, so a sweep never
# waits behind a burst of notifications (hundreds when many games start or time out at once).
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name) for name in ("celery", DEADLINE_QUEUE)]
# Without Redis, the web server process itself sweeps every second (games/runner.py), so timeouts
# reach the pages through the in-memory channel layer; off when Celery does the job.
DEADLINE_RUNNER_IN_SERVER = env_bool("DEADLINE_RUNNER_IN_SERVER", not REDIS.enabled)
# With Celery, each web server also sweeps, as a fallback, the deadlines overdue by more than
# DEADLINE_FALLBACK_GRACE_SECONDS: normally the workers resolve them first and it finds nothing; with
# every worker down, deadlines go on a grace late (games/runner.py). Resolution is idempotent.
DEADLINE_FALLBACK_IN_SERVER = env_bool("DEADLINE_FALLBACK_IN_SERVER", not DEADLINE_RUNNER_IN_SERVER)
DEADLINE_FALLBACK_GRACE_SECONDS = env_int("DEADLINE_FALLBACK_GRACE_SECONDS", 2)
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": DEADLINE_SWEEP_SECONDS,
        "options": {"queue": DEADLINE_QUEUE, "expires": max(5.0, 3 * DEADLINE_SWEEP_SECONDS)},
    },
    # Warnings before deadlines (notifications/services.py, warn_deadlines).
    "warn-deadlines": {"task": "notifications.tasks.warn_deadlines",
                       "schedule": env_int("DEADLINE_WARNING_SWEEP_SECONDS", 30), "options": {"expires": 60}},
    # Notifications whose delivery task was lost.
    "deliver-pending-notifications": {"task": "notifications.tasks.deliver_pending", "schedule": 60,
                                      "options": {"expires": 120}},
    # Notifications sent more than NOTIFICATION_RETENTION_DAYS ago (notifications/services.py, purge_old).
    "purge-old-notifications": {"task": "notifications.tasks.purge_old", "schedule": 3600,
                                "options": {"expires": 1800}},
}
# Days a sent notification is kept (0: forever). Its row is only an outbox entry and a key that stops
# a decision being made twice; nothing shows old notifications to anyone.
NOTIFICATION_RETENTION_DAYS = env_int("NOTIFICATION_RETENTION_DAYS", 30)
# Without a broker, notifications wait in their table for the embedded runner (never sent inside
# a request); with one, a task sends each right after the commit.
NOTIFY_OUTBOX_ONLY = env_bool("NOTIFY_OUTBOX_ONLY", not REDIS.enabled)
# Every game socket is sent the game's version when nothing else was sent to it for this many seconds
# (or at once when it has fallen behind): a socket whose update the channel layer dropped learns of it
# and re-fetches (games/consumers.py, Keepalive). 0: off.
LIVE_KEEPALIVE_SECONDS = env_int("LIVE_KEEPALIVE_SECONDS", 2)
# Event streams (GET /api/v1/stream/events) a user may hold open at once; one more is refused 429.
EVENT_STREAMS_PER_USER = env_int("EVENT_STREAMS_PER_USER", 8)

# E-mail: SMTP once EMAIL_HOST is set. Without it, DEBUG prints messages on the console; with DEBUG
# off nothing is sent *or printed* (a password-reset link in the server log opens that account):
# westeros/mail.py refuses each message, and `check --deploy` fails (westeros.E001).
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if env_str("EMAIL_HOST") else
    "django.core.mail.backends.console.EmailBackend" if DEBUG else
    "westeros.mail.NotConfiguredEmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Westeros <noreply@westeros.local>")

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
# English and Spanish (issue 29): locale/es/LC_MESSAGES/django.po and djangojs.po, compiled by
# `manage.py compile_translations` (dev.py start and test run it); docs/translating.md.
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a visitor's choice is remembered a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_TZ = True

# Static files. With DEBUG off, `manage.py collectstatic` copies them to STATIC_ROOT with hashed names
# and compressed copies (WhiteNoise's manifest storage), and WhiteNoise's middleware serves them with
# far-future cache headers (a proxy may serve STATIC_ROOT itself: deploy/nginx-westeros.conf). With
# DEBUG on they are served straight from the apps' and static/ folders, no collectstatic needed.
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG else
        "westeros.staticfiles.StaticFilesStorage",
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "westeros.api_errors.exception_handler",
    # JSON with limits (nesting depth, NUL characters): a 400, never a 500 (westeros/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "westeros.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
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
    # every operation documents the error statuses it answers, in the one error shape (westeros/api_schema.py)
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "events.schema.add_event_stream",  # an async view drf-spectacular cannot see
        "westeros.api_schema.add_error_responses",
    ],
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

# Content-Security-Policy (django-csp, westeros/csp.py), enforced on every response: scripts only
# from the site's own static files, never inline (no <script> without src, no on*= attribute, no
# javascript: URL, no eval); data for a page's script travels in json_script blocks (type
# application/json, never run) or data- attributes. Styles too come only from the site's
# stylesheets (scripts may still set element.style). connect-src also gets the page's own
# ws:// and wss:// origin per request (westeros/csp.py). The Django admin needs no exception.
# The variable CSP_REPORT_URI (off by default): where browsers send their reports of what the policy
# blocked (read into a lower-case name: django-csp's checks take a CSP_REPORT_URI setting for its
# old 3.x form).
_csp_report_uri = env_str("CSP_REPORT_URI")
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "connect-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        **({"report-uri": [_csp_report_uri]} if _csp_report_uri else {}),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
