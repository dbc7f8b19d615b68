"""Count the instructions a build takes, for comparing two versions on a busy machine.

    .venv/bin/python bench/instructions.py [N]          (default: 100)

Wall and CPU times on a shared machine move with its neighbours by half and more from one
hour to the next; the number of instructions a process runs does not. This runs, under
valgrind's callgrind, a cold ``build`` of the synthetic description of N tools (as
``bench/run.py`` makes it: start-up, reading, validation, the page model, every first
Markdown parse and highlight, writing) and one warm pass of rendering alone (every text
already parsed), and prints both in millions. Run it in each version's checkout and
compare; valgrind slows Python some fifty times, so N stays small (100: about a minute).
The compiled-template cache is warmed first, so neither count includes compiling them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import write

# One render pass, after a first one that parses every text: run with "1" and with "2",
# the difference is the second pass.
_RENDER = """
import sys
from pathlib import Path
from mcpdesc_docs.config import load_config
from mcpdesc_docs.model.builder import build_site
from mcpdesc_docs.pipeline import description_downloads
from mcpdesc_docs.render.pages import render_site
from mcpdesc_docs.render.theme import load_theme
from mcpdesc_docs.source.load import read_source
from mcpdesc_docs.validation.validator import validate_source
path = Path(sys.argv[1])
config = load_config(path)
source = read_source(path)
site = build_site(validate_source(source).checked.document)
downloads = description_downloads(source)
for _ in range(int(sys.argv[2])):
    render_site(site, load_theme(config.theme), config, downloads, sink=lambda name, content: None)
"""

_COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(command: list[str]) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    found = _COLLECTED.search(run.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        description = write(n, scratch / "bench.mcpdesc.yaml")
        build = [sys.executable, "-m", "mcpdesc_docs", "build", str(description), "-o", str(scratch / "site")]
        subprocess.run(build, capture_output=True, check=True)  # compiles and caches the templates
        shutil.rmtree(scratch / "site")
        cold = instructions(build)
        render = [sys.executable, "-c", _RENDER, str(description)]
        warm = instructions([*render, "2"]) - instructions([*render, "1"])
    print(f"N={n}: build {cold / 1e6:,.0f}M instructions, one warm render pass {warm / 1e6:,.0f}M")


if __name__ == "__main__":
    main()
