"""Turkish by default, English under /en/, and a complete Turkish catalogue."""

import ast
import gettext
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "tr" / "LC_MESSAGES"


def po_entries(path: Path) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) for every entry of a .po file, the header left out."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        ids, strs, target, fuzzy = [], [], None, False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif line.startswith("msgctxt "):
                # as gettext stores it: context, EOT, message
                target = ids
                ids.append(ast.literal_eval(line[8:]) + "\x04")
            elif line.startswith("msgid "):
                target = ids
                ids.append(ast.literal_eval(line[6:]))
            elif line.startswith("msgid_plural "):
                target = None  # the singular stands for the entry
            elif line.startswith(("msgstr ", "msgstr[0] ")):
                target = strs
                strs.append(ast.literal_eval(line.split(" ", 1)[1]))
            elif line.startswith("msgstr["):
                target = None
            elif line.startswith('"') and target is not None:
                target.append(ast.literal_eval(line))
        if ids and "".join(ids):
            entries.append(("".join(ids), "".join(strs), fuzzy))
    return entries


def test_turkish_catalogue_is_complete_and_compiled():
    entries = po_entries(LOCALE / "django.po")
    assert entries
    untranslated = [msgid for msgid, msgstr, fuzzy in entries if not msgstr or fuzzy]
    assert untranslated == [], "translate these in locale/tr/LC_MESSAGES/django.po"
    with open(LOCALE / "django.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    # (a plural entry is looked up with ngettext; its singular form is the one compared)
    stale = [
        msgid
        for msgid, msgstr, _ in entries
        if msgstr not in (compiled.gettext(msgid), compiled.ngettext(msgid, "", 1))
    ]
    assert stale == [], "run `make messages` (compilemessages) and commit django.mo"


@pytest.mark.django_db
def test_pages_are_turkish_by_default(client):
    html = client.get("/accounts/login/").content.decode()
    assert '<html lang="tr">' in html
    assert "Giriş yap" in html
    assert "Şifrenizi mi unuttunuz?" in html
    assert "Kaydol" in html


@pytest.mark.django_db
def test_pages_in_english_under_en(client):
    html = client.get("/en/accounts/login/").content.decode()
    assert '<html lang="en">' in html
    assert "Log in" in html
    assert "Forgot your password?" in html
    assert "Giriş yap" not in html


@pytest.mark.django_db
def test_browser_language_does_not_override_the_url(client):
    # The URL decides: a Turkish page stays Turkish for an English browser, which can switch.
    html = client.get("/accounts/login/", headers={"accept-language": "en"}).content.decode()
    assert '<html lang="tr">' in html


@pytest.mark.django_db
def test_every_page_carries_htmx_and_the_language_switch(client):
    html = client.get("/accounts/signup/").content.decode()
    assert "/static/vendor/htmx-2.0.11.min.js" in html
    assert "/static/vendor/htmx-ext-ws-2.0.4.min.js" in html
    assert 'action="/i18n/setlang/"' in html
    assert 'value="en"' in html and 'value="tr"' in html
