"""``mcpdesc-docs diff``: each classification rule, both ways, on small edits of the sample;
the semantic model (not the text) is compared; the command's formats and exit codes."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcpdesc_docs.diff.change import Change, Level
from mcpdesc_docs.diff.changes import compare
from mcpdesc_docs.diff.view import view_of
from mcpdesc_docs.errors import DescriptionError, UsageError
from mcpdesc_docs.validation.validator import check_document

from .sites import SAMPLE, description_files, load_data, run

Data = dict[str, Any]
BREAKING, NON_BREAKING, DOCUMENTATION = Level.BREAKING, Level.NON_BREAKING, Level.DOCUMENTATION


def changes_between(old: Data, new: Data) -> list[Change]:
    views = []
    for data in (old, new):
        checked = check_document(data)
        assert checked.document is not None
        views.append(view_of(checked.document))
    found, truncated = compare(views[0], views[1])
    assert not truncated
    return found


def tool(data: Data, name: str, index: int = 0) -> Data:
    return [t for t in data["tools"] if t["name"] == name][index]


def search_input(data: Data) -> Data:
    return tool(data, "search_tickets")["inputSchema"]


def search_output(data: Data) -> Data:
    return tool(data, "search_tickets")["outputSchema"]


def prompt(data: Data, name: str) -> Data:
    return next(p for p in data["prompts"] if p["name"] == name)


def remove_tool(d: Data) -> None:
    d["tools"] = [t for t in d["tools"] if t["name"] != "service_status"]


def rename_tool(d: Data) -> None:
    tool(d, "service_status")["name"] = "server_status"


def add_required_parameter(d: Data) -> None:
    search_input(d)["properties"]["team"] = {"type": "string"}
    search_input(d)["required"].append("team")


def add_required_argument(d: Data) -> None:
    prompt(d, "triage")["arguments"].append({"name": "queue", "required": True})


def make_parameter_required(d: Data) -> None:
    search_input(d)["required"].append("limit")


def make_argument_required(d: Data) -> None:
    prompt(d, "triage")["arguments"][1]["required"] = True


def narrow_type(d: Data) -> None:
    search_input(d)["properties"]["offset"]["type"] = "string"


def remove_enum_value(d: Data) -> None:
    search_input(d)["properties"]["status"]["items"]["enum"].remove("closed")


def lower_max_length(d: Data) -> None:
    search_input(d)["properties"]["query"]["maxLength"] = 100


def lower_maximum(d: Data) -> None:
    search_input(d)["properties"]["limit"]["maximum"] = 50


def raise_min_length(d: Data) -> None:
    search_input(d)["properties"]["query"]["minLength"] = 3


def raise_minimum(d: Data) -> None:
    search_input(d)["properties"]["limit"]["minimum"] = 5


def remove_output_field(d: Data) -> None:
    del search_output(d)["properties"]["total"]
    search_output(d)["required"].remove("total")


def make_output_field_optional(d: Data) -> None:
    search_output(d)["required"].remove("total")


def drop_protocol_version(d: Data) -> None:
    d["protocolVersions"] = [v for v in d["protocolVersions"] if v != "2025-06-18"]
    for capabilities in d["capabilities"]:
        capabilities["protocolVersions"] = [v for v in capabilities.get("protocolVersions", []) if v != "2025-06-18"]
    d["capabilities"] = [c for c in d["capabilities"] if c.get("protocolVersions") != []]


def remove_transport(d: Data) -> None:
    d["transports"] = [t for t in d["transports"] if t["type"] != "stdio"]


def add_security_requirement(d: Data) -> None:
    d["security"].append({"helpdeskOAuth": ["tickets.admin"]})


def add_optional_parameter(d: Data) -> None:
    search_input(d)["properties"]["team"] = {"type": "string"}


def add_enum_value(d: Data) -> None:
    search_input(d)["properties"]["status"]["items"]["enum"].append("merged")


def add_output_field(d: Data) -> None:
    search_output(d)["properties"]["took_ms"] = {"type": "integer"}


def add_elicitation(d: Data) -> None:
    tool(d, "search_tickets")["elicitations"] = [
        {
            "name": "narrow",
            "mode": "form",
            "message": "Narrow it down?",
            "requestedSchema": {"type": "object", "properties": {}},
        }
    ]


def deprecate_tool(d: Data) -> None:
    tool(d, "service_status")["deprecated"] = True


def change_default(d: Data) -> None:
    search_input(d)["properties"]["limit"]["default"] = 25


def change_wording(d: Data) -> None:
    tool(d, "search_tickets")["description"] = "Other words."


# (name, edit, the change's code, its level, the level of the change back)
RULES: list[tuple[str, Callable[[Data], None], str, Level, Level]] = [
    ("tool removed", remove_tool, "tool-removed", BREAKING, NON_BREAKING),
    ("tool renamed", rename_tool, "tool-renamed", BREAKING, BREAKING),
    ("required parameter added", add_required_parameter, "input-parameter-required-added", BREAKING, BREAKING),
    ("required prompt argument added", add_required_argument, "argument-required-added", BREAKING, BREAKING),
    ("parameter made required", make_parameter_required, "input-parameter-required", BREAKING, NON_BREAKING),
    ("argument made required", make_argument_required, "argument-required", BREAKING, NON_BREAKING),
    ("type changed", narrow_type, "input-type-changed", BREAKING, BREAKING),
    ("enum value removed", remove_enum_value, "input-enum-value-removed", BREAKING, NON_BREAKING),
    ("maxLength lowered", lower_max_length, "input-maxLength-lowered", BREAKING, NON_BREAKING),
    ("maximum lowered", lower_maximum, "input-maximum-lowered", BREAKING, NON_BREAKING),
    ("minLength raised", raise_min_length, "input-minLength-raised", BREAKING, NON_BREAKING),
    ("minimum raised", raise_minimum, "input-minimum-raised", BREAKING, NON_BREAKING),
    ("output field removed", remove_output_field, "output-field-removed", BREAKING, NON_BREAKING),
    ("output field no longer required", make_output_field_optional, "output-field-optional", BREAKING, NON_BREAKING),
    ("protocol version dropped", drop_protocol_version, "protocol-version-removed", BREAKING, NON_BREAKING),
    ("transport removed", remove_transport, "transport-removed", BREAKING, NON_BREAKING),
    ("security requirement added", add_security_requirement, "security-requirement-added", BREAKING, NON_BREAKING),
    ("optional parameter added", add_optional_parameter, "input-parameter-added", NON_BREAKING, BREAKING),
    ("enum value added", add_enum_value, "input-enum-value-added", NON_BREAKING, BREAKING),
    ("output field added", add_output_field, "output-field-added", NON_BREAKING, BREAKING),
    ("elicitation added", add_elicitation, "elicitation-added", NON_BREAKING, NON_BREAKING),
    ("tool deprecated", deprecate_tool, "deprecated", NON_BREAKING, NON_BREAKING),
    ("default changed", change_default, "input-default-changed", NON_BREAKING, NON_BREAKING),
    ("wording changed", change_wording, "description-changed", DOCUMENTATION, DOCUMENTATION),
]

SAMPLE_DATA = load_data(SAMPLE)


@pytest.mark.parametrize(("name", "edit", "code", "level", "back"), RULES, ids=[r[0] for r in RULES])
def test_each_rule_classifies_the_change_and_the_change_back(
    name: str, edit: Callable[[Data], None], code: str, level: Level, back: Level
) -> None:
    old = copy.deepcopy(SAMPLE_DATA)
    new = copy.deepcopy(SAMPLE_DATA)
    edit(new)
    forward = changes_between(old, new)
    assert forward, name
    assert max(forward, key=lambda c: -c.level.rank).level is level, [(c.code, c.level) for c in forward]
    assert code in {c.code for c in forward}, [(c.code, c.level) for c in forward]
    backward = changes_between(new, old)
    assert backward, name
    assert max(backward, key=lambda c: -c.level.rank).level is back, [(c.code, c.level) for c in backward]


def test_an_enum_value_removed_names_it_and_both_lists() -> None:
    new = copy.deepcopy(SAMPLE_DATA)
    remove_enum_value(new)
    [removed] = changes_between(SAMPLE_DATA, new)
    assert removed.message == "input 'status[]': value(s) \"closed\" no longer allowed"
    assert removed.old_pointer == removed.new_pointer == "/tools/0/inputSchema/properties/status/items/enum"
    assert (removed.old_value, removed.new_value) == (
        ["open", "pending", "solved", "closed"],
        ["open", "pending", "solved"],
    )


def test_a_change_names_its_primitive_member_pointers_and_values() -> None:
    new = copy.deepcopy(SAMPLE_DATA)
    lower_maximum(new)
    [change] = changes_between(SAMPLE_DATA, new)
    assert change.primitive == "tool search_tickets"
    assert change.member == "inputSchema.limit maximum"
    assert change.old_pointer == change.new_pointer == "/tools/0/inputSchema/properties/limit/maximum"
    assert (change.old_value, change.new_value) == (100, 50)


def test_a_schema_moved_into_the_components_is_no_change() -> None:
    new = copy.deepcopy(SAMPLE_DATA)
    schema = tool(new, "search_tickets")["inputSchema"]
    new["components"].setdefault("schemas", {})["SearchInput"] = schema
    tool(new, "search_tickets")["inputSchema"] = {"$componentRef": "#/components/schemas/SearchInput"}
    assert changes_between(SAMPLE_DATA, new) == []
    lower_max_length_in = copy.deepcopy(new)
    lower_max_length_in["components"]["schemas"]["SearchInput"]["properties"]["query"]["maxLength"] = 10
    [change] = changes_between(new, lower_max_length_in)
    # Located where the value lives: in the component.
    assert change.new_pointer == "/components/schemas/SearchInput/properties/query/maxLength"


def test_a_change_in_one_variant_names_its_protocol_versions() -> None:
    new = copy.deepcopy(SAMPLE_DATA)
    tool(new, "create_ticket", 1)["inputSchema"]["properties"]["subject"]["maxLength"] = 60
    [change] = changes_between(SAMPLE_DATA, new)
    assert change.versions == ("2026-07-28",)
    both = copy.deepcopy(SAMPLE_DATA)
    for index in (0, 1):
        tool(both, "create_ticket", index)["inputSchema"]["properties"]["subject"]["maxLength"] = 60
    [merged] = changes_between(SAMPLE_DATA, both)
    assert merged.versions == ("2025-11-25", "2026-07-28")


def _readable_descriptions() -> list[tuple[Path, Data]]:
    found = []
    for path in description_files():
        try:
            data = load_data(path)
        except (DescriptionError, UsageError, AssertionError):  # unreadable fixtures are the validator's business
            continue
        if isinstance(data, dict) and check_document(data).document is not None:
            found.append((path, data))
    return found


READABLE = _readable_descriptions()


def test_there_are_descriptions_to_compare() -> None:
    assert len(READABLE) >= 5


@pytest.mark.parametrize(("path", "data"), READABLE, ids=[str(p.name) for p, _ in READABLE])
def test_a_description_has_no_changes_against_itself(path: Path, data: Data) -> None:
    assert changes_between(data, copy.deepcopy(data)) == []


def _shuffled(value: object, rng: random.Random) -> object:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {key: _shuffled(item, rng) for key, item in items}
    if isinstance(value, list):
        return [_shuffled(item, rng) for item in value]
    return value


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 10**6), seed=st.integers(0, 2**32 - 1), edit=st.sampled_from(RULES))
def test_the_diff_is_the_same_with_keys_shuffled(index: int, seed: int, edit: Any) -> None:
    rng = random.Random(seed)
    _, data = READABLE[index % len(READABLE)]
    assert changes_between(data, _shuffled(data, rng)) == []  # type: ignore[arg-type]
    new = copy.deepcopy(SAMPLE_DATA)
    edit[1](new)
    expected = changes_between(SAMPLE_DATA, new)
    assert changes_between(_shuffled(SAMPLE_DATA, rng), _shuffled(new, rng)) == expected  # type: ignore[arg-type]


def test_yaml_and_json_of_the_same_data_are_no_change(tmp_path: Path) -> None:
    as_json = tmp_path / "helpdesk.mcpdesc.json"
    as_json.write_text(json.dumps(_shuffled(SAMPLE_DATA, random.Random(7)), indent=1), encoding="utf-8")
    code, out, err = run("diff", str(SAMPLE), str(as_json))
    assert (code, err) == (0, "")
    assert out.endswith(": no changes\n")


def _write(path: Path, data: Data) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def test_formats_and_exit_codes(tmp_path: Path) -> None:
    new_data = copy.deepcopy(SAMPLE_DATA)
    add_required_parameter(new_data)
    change_wording(new_data)
    old, new = _write(tmp_path / "old.json", SAMPLE_DATA), _write(tmp_path / "new.json", new_data)
    code, out, _ = run("diff", str(old), str(new))
    assert code == 0  # reporting is not failing
    assert "breaking: tool search_tickets: input: required parameter 'team' added" in out
    assert run("diff", str(old), str(new), "--fail-on", "breaking")[0] == 1
    assert run("diff", str(new), str(new), "--fail-on", "any")[0] == 0
    wording_only = copy.deepcopy(SAMPLE_DATA)
    change_wording(wording_only)
    reworded = _write(tmp_path / "reworded.json", wording_only)
    assert run("diff", str(old), str(reworded), "--fail-on", "breaking")[0] == 0
    assert run("diff", str(old), str(reworded), "--fail-on", "any")[0] == 1
    code, out, _ = run("diff", str(old), str(new), "--format", "json")
    report = json.loads(out)
    assert report["verdict"] == "breaking"
    assert report["counts"] == {"breaking": 1, "non-breaking": 0, "documentation": 1}
    first = report["changes"][0]
    assert (first["level"], first["primitive"], first["member"]) == (
        "breaking",
        "tool search_tickets",
        "inputSchema.team",
    )
    assert first["new"] == {"pointer": "/tools/0/inputSchema/properties/team", "value": {"type": "string"}}
    assert first["old"] is None
    code, out, _ = run("diff", str(old), str(new), "--format", "github")
    annotation = out.splitlines()[0]
    assert annotation.startswith(f"::error file={new},line=")
    assert "required parameter 'team' added" in annotation
    code, out, _ = run("diff", str(old), str(new), "--format", "markdown")
    assert "| **breaking** | tool search\\_tickets |" in out


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _out, err = run("diff", str(SAMPLE), str(tmp_path / "nothing.yaml"))
    assert code == 2
    assert "no such file" in err


def test_hostile_text_cannot_become_markup_or_commands(tmp_path: Path) -> None:
    hostile = copy.deepcopy(SAMPLE_DATA)
    tool(hostile, "search_tickets")["description"] = "<img src=x onerror=alert(1)> @everyone\n::error::owned | x"
    new = _write(tmp_path / "new.json", hostile)
    markdown = run("diff", str(SAMPLE), str(new), "--format", "markdown")[1]
    assert "<img" not in markdown
    assert "@everyone" not in markdown
    github = run("diff", str(SAMPLE), str(new), "--format", "github")[1]
    assert all(line.startswith("::notice ") or not line.startswith("::") for line in github.splitlines())
    text = run("diff", str(SAMPLE), str(new))[1]
    assert not any(line.lstrip().startswith("::") for line in text.splitlines())


def test_a_side_from_git_history(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    description = _write(tmp_path / "server.mcpdesc.json", SAMPLE_DATA)
    git("add", ".")
    git("commit", "-qm", "first")
    edited = copy.deepcopy(SAMPLE_DATA)
    remove_tool(edited)
    _write(description, edited)
    git("commit", "-qam", "second")
    _write(description, SAMPLE_DATA)  # the working copy as it was in the first commit
    # HEAD removed a tool; the working copy brought it back.
    assert [c["code"] for c in _diff_json(tmp_path, "git:HEAD:server.mcpdesc.json", "server.mcpdesc.json")] == [
        "tool-added"
    ]
    assert [
        c["code"] for c in _diff_json(tmp_path, "git:HEAD~1:server.mcpdesc.json", "git:HEAD:server.mcpdesc.json")
    ] == ["tool-removed"]
    assert _diff_json(tmp_path, "git:main^:./server.mcpdesc.json", "server.mcpdesc.json") == []
    for wrong, why in (
        ("git:HEAD:nothing.yaml", "no file 'nothing.yaml' at 'HEAD'"),
        ("git:nobranch:server.mcpdesc.json", "no commit 'nobranch'"),
        ("git:HEAD~5:server.mcpdesc.json", "goes back past the first commit"),
        ("git:HEAD", "write git:REF:PATH"),
        ("git:HEAD:../../etc/passwd", "outside the repository"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "mcpdesc_docs", "diff", wrong, "server.mcpdesc.json"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2, wrong
        assert why in done.stderr, (wrong, done.stderr)


def _diff_json(cwd: Path, old: str, new: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs", "diff", old, new, "--format", "json"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["changes"]  # type: ignore[no-any-return]
