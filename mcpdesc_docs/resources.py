"""Where the built-in ``templates/`` and ``themes/`` live: inside the installed package
(the wheel maps them there) or, in a source checkout, beside the package."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def builtin_dir(name: str) -> Path:
    """``templates`` or ``themes``: the packaged copy first, then the checkout's."""
    for candidate in (_PACKAGE_DIR / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the built-in {name!r} directory is missing from this installation")


def available_themes() -> list[str]:
    return sorted(p.name for p in builtin_dir("themes").iterdir() if p.is_dir() and not p.name.startswith("."))
