"""Before a release is built: the pushed tag must name the package's version
(mcpdesc_docs.__version__, the one source of truth that `--version`, the wheel and the
scaffolded workflow's pin all read) and CHANGELOG.md must have that version's section.

Usage (the release workflow): python .github/release_check.py "$GITHUB_REF_NAME"
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def problems(tag: str, root: Path = ROOT) -> list[str]:
    # Read, not imported: the check needs none of the package's dependencies.
    init = (root / "mcpdesc_docs" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"$', init, re.MULTILINE)
    if match is None:
        return ["mcpdesc_docs/__init__.py sets no __version__"]
    version = match[1]
    found = []
    if tag != f"v{version}":
        found.append(f"the tag {tag} does not name the package version: tag v{version}, or change __version__")
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    if not re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.MULTILINE):
        found.append(f"CHANGELOG.md has no section '## [{version}] - YYYY-MM-DD' (rename 'Unreleased')")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: release_check.py TAG", file=sys.stderr)
        return 2
    found = problems(argv[0])
    for problem in found:
        # A workflow command on purpose: the problem is shown on the run's summary.
        print(f"::error title=release check::{problem}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
