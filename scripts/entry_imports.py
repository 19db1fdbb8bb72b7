"""Rewrite imports of another domain's inner modules to go through its entry module.

``from app.match.service import MatchService`` in ``app/lobby/`` becomes ``from app.match import
MatchService``: the domains listed by the ``entry_only`` contract in ``pyproject.toml`` meet only
through their ``__init__.py`` (``lint-imports`` fails otherwise). Run it after a merge brings new
imports, then ``lint-imports``:

    .venv/bin/python scripts/entry_imports.py          # rewrite app/, then sort the imports
    .venv/bin/python scripts/entry_imports.py --check  # only list what it would change

A name is looked up in the target's ``__init__.py`` by the module it comes from, so a name
re-exported under another one (``from app.match.store import read as read_match``) is found too;
the importing module keeps its own local name (``read_match as read``). What it cannot rewrite it
lists, and exits 1: a name the entry module does not export yet (add it there, with ``__all__``),
or an inner module imported as an object (``from app.match import store``), whose uses must name
exported functions instead. Imports inside a domain stay direct: a module of ``app/match`` never
imports ``app.match`` itself, which would run the package's ``__init__`` half-way.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTRACT_TYPE = "entry_only"


def entry_packages(pyproject: Path) -> list[str]:
    """The packages of the ``entry_only`` contract, the one list both the linter and this read."""
    config = tomllib.loads(pyproject.read_text())["tool"]["importlinter"]
    for contract in config.get("contracts", []):
        if contract.get("type") == CONTRACT_TYPE:
            return list(contract["packages"])
    raise SystemExit(f"no {CONTRACT_TYPE!r} contract in {pyproject}")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def owner(module: str, packages: list[str]) -> str | None:
    """The entry-only package ``module`` lies in (itself included), if any."""
    for package in packages:
        if module == package or module.startswith(package + "."):
            return package
    return None


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The module's statements, those under ``if TYPE_CHECKING:`` included (an entry module that
    imports its names on first use lists them there; app/kernel/exports.py)."""
    found: list[ast.stmt] = []
    for node in body:
        found.append(node)
        if isinstance(node, ast.If):
            found.extend(_top_level(node.body))
    return found


def exports(package: str, root: Path) -> dict[tuple[str, str], str]:
    """(inner module, name there) -> the name the entry module exports it under."""
    init = root / Path(*package.split(".")) / "__init__.py"
    tree = ast.parse(init.read_text())
    public: set[str] | None = None
    found: dict[tuple[str, str], str] = {}
    for node in _top_level(tree.body):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found[(node.module, alias.name)] = alias.asname or alias.name
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            public = set(ast.literal_eval(node.value))
    if public is None:
        return {}
    for name in sorted(public):
        if _is_module(f"{package}.{name}", root):
            raise SystemExit(f"{init}: exports {name!r}, the name of one of its modules; "
                             "export it under another name")
    return {key: name for key, name in found.items() if name in public}


@dataclass
class Report:
    changed: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _is_module(dotted: str, root: Path) -> bool:
    path = root / Path(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _exported(table: dict[tuple[str, str], str], module: str, name: str, root: Path,
              depth: int = 0) -> str | None:
    """The exported name of ``module.name``, following ``name`` to where ``module`` imported it
    from (``app.match.schemas`` imports ``TimeControl`` from ``app.match.clocks``)."""
    if (module, name) in table:
        return table[(module, name)]
    path = root / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    if depth > 5 or not path.exists():
        return None
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return _exported(table, node.module, alias.name, root, depth + 1)
    return None


def _render(node: ast.ImportFrom, target: str, names: list[tuple[str, str]], indent: str) -> str:
    parts = [name if name == local else f"{name} as {local}" for name, local in names]
    return f"{indent}from {target} import {', '.join(parts)}"


def rewrite_file(path: Path, root: Path, packages: list[str],
                 table: dict[str, dict[tuple[str, str], str]], report: Report, write: bool) -> None:
    source = path.read_text()
    here = owner(module_name(path, root), packages)
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
            continue
        target = owner(node.module, packages)
        if target is None or target == here:
            continue
        where = f"{path.relative_to(root)}:{node.lineno}"
        if node.module == target:
            for alias in node.names:
                if _is_module(f"{target}.{alias.name}", root):
                    report.problems.append(f"{where}: imports the module {target}.{alias.name}; "
                                           f"use the names {target} exports instead")
            continue
        names: list[tuple[str, str]] = []
        for alias in node.names:
            exported = _exported(table[target], node.module, alias.name, root)
            if exported is None:
                report.problems.append(
                    f"{where}: {target} does not export {alias.name} (add "
                    f"`from {node.module} import {alias.name}` and __all__ to its __init__.py)")
                break
            names.append((exported, alias.asname or alias.name))
        else:
            last = node.end_lineno or node.lineno
            if any("#" in text for text in lines[node.lineno - 1:last - 1]):
                report.problems.append(f"{where}: a comment inside the import; rewrite it by hand")
                continue
            line = lines[node.lineno - 1]
            indent = line[:len(line) - len(line.lstrip())]
            trailing = lines[last - 1][node.end_col_offset or 0:].rstrip()  # a comment, if any
            edits.append((node.lineno, last,
                          _render(node, target, names, indent) + trailing + "\n"))
    if not edits:
        return
    for first, last, text in sorted(edits, reverse=True):
        lines[first - 1:last] = [text]
    report.changed.append(path)
    if write:
        path.write_text("".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list what would change, write nothing")
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: app/)")
    args = parser.parse_args()
    packages = sorted(entry_packages(ROOT / "pyproject.toml"), key=len, reverse=True)
    table = {package: exports(package, ROOT) for package in packages}
    report = Report()
    files: list[Path] = []
    for given in args.paths or [ROOT / "app"]:
        given = given.resolve()
        files.extend(sorted(given.rglob("*.py")) if given.is_dir() else [given])
    for path in files:
        rewrite_file(path, ROOT, packages, table, report, write=not args.check)
    for path in report.changed:
        print(f"{'would rewrite' if args.check else 'rewrote'} {path.relative_to(ROOT)}")
    if report.changed and not args.check:
        # The rewritten lines are merged and sorted as the house's ruff settings want them.
        subprocess.run([sys.executable, "-m", "ruff", "check", "--fix", "--select", "I", "--quiet",
                        *map(str, report.changed)], cwd=ROOT, check=False)
    for problem in report.problems:
        print(problem, file=sys.stderr)
    return 1 if report.problems or (args.check and report.changed) else 0


if __name__ == "__main__":
    sys.exit(main())
