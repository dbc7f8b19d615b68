"""Suite-wide setup: compiled templates are cached in a directory of the test session's
own, so tests neither read nor fill the user's cache (child processes inherit it);
hypothesis runs the same cases every time; markers sort the tests into the quick loop and
the rest; the sample site is built once per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mcpdesc_docs.render.template_cache import CACHE_DIR_VARIABLE

# The suite's cases are the same on every run and on every machine: derandomized, with no
# example database (two runs at once would share one, and replay each other's cases), no
# per-case deadline and no "too slow" health check (both measure wall-clock time, which a
# loaded machine stretches). `MCPDESC_HYPOTHESIS=explore` draws new cases for a long run.
settings.register_profile(
    "suite", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("MCPDESC_HYPOTHESIS", "suite"))


@pytest.fixture(autouse=True, scope="session")
def _session_template_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    previous = os.environ.get(CACHE_DIR_VARIABLE)
    os.environ[CACHE_DIR_VARIABLE] = str(tmp_path_factory.mktemp("template-cache"))
    yield
    if previous is None:
        del os.environ[CACHE_DIR_VARIABLE]
    else:
        os.environ[CACHE_DIR_VARIABLE] = previous


SLOW_MODULES = frozenset(
    {
        "test_base_path",
        "test_bounded",
        "test_completeness",
        "test_corpus",
        "test_deploy",
        "test_describe",
        "test_fuzz",
        "test_hostile_diagnostics",
        "test_hostile_render",
        "test_hostile_validation",
        "test_incremental",
        "test_incremental_yaml",
        "test_mutations",
        "test_scaffold",
        "test_scaling",
        "test_schema",
        "test_serve",
        "test_template_cache",
        "test_wheel",
        "test_yaml_writer",
    }
)
"""Modules whose tests each take seconds of CPU, or many cases: fuzzing, children under
budgets, packaging, whole-corpus and scaling runs. Slow tests in other modules carry
``@pytest.mark.slow`` themselves. `pytest -m "not browser and not slow"` is the quick loop
(docs/contributing.md)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem
        if module.startswith("test_browser_"):
            item.add_marker(pytest.mark.browser)
        if module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/*.out from the current output instead of comparing with it",
    )


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project built once for the session, for tests that only read the site."""
    from .sites import SAMPLE_DIR, build

    out = tmp_path_factory.mktemp("sample") / "site"
    code, stdout, stderr = build(SAMPLE_DIR, out)
    assert code == 0, stdout + stderr
    return out


@pytest.fixture(scope="session")
def example_portal_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The portal of the upstream examples and the real servers built once for the session,
    for tests that only read the site."""
    from mcpdesc_docs.errors import ExitCode

    from .portal_projects import example_portal
    from .sites import run

    config = example_portal(tmp_path_factory.mktemp("portal"))
    code, _, err = run("build", str(config), "-j", "1")
    assert code == ExitCode.OK, err
    return config.parent / "site"
