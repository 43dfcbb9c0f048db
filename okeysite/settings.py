"""One settings module, read from the environment (django-environ).

With nothing set the site runs on SQLite (var/okey.sqlite3, WAL) and on a private Redis listening
on the unix socket var/redis.sock, which `make run` starts and stops itself. Production sets
DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS and DEBUG=0.
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("OKEY_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env(DEBUG=(bool, True))
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env("DEBUG")
if DEBUG:
    SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-do-not-use-in-production")
    ALLOWED_HOSTS = env.list(
        "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"]
    )
else:
    SECRET_KEY = env.str("SECRET_KEY")  # required: raises ImproperlyConfigured when missing
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "okeysite.urls"
WSGI_APPLICATION = "okeysite.wsgi.application"
ASGI_APPLICATION = "okeysite.asgi.application"
# Absolute links built outside a request (e-mails sent by Celery tasks, invites).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

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

# --- database ---------------------------------------------------------------------------------
VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'okey.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web process read while the worker writes; IMMEDIATE takes the write lock at
    # BEGIN, so two writers queue instead of failing with "database is locked" mid-transaction.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=10000;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend with the health check only after a connection sat idle: Channels asked
    # for one before every move (okeysite/postgresql/base.py)
    DATABASES["default"]["ENGINE"] = "okeysite.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- redis: channel layer, celery broker, cache --------------------------------------------------
REDIS_SOCKET = VAR_DIR / "redis.sock"
REDIS_URL = env.str("REDIS_URL", default=f"unix://{REDIS_SOCKET}")
REDIS_EMBEDDED = "REDIS_URL" not in env.ENVIRON


def _celery_url(url: str) -> str:
    # okeyredis is kombu's Redis transport with the fix that keeps the worker alive through a
    # Redis restart (okeysite/broker.py); kombu spells a unix socket <scheme>+socket:///path.
    # Other schemes (rediss://, sentinel://) keep kombu's own transport.
    if url.startswith("unix://"):
        return "okeyredis+socket://" + url[len("unix://") :]
    if url.startswith("redis://"):
        return "okeyredis://" + url[len("redis://") :]
    return url


CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": REDIS_URL,
                    "max_connections": env.int("REDIS_MAX_CONNECTIONS", default=50),
                }
            ]
        },
    }
}
# The cache holds allauth's rate-limit counters, so every web process must share it: Redis by
# default. CACHE_URL overrides it (the test suite uses locmemcache://, see tests/redis_plugin.py).
if "CACHE_URL" in env.ENVIRON:
    CACHES = {"default": env.cache("CACHE_URL")}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "okey",
        }
    }

CELERY_BROKER_URL = _celery_url(REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Countdowns here are seconds to minutes; the visibility timeout must stay far above them or an
# unacked task would be delivered twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Keep reconnecting however long Redis is away: the default gives up after 100 attempts (about
# three quarters of an hour), and a worker that exits then would need a person to start it again.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task still running when the broker connection breaks is left to finish (Celery 6 will cancel
# it by default): its change commits, and should its message come back it finds the table moved
# on and does nothing (games.tasks). Cancelling it would only leave the work to the sweep.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The sweep does whatever a lost task left undone at any table (games.services.sweep). A sweep
# not started within its own period is dropped: the next one does the same work.
OKEY_SWEEP_SECONDS = env.float("OKEY_SWEEP_SECONDS", default=3.0)
CELERY_BEAT_SCHEDULE = {
    "tables-sweep": {
        "task": "games.tasks.sweep_task",
        "schedule": OKEY_SWEEP_SECONDS,
        "options": {"expires": OKEY_SWEEP_SECONDS},
    },
}
# A bot's pause before its turn, in seconds (low, high): human-like, a little different each turn.
OKEY_BOT_PAUSE = (0.8, 2.5)
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- auth / accounts --------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_FORMS = {
    "signup": "accounts.forms.SignupForm",
    "login": "accounts.forms.LoginForm",
    "reset_password_from_key": "accounts.forms.ResetPasswordKeyForm",
}
ACCOUNT_USER_DISPLAY = "accounts.models.user_display"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Okey] "
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
# Failed log-ins: 5 per 5 minutes for one e-mail address, 20 per 5 minutes from one address.
# The counters live in the cache (Redis in production).
ACCOUNT_RATE_LIMITS = {"login_failed": "20/5m/ip,5/5m/key"}

# --- e-mail ---------------------------------------------------------------------------------------
if "EMAIL_URL" in env.ENVIRON:
    vars().update(env.email("EMAIL_URL"))
else:
    EMAIL_BACKEND = "okeysite.mail.EmailBackend"  # the console, readable
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Okey <noreply@okey.localhost>")

# --- i18n -----------------------------------------------------------------------------------------
LANGUAGE_CODE = "tr"
LANGUAGES = [("tr", "Türkçe"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Istanbul"
USE_I18N = True
USE_TZ = True

# --- static -----------------------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns at start-up when it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- production hardening -------------------------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # monitors probe over plain HTTP from inside
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = env.list(
        "CSRF_TRUSTED_ORIGINS", default=[f"https://{h}" for h in ALLOWED_HOSTS]
    )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # The sweep runs every few seconds: Celery's lines for each run would bury the rest. The
    # sweep logs when it acts (games.services.sweep); other tasks keep their lines.
    "filters": {"sweep_quiet": {"()": "okeysite.logfilters.SweepQuiet"}},
    "loggers": {
        name: {"filters": ["sweep_quiet"]}
        for name in ("celery.app.trace", "celery.worker.strategy", "celery.beat")
    },
}
