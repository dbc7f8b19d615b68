"""The release as PyPI and a user get it: ``python -m build`` makes the sdist and, from it,
the wheel; ``twine check --strict`` passes on both; the wheel holds the package with its
templates, themes and starter project and nothing else; installed (not editable) into a
fresh environment it builds the sample and scaffolds a project, and says its version."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path, PurePosixPath

import pytest

from mcpdesc_docs import __version__

from .packaging import Distributions, build_distributions, fresh_environment, run
from .sites import ROOT, SAMPLE_DIR, parse

PACKAGE = ROOT / "mcpdesc_docs"
# Shipped inside the package, though kept at the top level of the repository.
DATA_DIRS = {"templates": ROOT / "templates", "themes": ROOT / "themes"}
STARTER = PACKAGE / "publish" / "starter"


@pytest.fixture(scope="module")
def distributions(tmp_path_factory) -> Distributions:
    return build_distributions(tmp_path_factory.mktemp("release") / "dist")


def files_under(directory: Path) -> set[str]:
    return {
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if not name.endswith("/")}


def test_twine_check_strict_passes_on_the_sdist_and_the_wheel(distributions):
    out = run(sys.executable, "-m", "twine", "check", "--strict", distributions.sdist, distributions.wheel, cwd=ROOT)
    assert out.count("PASSED") == 2, out


def test_the_wheel_holds_the_package_and_its_data_and_nothing_stray(distributions):
    names = wheel_names(distributions.wheel)
    dist_info = f"mcpdesc_docs-{__version__}.dist-info"
    expected = {f"mcpdesc_docs/{name}" for name in files_under(PACKAGE)}
    for target, source in DATA_DIRS.items():
        expected |= {f"mcpdesc_docs/{target}/{name}" for name in files_under(source)}
    expected |= {f"{dist_info}/{name}" for name in ("METADATA", "WHEEL", "RECORD", "entry_points.txt")}
    expected.add(f"{dist_info}/licenses/LICENSE")
    assert names == expected
    # What `new` copies, the hidden workflow directory included, and the typing marker.
    starter = {name for name in names if name.startswith("mcpdesc_docs/publish/starter/")}
    assert {PurePosixPath(name).name for name in starter} == {
        "gitignore",
        "mcpdesc-docs.yml",
        "server.mcpdesc.yaml",
    }
    assert "mcpdesc_docs/publish/starter/.github/workflows/mcpdesc-docs.yml" in starter
    assert "mcpdesc_docs/publish/portal_starter/.github/workflows/docs.yml" in names
    assert "mcpdesc_docs/py.typed" in names
    assert "mcpdesc_docs/templates/base.html" in names
    assert "mcpdesc_docs/themes/default/assets/mcpdesc.css" in names
    # The Markdown extension's stylesheet, and the entry point Python-Markdown finds it by.
    assert "mcpdesc_docs/embed/mcpdesc-embed.css" in names
    with zipfile.ZipFile(distributions.wheel) as archive:
        entry_points = archive.read(f"{dist_info}/entry_points.txt").decode()
    assert "[markdown.extensions]\nmcpdesc = mcpdesc_docs.embed.extension:McpdescExtension\n" in entry_points


def test_the_metadata_is_what_a_pypi_page_needs(distributions):
    with zipfile.ZipFile(distributions.wheel) as archive:
        text = archive.read(f"mcpdesc_docs-{__version__}.dist-info/METADATA").decode()
    metadata = HeaderParser().parsestr(text)
    assert metadata["Version"] == __version__
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["License-Expression"] == "Apache-2.0"
    urls = {entry.split(",")[0] for entry in metadata.get_all("Project-URL", [])}
    assert {"Homepage", "Documentation", "Issues", "Changelog"} <= urls
    classifiers = metadata.get_all("Classifier", [])
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Typing :: Typed" in classifiers
    assert any(c.startswith("Topic :: ") for c in classifiers)
    assert metadata["Keywords"]
    assert metadata["Description-Content-Type"] == "text/markdown"
    # describe speaks JSON-RPC itself: an install needs no MCP SDK (only the tests' servers do).
    required = metadata.get_all("Requires-Dist", [])
    installed = [r for r in required if "extra ==" not in r]
    assert installed
    assert not [r for r in installed if r.split()[0].split(">")[0].split("=")[0].lower() in ("mcp", "mcp-types")]
    assert any(r.startswith("mcp") and "extra ==" in r and "test" in r for r in required)


def test_the_sdist_holds_the_sources_the_tests_and_the_release_notes(distributions):
    top = f"mcpdesc_docs-{__version__}"
    with tarfile.open(distributions.sdist) as archive:
        names = {PurePosixPath(name).relative_to(top).as_posix() for name in archive.getnames()}
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE", "PKG-INFO"):
        assert name in names
    assert {"mcpdesc_docs/__init__.py", "templates/base.html", "tests/test_wheel.py"} <= names
    assert "mcpdesc_docs/publish/starter/.github/workflows/mcpdesc-docs.yml" in names
    stray = {n for n in names if n.split("/")[0] in {".venv", "dist", "build", ".git"} or "__pycache__" in n}
    assert not stray
    assert not any("/site/" in f"/{n}" for n in names)


def test_the_installed_wheel_builds_the_sample_site_and_says_its_version(distributions, tmp_path):
    bin_dir = fresh_environment(tmp_path / "fresh")
    python = bin_dir / "python"
    pip = (sys.executable, "-m", "pip", "--python", python)
    run(*pip, "install", "--no-deps", "-q", distributions.wheel, cwd=tmp_path)

    location = run(python, "-c", "import mcpdesc_docs; print(mcpdesc_docs.__file__)", cwd=tmp_path)
    assert Path(location.strip()).is_relative_to(tmp_path / "fresh")
    installed = run(python, "-c", "import importlib.metadata as m; print(m.version('mcpdesc-docs'))", cwd=tmp_path)
    assert installed.strip() == __version__
    assert run(bin_dir / "mcpdesc-docs", "--version", cwd=tmp_path) == f"mcpdesc-docs {__version__}\n"

    site = tmp_path / "site"
    run(bin_dir / "mcpdesc-docs", "build", SAMPLE_DIR, "-o", site, cwd=tmp_path)
    assert parse(site / "tools" / "create_ticket.html").select("[data-elicitation]")
    assert (site / "assets" / "mcpdesc.css").read_bytes() == (
        ROOT / "themes" / "default" / "assets" / "mcpdesc.css"
    ).read_bytes()
    run(bin_dir / "mcpdesc-docs", "new", tmp_path / "scaffolded", cwd=tmp_path)
    workflow = (tmp_path / "scaffolded" / ".github" / "workflows" / "mcpdesc-docs.yml").read_text()
    assert f"pip install mcpdesc-docs=={__version__}\n" in workflow
    # A portal from the installed copy: its templates and script come from the wheel.
    run(bin_dir / "mcpdesc-docs", "new", "--portal", tmp_path / "portal", cwd=tmp_path)
    run(bin_dir / "mcpdesc-docs", "build", tmp_path / "portal", "-o", tmp_path / "portal-site", cwd=tmp_path)
    assert len(parse(tmp_path / "portal-site" / "index.html").select("[data-server]")) == 2
    assert (tmp_path / "portal-site" / "assets" / "mcpdesc-portal.js").read_bytes() == (
        ROOT / "themes" / "default" / "portal" / "mcpdesc-portal.js"
    ).read_bytes()


def test_a_release_tag_must_name_the_version_and_have_a_changelog_section(tmp_path):
    (tmp_path / "mcpdesc_docs").mkdir()
    (tmp_path / "mcpdesc_docs" / "__init__.py").write_text('__version__ = "1.2.3"\n')
    (tmp_path / ".github").mkdir()
    check = tmp_path / ".github" / "release_check.py"
    check.write_bytes((ROOT / ".github" / "release_check.py").read_bytes())

    def release_check(tag: str, changelog: str) -> subprocess.CompletedProcess[str]:
        (tmp_path / "CHANGELOG.md").write_text(changelog)
        return subprocess.run([sys.executable, check, tag], capture_output=True, text=True, check=False)

    ready = "# Changelog\n\n## [1.2.3] - 2026-12-01\n\n### Added\n\n- Things.\n"
    assert release_check("v1.2.3", ready).returncode == 0
    wrong_tag = release_check("v1.2.4", ready)
    assert wrong_tag.returncode == 1
    assert "does not name the package version" in wrong_tag.stdout
    unreleased = release_check("v1.2.3", "# Changelog\n\n## [Unreleased]\n")
    assert unreleased.returncode == 1
    assert "CHANGELOG.md has no section '## [1.2.3]" in unreleased.stdout
