"""Time validate, build and a serve rebuild on synthetic descriptions, against a floor.

    .venv/bin/python bench/run.py [N ...]          (default: 10 100 1000 5000)

The floor is measured in the same run: parsing the same YAML with libyaml
(``yaml.load(..., CSafeLoader)``) plus writing the same number of files with the same
bytes. Times are medians; memory is the peak RSS of the build process.
"""

from __future__ import annotations

import io
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import write

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "mcpdesc_docs"]


def timed(command: list[str]) -> tuple[float, int]:
    """Wall time and peak RSS (MiB) of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, max(peak, before) // 1024


def floor(description: Path, site: Path, scratch: Path) -> float:
    text = description.read_text(encoding="utf-8")
    files = [p for p in site.rglob("*") if p.is_file()]
    contents = [(p.relative_to(site), p.read_bytes()) for p in files]
    started = time.perf_counter()
    yaml.load(text, Loader=yaml.CSafeLoader)
    target = scratch / "floor"
    for relative, content in contents:
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    elapsed = time.perf_counter() - started
    shutil.rmtree(target)
    return elapsed


def serve_rebuild(description: Path) -> float:
    from mcpdesc_docs.serve import DevServer

    server = DevServer(description, out=io.StringIO(), err=io.StringIO())
    try:
        server.rebuild()
        text = description.read_text(encoding="utf-8")
        description.write_text(text.replace("title: Tool number 1\n", "title: Tool number one\n", 1), encoding="utf-8")
        started = time.perf_counter()
        assert server.rebuild()
        return time.perf_counter() - started
    finally:
        server.close()


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10, 100, 1000, 5000]
    cores = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout.strip()
    print(f"Python {sys.version.split()[0]}, {cores} cores")
    header = ("N", "YAML", "validate", "build", "floor", "build/floor", "rebuild", "peak RSS")
    widths = (6, 8, 9, 8, 8, 11, 8, 9)
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for n in sizes:
        runs = 5 if n <= 100 else 3
        with tempfile.TemporaryDirectory() as directory:
            scratch = Path(directory)
            description = write(n, scratch / "bench.mcpdesc.yaml")
            site = scratch / "site"
            validations = [timed([*CLI, "validate", str(description)])[0] for _ in range(runs)]
            builds, peaks = [], []
            for _ in range(runs):
                elapsed, peak = timed([*CLI, "build", str(description), "-o", str(site)])
                builds.append(elapsed)
                peaks.append(peak)
            floors = [floor(description, site, scratch) for _ in range(runs)]
            rebuild = serve_rebuild(description)
            build, base = statistics.median(builds), statistics.median(floors)
            size = description.stat().st_size / 1024 / 1024
            print(
                f"{n:>6} {size:>6.2f}MB {statistics.median(validations):>8.2f}s {build:>7.2f}s {base:>7.2f}s "
                f"{build / base:>10.2f}x {rebuild:>7.2f}s {max(peaks):>7}MB"
            )


if __name__ == "__main__":
    main()
