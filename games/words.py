"""The site's words in the viewer's language, looked up once per process.

Every frame after a move asks for the same few dozen translated words (seat labels, buttons, the
status line), four frames a move: Django's gettext finds the active language and its catalogue
on each call, which was a sixth of a frame's rendering. Translations do not change while the
process runs, so each (word, language) is looked up once. Call it as ``_`` so that makemessages
still finds the words.

Finding the active language is itself most of a lookup's cost (Django keeps it in an asgiref
Local, each read several calls deep): a socket builds its frames inside ``language_active``,
which also keeps the language in a plain thread-local that ``language()`` reads first.
"""

import threading
from contextlib import contextmanager
from functools import lru_cache

from django.utils import translation
from django.utils.translation import get_language, gettext

_active = threading.local()


@contextmanager
def language_active(language: str):
    """``translation.override(language)``, with ``language()`` answering from a thread-local.
    Nothing inside may change the language by other means (Django's override or activate)."""
    outer = getattr(_active, "language", None)
    with translation.override(language):
        _active.language = get_language()
        try:
            yield
        finally:
            _active.language = outer


def language() -> str | None:
    """The active language: ``get_language()``, from the thread-local inside
    ``language_active``."""
    current = getattr(_active, "language", None)
    return current if current is not None else get_language()


def gettext_cached(message: str) -> str:
    """``gettext(message)`` in the active language."""
    return _translated(message, language())


@lru_cache(maxsize=4096)
def _translated(message: str, language: str | None) -> str:
    return gettext(message)
