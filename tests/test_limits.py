"""Input limits: each has a located diagnostic, a documented default and a config key."""

from __future__ import annotations

import json
import sys
import time

import pytest

from mcpdesc_docs.source.limits import DEFAULT_LIMITS, Limits
from mcpdesc_docs.source.load import READ_CHUNK, read_at_most

from .sites import SAMPLE, load_data, run


def test_documented_defaults():
    assert (
        Limits(
            max_bytes=32 * 1024 * 1024,
            max_depth=128,
            max_nodes=2_000_000,
            max_string_length=1_000_000,
            max_primitives=10_000,
        )
        == DEFAULT_LIMITS
    )


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_a_too_long_string_is_located(tmp_path, suffix):
    data = load_data(SAMPLE)
    data["tools"][0]["description"] = "x" * (DEFAULT_LIMITS.max_string_length + 1)
    path = tmp_path / f"d{suffix}"
    path.write_text(json.dumps(data, indent=1))
    code, out, _ = run("validate", str(path))
    assert code == 1
    assert "error[mcpdesc.input.limits]" in out
    assert "limit is 1000000" in out
    line = out.split(":")[1]
    assert int(line) > 1  # located at the string, not at the top of the file


def test_a_50_mb_file_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: refused by its size alone
    started = time.process_time()
    code, out, _ = run("validate", str(path))
    assert time.process_time() - started < 1  # CPU time: reading and parsing 50 MB would take more
    assert code == 1
    assert "input-too-large" in out


def project(tmp_path, limits: str) -> None:
    (tmp_path / "d.json").write_text(json.dumps(load_data(SAMPLE)))
    (tmp_path / "mcpdesc-docs.yml").write_text(f"description: d.json\nlimits:\n{limits}")


def test_config_can_lower_and_raise_limits(tmp_path):
    project(tmp_path, "  max_primitives: 3\n")
    code, out, _ = run("build", str(tmp_path))
    assert code == 1
    assert "input-too-many-primitives" in out
    assert "limits.max_primitives" in out
    project(tmp_path, "  max_bytes: 1000\n")
    code, out, _ = run("build", str(tmp_path))
    assert code == 1
    assert "input-too-large" in out
    project(tmp_path, "  max_depth: 4\n")
    code, out, _ = run("build", str(tmp_path))
    assert code == 1
    assert "input-too-deep" in out
    project(tmp_path, "  max_nodes: 50_000_000\n  max_string_length: 5000000\n")
    code, _, err = run("build", str(tmp_path))
    assert code == 2  # 50_000_000 is a string in the JSON-like YAML profile
    assert "must be a positive whole number" in err
    project(tmp_path, "  max_nodes: 50000000\n  max_string_length: 5000000\n")
    code, out, err = run("build", str(tmp_path))
    assert code == 0, out + err


@pytest.mark.parametrize(
    ("limits", "message"),
    [("  max_pages: 3\n", "unknown limit 'max_pages'"), ("  max_depth: 0\n", "positive whole number")],
)
def test_bad_limit_settings_are_config_errors(tmp_path, limits, message):
    project(tmp_path, limits)
    code, _, err = run("build", str(tmp_path))
    assert code == 2
    assert message in err


def test_tags_count_as_pages_against_max_primitives(tmp_path):
    data = load_data(SAMPLE)
    pages = sum(len(data.get(c, [])) for c in ("tools", "resources", "resourceTemplates", "prompts"))
    tags = len(data["tags"])
    assert tags > 0
    (tmp_path / "d.json").write_text(json.dumps(data))
    (tmp_path / "mcpdesc-docs.yml").write_text(f"description: d.json\nlimits:\n  max_primitives: {pages + tags}\n")
    assert run("validate", str(tmp_path))[0] == 0
    (tmp_path / "mcpdesc-docs.yml").write_text(f"description: d.json\nlimits:\n  max_primitives: {pages + tags - 1}\n")
    code, out, _ = run("validate", str(tmp_path))
    assert code == 1
    assert f"{pages + tags} tools, resources, resource templates, prompts and tags" in out


@pytest.mark.parametrize("max_bytes", [30_000_000_000, sys.maxsize])
def test_a_large_max_bytes_reads_a_small_file(tmp_path, max_bytes):
    # read(max_bytes + 1) set the whole size aside first: MemoryError, or OverflowError at 2**63.
    project(tmp_path, f"  max_bytes: {max_bytes}\n")
    code, out, err = run("build", str(tmp_path))
    assert code == 0, out + err


def test_a_file_read_in_chunks_stops_one_byte_past_the_limit(tmp_path):
    path = tmp_path / "d.json"
    path.write_bytes(b"x" * (3 * READ_CHUNK + 5))
    with open(path, "rb") as handle:
        assert read_at_most(handle, 2 * READ_CHUNK + 1) == b"x" * (2 * READ_CHUNK + 1)
    with open(path, "rb") as handle:
        assert len(read_at_most(handle, sys.maxsize)) == 3 * READ_CHUNK + 5


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        (f"  max_bytes: {sys.maxsize + 1}\n", f"limit 'max_bytes' can be at most {sys.maxsize}"),
        ("  max_nodes: 99999999999999999999999\n", f"limit 'max_nodes' can be at most {sys.maxsize} (the largest"),
        ("  max_depth: 1001\n", "limit 'max_depth' can be at most 1000 (the YAML parser's own bound)"),
    ],
)
def test_limits_beyond_their_ceiling_are_located_config_errors(tmp_path, limits, message):
    project(tmp_path, limits)
    code, out, err = run("build", str(tmp_path))
    assert code == 2
    assert "internal error" not in out + err
    assert f"mcpdesc-docs.yml:3:3: error[mcpdesc-docs.config] {message}" in err


def test_the_deepest_max_depth_allowed_is_the_yaml_parsers(tmp_path):
    # At the ceiling, a document deeper than it is refused with the limit's own number.
    project(tmp_path, "  max_depth: 1000\n")
    data = load_data(SAMPLE)
    data["info"]["x-deep"] = "DEEP"
    (tmp_path / "d.yaml").write_text(json.dumps(data).replace('"DEEP"', "[" * 1200 + "]" * 1200))
    (tmp_path / "mcpdesc-docs.yml").write_text("description: d.yaml\nlimits:\n  max_depth: 1000\n")
    code, out, err = run("validate", str(tmp_path))
    assert code == 1, out + err
    assert "nesting deeper than 1000 levels" in out
