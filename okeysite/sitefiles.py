"""What browsers and phones ask the site's root for: the web manifest and /favicon.ico.

The icons are PNG files made from static/img/favicon.svg by bin/icons (and committed); the
manifest names them through the static files' storage, so a deploy's hashed names are used."""

import json

from django.conf import settings
from django.http import FileResponse, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

THEME = "#0f4d33"  # the felt: base.html's theme-color
BACKGROUND = "#fbf7ec"  # a tile's ivory
FAVICON = settings.BASE_DIR / "static" / "img" / "favicon.ico"


def manifest(request):
    data = {
        "name": "Okey",
        "short_name": "Okey",
        "description": _("Play Düz and Eşli Okey live in the browser, with friends or bots."),
        "lang": get_language(),
        "start_url": reverse("games:lobby"),  # the lobby in the manifest's language
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": static(f"img/icon-{n}.png"), "sizes": f"{n}x{n}", "type": "image/png"}
            for n in (192, 512)
        ]
        + [{"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False), content_type="application/manifest+json"
    )
    response["Cache-Control"] = "public, max-age=86400"
    return response


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: the file under static/, answered
    here rather than redirected (a browser keeps a permanent redirect to a file whose hashed
    name the next deploy changes)."""
    response = FileResponse(open(FAVICON, "rb"), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response
