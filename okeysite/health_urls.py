from django.urls import path

from .health import healthz, healthz_live, healthz_ready
from .metrics import metrics_view

# Outside i18n_patterns: monitors ask for /healthz and /metrics, never /en/healthz.
urlpatterns = [
    path("healthz/live", healthz_live, name="healthz_live"),
    path("healthz/ready", healthz_ready, name="healthz_ready"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
]
