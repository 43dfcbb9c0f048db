"""The site's URLs plus one view that fails, for tests/observability/test_error_reports.py."""

from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from okeysite.urls import urlpatterns as site_urlpatterns

RACK = "R7 B3 K11 S13 rack-secret"


@csrf_exempt
def boom(request):
    rack = RACK  # a local variable that no report may show  # noqa: F841
    raise RuntimeError("the view failed")


urlpatterns = [path("boom/", boom), *site_urlpatterns]
