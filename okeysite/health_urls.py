from django.urls import path

from .health import healthz
from .metrics import metrics_view

# Outside i18n_patterns: monitors ask for /healthz and /metrics, never /en/healthz.
urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
]
