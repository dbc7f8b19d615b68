"""The shape of the package, checked: stages as packages that depend only on earlier
stages, thin commands, one place for exit codes, no god classes or functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mcpdesc_docs"

# The pipeline, in order. A module may import from its own layer and earlier ones only.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("__init__",),
    ("errors", "diagnostics", "kinds", "records", "resources", "rule_docs", "process_switches"),
    ("source",),
    ("spec",),
    ("validation",),
    ("config",),
    ("model", "diff"),
    ("render",),
    ("output", "pipeline"),
    ("devserver", "publish", "describe", "embed", "portal"),
    ("commands",),
    ("cli", "__main__"),
)
STAGE_PACKAGES = {
    "source",
    "spec",
    "validation",
    "model",
    "diff",
    "render",
    "devserver",
    "publish",
    "describe",
    "embed",
    "portal",
}
MAX_CLASS_LINES = 300
MAX_FUNCTION_LINES = 120


def modules() -> list[tuple[str, ast.Module]]:
    """(dotted name inside the package, parsed tree) of every module; ``__init__`` is the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1] or ["__init__"]
        found.append((".".join(parts), ast.parse(path.read_text(encoding="utf-8"), str(path))))
    return found


def is_module(parts: list[str]) -> bool:
    path = PACKAGE.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported(name: str, tree: ast.Module) -> set[str]:
    """The package-internal modules a module imports (dotted, inside the package)."""
    parts = [] if name == "__init__" else name.split(".")
    package = parts if (PACKAGE.joinpath(*parts) / "__init__.py").is_file() else parts[:-1]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            module = [*base, *(node.module.split(".") if node.module else [])]
            if node.module:
                targets.add(".".join(module))
                continue
            for alias in node.names:  # `from .. import x`: x is a module, or a name the package defines
                targets.add(".".join([*module, alias.name]) if is_module([*module, alias.name]) else ".".join(module))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mcpdesc_docs."):
            targets.add(node.module.removeprefix("mcpdesc_docs."))
    return {target or "__init__" for target in targets}


def layer_of(name: str) -> int:
    top = name.split(".")[0]
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index
    raise AssertionError(f"{name} is in no layer: add it to LAYERS")


def returns_a_number(node: ast.AST) -> bool:
    if not isinstance(node, ast.Return) or not isinstance(node.value, ast.Constant):
        return False
    value = node.value.value
    return isinstance(value, int) and not isinstance(value, bool)


MODULES = modules()


@pytest.mark.parametrize(("name", "tree"), MODULES, ids=[name for name, _ in MODULES])
def test_modules_depend_only_on_earlier_stages(name: str, tree: ast.Module) -> None:
    later = sorted(t for t in imported(name, tree) if layer_of(t) > layer_of(name))
    assert not later, f"{name} imports {later}, a later stage"


def test_only_the_command_line_imports_the_commands() -> None:
    offenders = [
        name
        for name, tree in MODULES
        if name.split(".")[0] not in ("commands", "cli")
        and any(t.split(".")[0] == "commands" for t in imported(name, tree))
    ]
    assert offenders == []


def test_no_class_or_function_is_too_long() -> None:
    too_long = []
    for name, tree in MODULES:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            limit = MAX_CLASS_LINES if isinstance(node, ast.ClassDef) else MAX_FUNCTION_LINES
            if length > limit:
                too_long.append(f"{name}.{node.name}: {length} lines")
    assert too_long == []


def test_exit_codes_are_defined_once_and_used_by_name() -> None:
    definitions = []
    literal_returns = []
    for name, tree in MODULES:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == "ExitCode":
                definitions.append(name)
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                definitions += [f"{name}.{n}" for n in names if n.startswith("EXIT")]
        if name.split(".")[0] in ("commands", "cli"):
            literal_returns += [f"{name}:{node.lineno}" for node in ast.walk(tree) if returns_a_number(node)]
    assert definitions == ["errors"]
    assert literal_returns == []


def test_the_tree_tells_the_pipeline() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    top_level = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert packages >= STAGE_PACKAGES
    # The entry points, the pipeline, and the small leaves every stage shares (errors,
    # diagnostics, kinds, records...): anything bigger is a stage package.
    assert len(top_level) <= 13, top_level
    assert {"cli.py", "pipeline.py"} <= set(top_level)


def external_imports(tree: ast.Module) -> set[str]:
    """The top-level names of the outside packages a module imports."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_no_module_needs_the_mcp_sdk_and_only_describe_speaks_http():
    # describe speaks JSON-RPC itself, so an install needs no SDK (the tests' servers use it);
    # describe is the one command that connects to a server: nothing else imports an HTTP client.
    sdk_users = sorted(
        name for name, tree in MODULES if external_imports(tree) & {"mcp", "mcp_types", "httpx2", "anyio"}
    )
    assert sdk_users == []
    http_clients = sorted(
        name
        for name, tree in MODULES
        if external_imports(tree) & {"http", "urllib3", "requests"} and name.split(".")[0] != "describe"
    )
    assert [name for name in http_clients if not name.startswith("devserver")] == []


def import_cycles() -> list[list[str]]:
    """Every set of modules that import one another round a loop (Tarjan's strongly connected
    components, with type-only and function-local imports counted: a loop of any kind means
    neither module can be read, or moved, without the other)."""
    graph = {name: sorted(t for t in imported(name, tree) if t != name) for name, tree in MODULES}
    order: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(name: str) -> None:
        order[name] = lowest[name] = len(order)
        stack.append(name)
        for target in graph[name]:
            if target not in graph:
                continue
            if target not in order:
                visit(target)
                lowest[name] = min(lowest[name], lowest[target])
            elif target in stack:
                lowest[name] = min(lowest[name], order[target])
        if lowest[name] == order[name]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == name:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in sorted(graph):
        if name not in order:
            visit(name)
    return cycles


def test_no_modules_import_each_other() -> None:
    assert import_cycles() == []
