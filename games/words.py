"""The site's words in the viewer's language, looked up once per process.

Every frame after a move asks for the same few dozen translated words (seat labels, buttons, the
status line), four frames a move: Django's gettext finds the active language and its catalogue
on each call, which was a sixth of a frame's rendering. Translations do not change while the
process runs, so each (word, language) is looked up once. Call it as ``_`` so that makemessages
still finds the words.
"""

from functools import lru_cache

from django.utils.translation import get_language, gettext


def gettext_cached(message: str) -> str:
    """``gettext(message)`` in the active language."""
    return _translated(message, get_language())


@lru_cache(maxsize=4096)
def _translated(message: str, language: str | None) -> str:
    return gettext(message)
