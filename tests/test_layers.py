"""The layer rule: every import inside ``pyapp`` points down the layers, and no modules import each other
in a cycle.

Each module's imports are read with :mod:`ast` (lazy imports inside functions included) and checked
against :data:`MAY_IMPORT`, the table ARCHITECTURE.md draws and each package's docstring states.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "pyapp"

MAY_IMPORT: dict[str, set[str]] = {
    "core": set(),
    "proofs": {"core"},
    "search": {"core", "proofs"},
    "sat": {"core"},
    "exact": {"core", "proofs", "search"},
    "analysis": {"core", "proofs", "search", "sat", "exact"},
    "bench": {"core", "proofs", "search", "sat", "exact", "analysis"},
    "web": {"core", "proofs", "search", "sat", "exact", "analysis", "bench"},
    "cli": {"core", "proofs", "search", "sat", "exact", "analysis", "bench"},
}
"""Layer -> the layers it may import (besides itself).  An arrow means "may import"."""
TOP_LEVEL = {"__init__", "__main__"}
"""The only modules allowed directly in ``pyapp/``."""


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path) -> set[str]:
    """The ``pyapp`` modules (or packages) that the file at ``path`` imports, as absolute names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "pyapp" or target.startswith("pyapp."):
                for alias in node.names:  # `from pkg import module` imports the module
                    sub = f"{target}.{alias.name}"
                    found.add(sub if _exists(sub) else target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("pyapp."))
    found.discard(name)
    return found


def _exists(name: str) -> bool:
    rel = pathlib.Path(*name.split(".")[1:])
    return (ROOT / rel).with_suffix(".py").exists() or (ROOT / rel / "__init__.py").exists()


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else None


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def test_only_entry_points_at_the_top():
    top = {p.stem for p in ROOT.glob("*.py")}
    assert top <= TOP_LEVEL, f"modules at the top of pyapp/ outside every layer: {sorted(top - TOP_LEVEL)}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if layer(n)))
def test_imports_point_down(name):
    own = layer(name)
    assert own is not None
    upward = sorted(t for t in imports(MODULES[name]) if (lt := layer(t)) not in (own, None)
                    and lt not in MAY_IMPORT[own])
    assert not upward, f"{name} (layer {own}) imports {upward}: {own} may import only {sorted(MAY_IMPORT[own])}"


def test_every_package_is_a_layer():
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(MAY_IMPORT), "a new package needs its row in MAY_IMPORT (and in ARCHITECTURE.md)"


def test_layer_table_has_no_cycle():
    seen: dict[str, int] = {}

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert seen.get(node) != 1, f"the layer table has a cycle: {' -> '.join(path + (node,))}"
        if seen.get(node) == 2:
            return
        seen[node] = 1
        for nxt in MAY_IMPORT[node]:
            visit(nxt, path + (node,))
        seen[node] = 2

    for n in MAY_IMPORT:
        visit(n, ())


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle among the modules of ``graph``, or None (depth-first, colours)."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in colour and (found := visit(nxt)):
                return found
        stack.pop()
        colour[node] = 2
        return None

    for n in sorted(graph):
        if n not in colour and (found := visit(n)):
            return found
    return None


def test_no_import_cycle():
    # a package's __init__ re-exporting its own modules is not a cycle with them: only edges between modules count,
    # and an import of a package counts as an import of its __init__
    graph = {n: {t for t in imports(p) if t in MODULES and t != n and not n.startswith(t + ".")}
             for n, p in MODULES.items()}
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


def test_the_checks_catch_what_they_should():
    """The rule bites: an upward import and a cycle are both found (so the tests above cannot pass vacuously)."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert "pyapp.core.board" in imports(ROOT / "search" / "solver.py")
    assert "web" not in MAY_IMPORT["core"] and layer("pyapp.web.api") == "web"
