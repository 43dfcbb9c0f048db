"""Pages that look like the site when something is missing, refused or broken: in the visitor's
language, with no stack trace (DEBUG is off under pytest, as in production)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import path
from django.utils import translation
from django.views.defaults import server_error

from okeysite.urls import urlpatterns as site_urlpatterns


def forbidden(request):
    raise PermissionDenied


def broken(request):
    raise RuntimeError("the stock and the racks were in this frame")


urlpatterns = [path("forbidden/", forbidden), path("broken/", broken), *site_urlpatterns]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, heading, lang",
    [("/no-such-page/", "Sayfa bulunamadı", "tr"), ("/en/no-such-page/", "Page not found", "en")],
)
def test_a_missing_page_in_each_language(client, url, heading, lang):
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{heading}</h1>" in html and f'<html lang="{lang}">' in html
    assert 'class="site-header"' in html and "Traceback" not in html


@pytest.mark.django_db
def test_a_refused_page(client, settings):
    settings.ROOT_URLCONF = __name__
    response = client.get("/forbidden/")
    assert response.status_code == 403
    assert "<h1>İzin yok</h1>" in response.content.decode()


@pytest.mark.django_db
def test_a_form_without_its_csrf_token(client):
    client.handler.enforce_csrf_checks = True
    response = client.post("/en/accounts/login/", {"login": "a@example.com", "password": "x"})
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()


@pytest.mark.django_db
def test_a_server_error_shows_no_trace(client, settings):
    settings.ROOT_URLCONF = __name__
    client.raise_request_exception = False
    response = client.get("/broken/")
    html = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Bir şeyler ters gitti</h1>" in html
    assert "stock" not in html and "RuntimeError" not in html


def test_the_server_error_page_needs_no_database():
    """No django_db mark: any query here would fail the test. The page is rendered as Django
    renders it after an error, without a request context."""
    with translation.override("en"):
        response = server_error(RequestFactory().get("/en/table/1/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in html and 'href="/en/"' in html
