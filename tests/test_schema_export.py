"""``mcpdesc-docs schema``: the JSON Schemas editors get agree with the validator's structural
check on every description at hand, are self-contained, and explain what they complete."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from mcpdesc_docs.cli import main
from mcpdesc_docs.config import _READERS, load_config
from mcpdesc_docs.errors import DescriptionError, ProjectError
from mcpdesc_docs.source.load import read_source
from mcpdesc_docs.spec.schema_export import config_schema, exported_schema
from mcpdesc_docs.spec.versions import SPEC_0_8_0, SPEC_0_9_0_RC_3, SUPPORTED, Specification, detect
from mcpdesc_docs.validation.structural import validate_structure

from .shared_data import CONFORMANCE, require
from .sites import SAMPLE_DIR, description_files
from .test_conformance import FIXTURES


def schema_cli(*argv: str) -> tuple[int, str, str]:
    return run_cli("schema", *argv)


@cache
def editor_validator(spec: Specification) -> Draft202012Validator:
    # As an editor would use it: the standard dialect, no keyword of ours.
    schema = exported_schema(spec)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def readable(path: Path) -> Any:
    try:
        return read_source(path).data
    except DescriptionError:
        return None


def cases() -> list[tuple[str, Any, Specification]]:
    """Every readable description at hand with its format, and each 0.8.0 one as 0.9.0 too."""
    found = []
    for path in description_files():
        data = readable(path)
        spec = detect(data).specification if isinstance(data, dict) else None
        if spec is None:
            continue
        found.append((str(path), data, spec))
        if spec == SPEC_0_8_0:
            as_090 = {**data, "mcpdesc": SPEC_0_9_0_RC_3.mcpdesc}
            as_090.pop("$schema", None)
            found.append((f"{path} as 0.9.0", as_090, SPEC_0_9_0_RC_3))
    return found


def test_the_exported_schemas_agree_with_the_structural_check_on_every_description():
    require(CONFORMANCE, "the conformance fixtures")
    checked = cases()
    disagreements = []
    rejected = 0
    for name, data, spec in checked:
        structural_errors = [d for d in validate_structure(data, spec) if d.is_error]
        editor_accepts = editor_validator(spec).is_valid(data)
        rejected += not editor_accepts
        if editor_accepts == bool(structural_errors):
            disagreements.append((name, [d.message for d in structural_errors][:3]))
    assert disagreements == []
    assert len(checked) > 100
    assert rejected > 20  # structurally invalid ones among them, so both verdicts were exercised


def test_the_conformance_fixtures_get_the_folders_verdict_where_it_is_structural():
    # The structural check is validate_structure (the schema); the rules after it are
    # semantic, though some report under the same rule ids (validation/rule_ids.py).
    require(CONFORMANCE, "the conformance fixtures")
    judged = {"valid": 0, "invalid": 0}
    for path, verdict in FIXTURES:
        data = readable(path)
        spec = detect(data).specification if isinstance(data, dict) else None
        if spec is None or verdict == "warning":
            continue
        if verdict == "invalid" and not any(d.is_error for d in validate_structure(data, spec)):
            continue  # invalid by a semantic rule: not a schema's to say
        assert editor_validator(spec).is_valid(data) == (verdict == "valid"), path
        judged[verdict] += 1
    assert judged["valid"] > 5
    assert judged["invalid"] > 5


@pytest.mark.parametrize("argv", [(), ("0.9.0",), ("--spec", "0.8.0"), ("0.7.0",), ("config",)])
def test_the_printed_schemas_are_self_contained_draft_2020_12(argv):
    code, out, _ = schema_cli(*argv)
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert '"$ref"' not in out
    assert '"$dynamicRef"' not in out
    assert '"x-' not in out  # our diagnostic annotations are not for editors


def test_spec_versions_pick_their_schema():
    for spec in SUPPORTED:
        _, out, _ = schema_cli("--spec", spec.mcpdesc)
        assert json.loads(out)["properties"]["mcpdesc"]["const"] == spec.mcpdesc
        assert schema_cli(spec.mcpdesc)[1] == out
    code, _, err = schema_cli("0.8.0", "--spec", "0.9.0")
    assert code == 2
    assert "different schemas" in err


def test_completion_is_explained():
    schema = exported_schema(SPEC_0_9_0_RC_3)
    tool = schema["properties"]["tools"]["items"]
    assert "arguments" in tool["properties"]["inputSchema"]["description"]
    assert "Hints" in tool["properties"]["annotations"]["description"]
    transport = schema["properties"]["transports"]["items"]
    kinds = transport["properties"]["type"]
    assert len(kinds["enumDescriptions"]) == len(kinds["enum"])
    assert kinds["enumDescriptions"][kinds["enum"].index("stdio")].startswith("The client starts the server")
    # Shared subschemas got each member's own words, not the first member's.
    info = schema["properties"]["info"]["properties"]
    assert info["title"]["description"] != info["description"]["description"]


# --- mcpdesc-docs.yml -----------------------------------------------------------------------

CONFIGS = [
    "description: d.yaml\n",
    "description: d.yaml\nsite_name: Acme\nsite_url: https://acme.github.io/x/\nstrict: true\n",
    "description: d.yaml\ntheme: default\nlimits: {max_depth: 64, max_primitives: 5}\n",
    "description: d.yaml\ntheme: {name: default, custom_dir: overrides}\nextra_css: [brand.css]\n",
    "description: d.yaml\ncname: docs.example.com\nsuppress: [mcp.meta]\nrepo_url: http://example.com/r\n",
    "description: d.yaml\nsite_nmae: Acme\n",
    "site_name: Acme\n",
    "description: d.yaml\nstrict: yes please\n",
    "description: d.yaml\ntheme: nope\n",
    "description: d.yaml\ntheme: {name: default, colour: red}\n",
    "description: d.yaml\nlimits: {max_depth: 0}\n",
    "description: d.yaml\nlimits: {max_depth: 100000}\n",
    "description: d.yaml\nlimits: {max_pages: 3}\n",
    "description: d.yaml\nextra_css: [https://cdn.example.com/x.css]\n",
    "description: d.yaml\nextra_css: [../outside.css]\n",
    "description: d.yaml\nextra_css: [assets/site.css]\n",
    "description: d.yaml\nextra_css: [brand.js]\n",
    "description: d.yaml\ncname: localhost\n",
    "description: d.yaml\nsite_url: ftp://example.com/\n",
    "description: d.yaml\nsite_name: '  '\n",
    "description: d.yaml\nsuppress: ['']\n",
]


@pytest.mark.parametrize("text", CONFIGS)
def test_the_config_schema_agrees_with_the_config_reader(tmp_path, text):
    (tmp_path / "d.yaml").write_text((SAMPLE_DIR / "helpdesk.mcpdesc.yaml").read_text(encoding="utf-8"))
    (tmp_path / "brand.css").write_text("")
    (tmp_path / "overrides").mkdir()
    config = tmp_path / "mcpdesc-docs.yml"
    config.write_text(text)
    try:
        load_config(config)
        accepted = True
    except ProjectError:
        accepted = False
    schema = config_schema()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    assert validator.is_valid(yaml.safe_load(text)) == accepted


def test_the_config_schema_knows_every_setting():
    assert set(config_schema()["properties"]) == set(_READERS)
    project = yaml.safe_load((SAMPLE_DIR / "mcpdesc-docs.yml").read_text(encoding="utf-8"))
    assert Draft202012Validator(config_schema()).is_valid(project)


# --- modelines -----------------------------------------------------------------------------

DRAFT_7_KEYWORDS = {
    *("$schema", "title", "description", "default", "type", "enum", "const", "format", "pattern"),
    *("properties", "patternProperties", "additionalProperties", "propertyNames", "required"),
    *("minProperties", "items", "minItems", "maxItems", "uniqueItems", "minLength", "minimum", "maximum"),
    *("allOf", "anyOf", "not", "if", "then", "else"),
}


def keywords(schema: Any) -> set[str]:
    found: set[str] = set()
    if not isinstance(schema, dict):
        return found
    for keyword, value in schema.items():
        found.add(keyword)
        if keyword in ("properties", "patternProperties"):
            for item in value.values():
                found |= keywords(item)
        elif keyword in ("allOf", "anyOf"):
            for item in value:
                found |= keywords(item)
        elif isinstance(value, dict):
            found |= keywords(value)
    return found


def test_the_schemas_mean_the_same_to_draft_7_editors():
    # The YAML language server long read Draft 7 and below: every keyword used means the
    # same there (enumDescriptions is VS Code's annotation).
    for schema in (*(exported_schema(spec) for spec in SUPPORTED), config_schema()):
        assert keywords(schema) - DRAFT_7_KEYWORDS <= {"enumDescriptions"}


def modeline_target(path: Path) -> Path:
    lines = path.read_text(encoding="utf-8").splitlines()
    prefix = "# yaml-language-server: $schema="
    assert lines[0].startswith(prefix)
    assert lines[1] == f"# $schema: {lines[0].removeprefix(prefix)}"  # the JetBrains form
    return path.parent / lines[0].removeprefix(prefix)


def test_new_writes_modelines_naming_the_schemas_it_writes_beside(tmp_path):
    project = tmp_path / "docs"
    assert main(["new", str(project)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    description = project / "server.mcpdesc.yaml"
    description_schema = json.loads(modeline_target(description).read_text(encoding="utf-8"))
    assert description_schema == exported_schema(SPEC_0_9_0_RC_3)
    assert Draft202012Validator(description_schema).is_valid(read_source(description).data)
    config = project / "mcpdesc-docs.yml"
    config_schema_written = json.loads(modeline_target(config).read_text(encoding="utf-8"))
    assert config_schema_written == config_schema()
    assert Draft202012Validator(config_schema_written).is_valid(yaml.safe_load(config.read_text(encoding="utf-8")))


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_describe_o_writes_a_modeline_and_the_schema_beside(tmp_path):
    from .test_describe import stdio

    target = tmp_path / "served.mcpdesc.yaml"
    code, out, err = run_cli("describe", "--stdio", stdio(), "-o", str(target))
    assert code == 0, out + err
    schema_file = modeline_target(target)
    assert schema_file == tmp_path / "mcpdesc.schema.json"
    assert json.loads(schema_file.read_text(encoding="utf-8")) == exported_schema(SPEC_0_9_0_RC_3)
    assert Draft202012Validator(exported_schema(SPEC_0_9_0_RC_3)).is_valid(read_source(target).data)
    # A file of the user's by that name is left alone; JSON has no comments to carry a modeline.
    schema_file.write_text("{}\n")
    as_json = tmp_path / "served.mcpdesc.json"
    code, _, err = run_cli("describe", "--stdio", stdio(), "-o", str(target))
    assert code == 0
    assert "not a schema mcpdesc-docs wrote" in err
    assert schema_file.read_text() == "{}\n"
    assert run_cli("describe", "--stdio", stdio(), "-o", str(as_json))[0] == 0
    assert as_json.read_text(encoding="utf-8").startswith("{")


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()
