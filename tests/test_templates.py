"""Templates people can read: no line of any file under templates/ is longer than 160 characters.

Where a line grows, the piece it shows goes into an include or a partial named after it
(templates/games/table/ holds the table's parts), or a tag's attributes go on lines of their
own. {% spaceless %} and {% blocktranslate trimmed %} let the source break a line where the page
has no white space, without changing what is sent.
"""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
LONGEST = 160


def test_no_template_line_is_longer_than_160_characters():
    files = sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
    assert files, f"no templates under {TEMPLATES}"
    too_long = [
        f"{path.relative_to(TEMPLATES.parent)}:{number}: {len(line)} characters"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if len(line) > LONGEST
    ]
    assert too_long == [], f"lines over {LONGEST} characters:\n" + "\n".join(too_long)
