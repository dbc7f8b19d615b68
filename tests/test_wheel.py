"""The built wheel carries templates and themes: install it (not editable) and build the sample."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

from .sites import ROOT, SAMPLE_DIR, parse


def run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_wheel_install_builds_the_sample_site(tmp_path):
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-q",
        "-w",
        tmp_path / "dist",
        ROOT,
        cwd=tmp_path,
    )
    wheel = next((tmp_path / "dist").glob("mcpdesc_docs-*.whl"))

    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    # Dependencies come from this test environment (no network); the package itself only
    # from the wheel: a path line in a .pth file does not run the editable install's hook.
    fresh_site = Path(
        run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip()
    )
    (fresh_site / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "-q", wheel, cwd=tmp_path)

    location = run(python, "-c", "import mcpdesc_docs; print(mcpdesc_docs.__file__)", cwd=tmp_path)
    assert Path(location.strip()).is_relative_to(env_dir)
    site = tmp_path / "site"
    run(env_dir / "bin" / "mcpdesc-docs", "build", SAMPLE_DIR, "-o", site, cwd=tmp_path)
    assert parse(site / "tools" / "create_ticket.html").select("[data-elicitation]")
    run(env_dir / "bin" / "mcpdesc-docs", "new", tmp_path / "scaffolded", cwd=tmp_path)
    assert (tmp_path / "scaffolded" / ".github" / "workflows" / "mcpdesc-docs.yml").is_file()
    assert (site / "assets" / "mcpdesc.css").read_bytes() == (
        ROOT / "themes" / "default" / "assets" / "mcpdesc.css"
    ).read_bytes()
