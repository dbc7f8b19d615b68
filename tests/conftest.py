"""Suite-wide setup: compiled templates are cached in a directory of the test session's
own, so tests neither read nor fill the user's cache (child processes inherit it)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from mcpdesc_docs.render.template_cache import CACHE_DIR_VARIABLE


@pytest.fixture(autouse=True, scope="session")
def _session_template_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    previous = os.environ.get(CACHE_DIR_VARIABLE)
    os.environ[CACHE_DIR_VARIABLE] = str(tmp_path_factory.mktemp("template-cache"))
    yield
    if previous is None:
        del os.environ[CACHE_DIR_VARIABLE]
    else:
        os.environ[CACHE_DIR_VARIABLE] = previous


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/*.out from the current output instead of comparing with it",
    )
