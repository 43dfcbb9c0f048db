from django.urls import path

from .health import healthz

# Outside i18n_patterns: monitors ask for /healthz, never /en/healthz.
urlpatterns = [path("healthz", healthz, name="healthz")]
