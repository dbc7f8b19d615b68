"""bench/generate.py's 0.7.0 twin: what mcpcontract is timed on in bench/run.py must be a
valid 0.7.0 description of the same data our build is timed on, or the comparison is off."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from mcpdesc_docs.spec.migration import migrate_070
from mcpdesc_docs.spec.versions import SPEC_0_9_0_RC_3
from mcpdesc_docs.validation.validator import check_document

from .shared_data import CORPUS, require

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import PROTOCOL_VERSION_070, description, description_070, write

SCHEMA_070 = CORPUS / "schemas" / "mcp-description-0.7.0.json"
N = 23
"""Above 10, so there are several resources and prompts, and odd, so both annotation values
occur."""


def test_the_070_twin_passes_the_reference_070_schema():
    schema = json.loads(require(SCHEMA_070, "the reference 0.7.0 JSON Schema").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert [error.message for error in validator.iter_errors(description_070(N))] == []
    # The schema does refuse what 0.7.0 cannot hold, so the check above means something.
    assert list(validator.iter_errors(description(N)))


def test_the_070_twin_migrates_back_to_the_same_data_less_what_070_cannot_hold():
    migration = migrate_070(description_070(N), SPEC_0_9_0_RC_3)
    assert migration.problems == []
    expected = description(N)
    expected["protocolVersions"] = [PROTOCOL_VERSION_070]
    for tool in expected["tools"]:
        del tool["elicitations"]
    assert migration.data == expected
    assert list(migration.data) == list(expected)  # member order too


def test_our_validator_reads_both_without_errors():
    for data in (description(N), description_070(N)):
        checked = check_document(data)
        assert checked.document is not None
        assert [d.message for d in checked.diagnostics if d.is_error] == []


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize("mcpdesc", ["0.9.0", "0.7.0"])
def test_write_picks_the_format_by_suffix_and_the_version_by_name(tmp_path, suffix, mcpdesc):
    path = write(N, tmp_path / f"d{suffix}", mcpdesc)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if suffix == ".json" else yaml.safe_load(text)
    assert data == (description_070(N) if mcpdesc == "0.7.0" else description(N))
    assert data["mcpdesc"] == mcpdesc


def test_write_refuses_a_version_it_cannot_generate(tmp_path):
    with pytest.raises(ValueError, match=r"0\.8\.0"):
        write(N, tmp_path / "d.yaml", "0.8.0")
