"""The import layout of the project, checked from the sources (the standard library's ``ast``).

Every module of ``g2s``, ``theory`` and ``reproduce`` is parsed, and every import statement in it
-- at module level, inside functions and under ``if TYPE_CHECKING:`` alike, absolute or relative,
``import a.b`` and ``from a import b`` where ``b`` is a module -- becomes an edge to the project
module it loads.  A function-level import is an edge like any other: moving an import into a
function to dodge an import-time circle leaves the circle in the design, so it fails here too.

* No import circle between modules (there is no plug-in registry exception: the encoder
  registry :data:`g2s.nn.model.ENCODERS` imports the baselines it lists).
* The layers point one way: ``reproduce`` -> ``theory`` -> ``g2s``; ``g2s`` never imports
  ``theory`` or ``reproduce``, and ``theory`` never imports ``reproduce``.
* Inside ``g2s`` the commands are the top: no module imports ``g2s.cli``, ``g2s.train`` or
  ``g2s.certificates`` but the ``g2s`` command itself (``g2s train`` runs ``g2s.train``).
* Inside ``reproduce`` the engine (``reproduce/harness/``) is below the scripts: it imports
  ``g2s``, ``theory`` and itself only.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("g2s", "theory", "reproduce")
#: the command modules of g2s, and the one module allowed to import them (the ``g2s`` command)
COMMANDS = {"g2s.cli", "g2s.train", "g2s.certificates"}
COMMAND_IMPORTERS = {"g2s.cli"}


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package ``__init__``) for every module of :data:`PACKAGES`."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The project module that importing ``name`` loads last (its longest known prefix)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


def _targets(module: str, is_pkg: bool, node: ast.AST) -> list[str]:
    """The project modules one import statement of ``module`` loads."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
        # a script run as python reproduce/NAME.py imports its siblings by bare name (_bootstrap)
        names += [f"reproduce.{n}" for n in names if f"reproduce.{n}" in MODULES
                  and module.startswith("reproduce.")]
        return [t for t in map(_resolve, names) if t is not None]
    if node.level:  # relative: from the module's package, up level - 1 packages
        package = module.split(".") if is_pkg else module.split(".")[:-1]
        base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]).strip(".")
    else:
        base = node.module
    out = []
    for alias in node.names:
        child = f"{base}.{alias.name}"
        out.append(child if child in MODULES else _resolve(base))
    return [t for t in out if t is not None and t.split(".")[0] in PACKAGES]


def import_graph() -> dict[str, dict[str, int]]:
    """``module -> {imported module: line of the first such import}``, self-imports left out."""
    graph = {}
    for module, (path, is_pkg) in MODULES.items():
        edges = graph.setdefault(module, {})
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _targets(module, is_pkg, node):
                    if target != module:
                        edges.setdefault(target, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


GRAPH = import_graph()


def _edges(where, to) -> list[str]:
    """``"a:LINE -> b"`` for every edge from a module ``where`` accepts to one ``to`` accepts."""
    return [f"{a}:{line} -> {b}" for a, targets in sorted(GRAPH.items()) if where(a)
            for b, line in sorted(targets.items()) if to(b)]


def test_the_walk_sees_the_packages_and_their_imports():
    """A guard on the walker itself: it finds known modules, and edges of each kind."""
    assert {"g2s.cli", "g2s.io.files", "theory.dynamics", "reproduce.harness.engine",
            "reproduce.figure3"} <= set(MODULES)
    assert "g2s.io.input_graph" in GRAPH["g2s.io.text"]            # from ... import name
    assert "g2s.reference.certificates" in GRAPH["g2s.certificates"]  # from pkg import module
    assert "reproduce.harness._worker" in GRAPH["reproduce.harness.engine"]  # in a function
    assert "reproduce._bootstrap" in GRAPH["reproduce.figure3"]     # a script's sibling


def test_no_import_circle():
    found = cycles(GRAPH)
    lines = []
    for component in found:
        inside = set(component)
        lines.append(" <-> ".join(component))
        lines += ["    " + e for e in _edges(inside.__contains__, inside.__contains__)]
    assert not found, "import circles (module:line -> module):\n" + "\n".join(lines)


def _package(module: str) -> str:
    return module.split(".")[0]


def test_layers_point_one_way():
    """reproduce -> theory -> g2s: never back up."""
    up = (_edges(lambda a: _package(a) == "g2s", lambda b: _package(b) != "g2s")
          + _edges(lambda a: _package(a) == "theory", lambda b: _package(b) == "reproduce"))
    assert not up, "imports against the layers:\n" + "\n".join(up)


def test_the_commands_are_the_top_of_g2s():
    bad = _edges(lambda a: a not in COMMAND_IMPORTERS, lambda b: b in COMMANDS)
    assert not bad, "imports of a g2s command module:\n" + "\n".join(bad)


def test_the_harness_is_below_the_scripts():
    def harness(m):
        return m == "reproduce.harness" or m.startswith("reproduce.harness.")

    bad = _edges(harness, lambda b: _package(b) == "reproduce" and not harness(b))
    assert not bad, "the harness imports the script layer:\n" + "\n".join(bad)
