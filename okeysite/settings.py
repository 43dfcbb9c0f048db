"""One settings module, read from the environment (django-environ).

With nothing set the site runs on SQLite (var/okey.sqlite3, WAL) and on a private Redis listening
on the unix socket var/redis.sock, which `make run` starts and stops itself. Production sets
DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL and EMAIL_URL, and refuses to start
without any of them.
"""

import logging
import os
import secrets
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("OKEY_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env(DEBUG=(bool, True))
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


def _installation_key() -> str:
    """This installation's own secret key, made once and kept in var/secret_key: a key in the
    source would be everyone's, and with it anyone could sign allauth's confirmation keys."""
    path = VAR_DIR / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # written whole under another name, then linked in: a process starting beside this one
    # (make run starts several) reads either no file or the whole key, and one key wins
    draft = VAR_DIR / f"secret_key.{os.getpid()}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    try:
        os.link(draft, path)
    except FileExistsError:
        key = path.read_text().strip()
    finally:
        draft.unlink()
    return key


DEBUG = env("DEBUG")
# Older keys still accepted for what they signed (sessions, reset links) while a new SECRET_KEY
# takes over, and for the second factors' secrets until `manage.py mfa_rekey` (README, "Keys")
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
if DEBUG:
    # With DEBUG on the site answers loopback clients only (okeysite.clients.LoopbackOnly).
    SECRET_KEY = env.str("SECRET_KEY", default="") or _installation_key()
    ALLOWED_HOSTS = env.list(
        "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"]
    )
else:
    SECRET_KEY = env.str("SECRET_KEY")  # required: raises ImproperlyConfigured when missing
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
    # Production says where its data, its messages and its mail go. Unset, each fell back in
    # silence to `make run`'s: SQLite under var/, a Redis socket under var/, and every e-mail,
    # password-reset links included, written into the logs. Such a fallback is kept only when
    # written out (e.g. EMAIL_URL=consolemail://).
    for _name, _fallback in (
        ("DATABASE_URL", f"sqlite:///{VAR_DIR / 'okey.sqlite3'}"),
        ("REDIS_URL", f"unix://{VAR_DIR / 'redis.sock'}"),
        ("EMAIL_URL", "consolemail://"),
    ):
        if not env.str(_name, default=""):
            raise ImproperlyConfigured(
                f"Set the {_name} environment variable: with DEBUG=0 the site does not fall back "
                f"to {_fallback} unless told so ({_name}={_fallback})"
            )

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
    "allauth.mfa",
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
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.languages.ProfileLanguageMiddleware",  # a signed-in player's pages: their language
    # staff reach the admin only with a second factor enrolled (accounts.staff_mfa); after the
    # language's middleware, so that its message is in the staff member's language
    "accounts.staff_mfa.StaffSecondFactor",
]

# How many reverse proxies stand in front of daphne (okeysite.clients.TrustedProxies): the
# client's address is the one the outermost of them wrote into X-Forwarded-For. 0: no proxy,
# the connection's peer is the client and the header is ignored.
OKEY_PROXY_COUNT = env.int("PROXY_COUNT", default=0)
# Content-Security-Policy (django-csp): scripts, styles, images, sockets and forms from the
# site's own origin only, no inline script or style, no plugins, never inside another site's
# frame. htmx is configured in base.html to need neither eval nor a <style> element.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# /metrics (okeysite.metrics): with METRICS_TOKEN set, for a bearer of that token from anywhere;
# without it, only for a client on this machine that came through no proxy.
OKEY_METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# The Celery queues whose length and lag /metrics reports
OKEY_METRICS_QUEUES = ["celery", "reviews", "mail"]
ROOT_URLCONF = "okeysite.urls"
# Error pages and reports show no local variables: a move's locals are the stock and the racks.
DEFAULT_EXCEPTION_REPORTER_FILTER = "okeysite.reporting.NoLocalsFilter"
WSGI_APPLICATION = "okeysite.wsgi.application"
ASGI_APPLICATION = "okeysite.asgi.application"
# The base of absolute links (an invite's e-mail). Set, it is the site's public address and every
# link uses it (production). Unset, a link made in a request uses the request's host and port, and
# one made outside a request where `make run` listens (bin/run exports HOST and PORT as OKEY_HOST
# and OKEY_PORT): an invite from `make run PORT=8700` once pointed at port 8000.
SITE_URL_SET = bool(env.str("SITE_URL", default=""))
SITE_URL = env.str(
    "SITE_URL",
    default="http://{}:{}".format(
        env.str("OKEY_HOST", default="127.0.0.1"), env.str("OKEY_PORT", default="8000")
    ),
).rstrip("/")

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
# How a move loads and saves its rows (games.table.store): "sql", fixed statements, on PostgreSQL;
# "orm" anywhere. Both are under test; "sql" needs PostgreSQL's FOR UPDATE.
OKEY_MOVE_STORE = env.str(
    "OKEY_MOVE_STORE",
    default="sql" if DATABASES["default"]["ENGINE"] == "okeysite.postgresql" else "orm",
)
if OKEY_MOVE_STORE not in ("sql", "orm"):
    raise ImproperlyConfigured("OKEY_MOVE_STORE is sql or orm")
# How often each daphne pings itself through the channel layer, to see that it lost messages
# (games.realtime.pulse); 0 turns it off.
OKEY_LAYER_PULSE_SECONDS = env.float("LAYER_PULSE_SECONDS", default=0.5)

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
# on and does nothing (games.timers.tasks). Cancelling it would only leave the work to the sweep.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A hand's review asked for by a profile's list (the hard bot judging every discard, a tenth of a
# second or more of CPU) runs in its own queue, served by its own worker at a lower CPU priority
# (deploy/programs.conf's `reviews`): a bot's turn, a timeout or the next deal never waits behind
# one, and on a busy machine live play gets the CPU first while the reviews wait their turn. Both queues are named here so that a
# worker started without -Q (a test's) serves both; each with its own routing key (Celery gives a
# queue without one the default queue's: a message sent through the exchange with that key would
# reach both).
# E-mail, the one task that waits on a server outside the site (the relay), has a queue and a
# worker of its own (deploy/programs.conf's `mail`): a relay that hangs holds mail only, never a
# move. A hung relay once stopped every table, with the mail on the live-play queue.
CELERY_TASK_QUEUES = (
    Queue("celery", routing_key="celery"),
    Queue("reviews", routing_key="reviews"),
    Queue("mail", routing_key="mail"),
)
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "games.tasks.hand_review_task": {"queue": "reviews"},
    "accounts.tasks.email_send_task": {"queue": "mail"},
}
# No task may run for ever: past the soft limit a task gets SoftTimeLimitExceeded (and can
# clean up), past the hard limit its pool process is killed and replaced. A move's task takes
# milliseconds and a review under a second; an e-mail is bounded by EMAIL_TIMEOUT per step.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("TASK_SOFT_TIME_LIMIT", default=60)
CELERY_TASK_TIME_LIMIT = env.int("TASK_TIME_LIMIT", default=90)
# How many tasks each worker runs at once (its pool's processes), said here rather than left to
# Celery's default (one per core, whatever else the machine runs); each pool process is replaced
# after so many tasks, so that a slow leak never grows without end.
CELERY_WORKER_CONCURRENCY = env.int("WORKER_CONCURRENCY", default=2)
CELERY_WORKER_MAX_TASKS_PER_CHILD = env.int("WORKER_MAX_TASKS_PER_CHILD", default=1000)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat writes a heartbeat into Redis at each tick (okeysite.beat); the deep health check says
# "beat": "error" once the last one is older than this.
CELERY_BEAT_SCHEDULER = "okeysite.beat:HeartbeatScheduler"
# BEAT=0 on every machine but one: its beat exits at start (a second beat would send every
# periodic task twice)
OKEY_BEAT = env.bool("BEAT", default=True)
OKEY_BEAT_STALE_SECONDS = env.float("BEAT_STALE_SECONDS", default=30.0)
# The sweep does whatever a lost task left undone at any table (games.timers.sweep). A sweep
# not started within its own period is dropped: the next one does the same work.
OKEY_SWEEP_SECONDS = env.float("OKEY_SWEEP_SECONDS", default=3.0)
CELERY_BEAT_SCHEDULE = {
    "tables-sweep": {
        "task": "games.tasks.sweep_task",
        "schedule": OKEY_SWEEP_SECONDS,
        "options": {"expires": OKEY_SWEEP_SECONDS},
    },
    "tables-idle-close": {
        "task": "games.tasks.tables_idle_close_task",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    "chat-prune": {
        "task": "games.tasks.chat_prune_task",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
}
# How long table chat is kept before the hourly prune deletes it
OKEY_CHAT_KEEP = timedelta(days=env.int("CHAT_KEEP_DAYS", default=7))
# Limits on tables per account (games.table.seats): unfinished tables it manages, games
# running at once at them, tables it made within the hour, and how long an open table waits for
# its start before it is closed.
OKEY_TABLES_PER_ACCOUNT = env.int("TABLES_PER_ACCOUNT", default=3)
OKEY_GAMES_PER_ACCOUNT = env.int("GAMES_PER_ACCOUNT", default=1)
OKEY_TABLES_CREATED_PER_HOUR = env.int("TABLES_CREATED_PER_HOUR", default=12)
# Sockets one user, and one client address, may hold open in one daphne process (games.realtime.sockets)
OKEY_SOCKETS_PER_USER = env.int("SOCKETS_PER_USER", default=10)
OKEY_SOCKETS_PER_ADDRESS = env.int("SOCKETS_PER_ADDRESS", default=60)
OKEY_OPEN_TABLE_IDLE = timedelta(minutes=env.int("OPEN_TABLE_IDLE_MINUTES", default=30))
# A bot's pause before its turn, in seconds (low, high): human-like, a little different each turn.
OKEY_BOT_PAUSE = (0.8, 2.5)
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- guests: visitors who play the first hand and practice games without an account ---------
# (accounts.guests) A guest's session lasts this long; the cleanup then deletes the guest and
# their tables. New guests one client address may make in an hour.
OKEY_GUEST_SESSION = timedelta(hours=env.int("GUEST_SESSION_HOURS", default=3))
OKEY_GUESTS_PER_ADDRESS = env.int("GUESTS_PER_ADDRESS", default=10)
# Arena tournaments (games.arena): how often the waiting players are paired, how long a player
# waits before bots take the seats nobody fills (when the tournament allows bots), and how long
# four who just played together wait for someone else before they are seated together again.
OKEY_ARENA_TICK_SECONDS = env.float("OKEY_ARENA_TICK_SECONDS", default=3.0)
OKEY_ARENA_BOT_WAIT = env.float("OKEY_ARENA_BOT_WAIT", default=20.0)
OKEY_ARENA_REPEAT_WAIT = env.float("OKEY_ARENA_REPEAT_WAIT", default=20.0)
CELERY_BEAT_SCHEDULE["arena-tick"] = {
    "task": "games.tasks.arena_tick_task",
    "schedule": OKEY_ARENA_TICK_SECONDS,
    "options": {"expires": OKEY_ARENA_TICK_SECONDS},
}
CELERY_BEAT_SCHEDULE["arena-schedules"] = {
    "task": "games.tasks.arena_schedules_task",
    "schedule": 3600.0,
    "options": {"expires": 3600.0},
}

CELERY_BEAT_SCHEDULE["guests-cleanup"] = {
    "task": "accounts.tasks.guests_cleanup_task",
    "schedule": 300.0,
    "options": {"expires": 300.0},
}

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
# What a visitor can make the site send (allauth's defaults allow a password reset a minute for
# one address, 1,200 mails an hour from one client): a password reset 3 times an hour for one
# address and 10 from one client; sign-ups (each a confirmation mail) 10 an hour from one client;
# the e-mail page of a profile (adding an address, sending its confirmation again) 10 an hour. Invitations have their own limit
# (games.invites.services).
ACCOUNT_RATE_LIMITS = {
    "login_failed": "20/5m/ip,5/5m/key",
    "reset_password": "10/h/ip,3/h/key",
    "signup": "10/h/ip",
    "manage_email": "10/h/user",
}
# A second factor (allauth.mfa): an authenticator app's codes (TOTP) and recovery codes, made
# when the app is enrolled. Staff must enrol one before the admin opens (accounts.staff_mfa);
# players may. Once enrolled, the log-in asks for a code after the password.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Okey"
# The apps' TOTP secrets and the recovery codes' seeds are encrypted in the database
# (accounts.mfa) under MFA_ENCRYPTION_KEYS (comma-separated Fernet keys, the first encrypts), or,
# unset, keys derived from SECRET_KEY and SECRET_KEY_FALLBACKS: a backup alone cannot make a
# staff member's codes.
MFA_ADAPTER = "accounts.mfa.MFAAdapter"
OKEY_MFA_ENCRYPTION_KEYS = env.list("MFA_ENCRYPTION_KEYS", default=[])

# --- e-mail ---------------------------------------------------------------------------------------
# Every e-mail is sent by a task of the `mail` queue (accounts.tasks), never by a web process or
# the live-play worker. EMAIL_TIMEOUT bounds each exchange with the relay (connect, greeting,
# each command): without it a relay that accepts and never answers held its task for ever.
EMAIL_TIMEOUT = 10.0
if "EMAIL_URL" in env.ENVIRON:
    _email = env.email("EMAIL_URL")
    # django-environ turns the URL's query (?timeout=10) into an OPTIONS entry that Django's SMTP
    # backend never reads: each becomes the EMAIL_ setting of its name.
    for _name, _value in _email.pop("OPTIONS", {}).items():
        if _name.upper() not in ("TIMEOUT", "SSL_CERTFILE", "SSL_KEYFILE"):
            raise ImproperlyConfigured(
                f"EMAIL_URL: unknown option {_name.lower()!r} (timeout, ssl_certfile, ssl_keyfile)"
            )
        _email[f"EMAIL_{_name.upper()}"] = _value
    _email["EMAIL_TIMEOUT"] = float(_email.get("EMAIL_TIMEOUT", EMAIL_TIMEOUT))
    vars().update(_email)
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
    # monitors and Prometheus probe over plain HTTP from inside
    SECURE_REDIRECT_EXEMPT = [r"^healthz(/live|/ready)?$", r"^metrics$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = env.list(
        "CSRF_TRUSTED_ORIGINS", default=[f"https://{h}" for h in ALLOWED_HOSTS]
    )

# --- error reports ------------------------------------------------------------------------------
# Who gets an e-mail for each unhandled error with DEBUG=0 (okeysite.reporting.AdminEmailQueued,
# Django's AdminEmailHandler sending through the mail queue):
# ADMINS="Ayşe <ayse@example.com>,ops@example.com". The report holds the traceback without any
# frame's local variables (okeysite.reporting) and with settings and headers that look secret
# masked (Django's SafeExceptionReporterFilter).
ADMINS = [parseaddr(entry) for entry in env.list("ADMINS", default=[])]
if any("@" not in address for _, address in ADMINS):
    raise ImproperlyConfigured('ADMINS is a comma-separated list of "Name <address>" or addresses')
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)  # the reports' sender
# Sentry, only when SENTRY_DSN is set: the SDK is not even imported otherwise. No personal data
# (addresses, cookies, user ids), no request bodies and no local variables: a move's locals are
# the stock and the racks, which no report may carry.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        traces_sample_rate=0.0,
    )

# Python's warnings (Celery's about running as root, deprecations) go through the log too: with
# DEBUG=0 they are JSON lines like the rest, not plain text among them.
logging.captureWarnings(True)
# With DEBUG=0 every log line is one JSON object (python-json-logger) with the time, level,
# logger, message, any extra fields, and the id of the request, socket or task it belongs to
# (okeysite.logcontext); with DEBUG on, plain text for a person at a terminal.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "context": {"()": "okeysite.logcontext.ContextFilter"},
        # The sweep runs every few seconds: Celery's lines for each run would bury the rest.
        # The sweep logs when it acts (games.timers.sweep); other tasks keep their lines.
        "sweep_quiet": {"()": "okeysite.logfilters.SweepQuiet"},
        "health_quiet": {"()": "okeysite.logfilters.HealthQuiet"},
        "task_quiet": {"()": "okeysite.logfilters.TaskQuiet"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        # "time": UTC with its offset (2026-12-06T11:59:35.255313+00:00), as supervisord, nginx
        # and journald write theirs: local times without an offset could not be lined up
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        },
    },
    "handlers": {
        # stdout, where supervisord (and journald) take each process's lines from
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "filters": ["context"],
            **({} if DEBUG else {"formatter": "json"}),
        },
        # an e-mail to ADMINS for each error Django logs (an unhandled exception in a view, a
        # 5xx), with DEBUG off
        "mail_admins": {
            "level": "ERROR",
            "class": "okeysite.reporting.AdminEmailQueued",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # In place of Django's default for "django" (its own console handler and this mail):
        # its lines reach the console once, through the root.
        "django": {"handlers": ["mail_admins"], "level": "INFO"},
        "django.request": {"filters": ["health_quiet"]},
        # With DEBUG=0 a task that went well writes nothing (TaskQuiet): at load, "received"
        # and "succeeded" came to about 900 bytes a task. Retries, failures and the rest stay.
        **{
            name: {"filters": ["sweep_quiet"] + ([] if DEBUG else ["task_quiet"])}
            for name in ("celery.app.trace", "celery.worker.strategy", "celery.beat")
        },
    },
}

# --- your data: the privacy notice, account deletion and export (accounts.yourdata) ----------------
# Who is responsible for the players' data (the "veri sorumlusu" of KVKK, the GDPR's controller)
# and where requests about it go; shown on /privacy/. Unset, the notice names "the operator of
# this site" and sends players to the profile's own tools only.
PRIVACY_CONTROLLER = env.str("PRIVACY_CONTROLLER", default="")
PRIVACY_CONTACT = env.str("PRIVACY_CONTACT", default="")
# Expired log-in sessions are deleted once a day: the privacy notice says how long they are kept.
CELERY_BEAT_SCHEDULE["sessions-clear"] = {
    "task": "accounts.tasks.sessions_clear_task",
    "schedule": 24 * 3600.0,
    "options": {"expires": 3600.0},
}
