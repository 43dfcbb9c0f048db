"""Print pyproject.toml's dependencies, one per line, with those of the extras named as
arguments: `python bin/deps.py test`. Used by bin/ensure-venv to install the dependencies
without building the project itself."""

import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())[
    "project"
]
requirements = list(project["dependencies"])
for extra in sys.argv[1:]:
    requirements += project["optional-dependencies"][extra]
print("\n".join(requirements))
