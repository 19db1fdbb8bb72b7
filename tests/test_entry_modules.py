"""The domains' entry modules: each exports what its ``__all__`` names, the lazy ones resolve the
same names the type checker sees, the worker processes' modules load without the web stack, and
the ``entry_only`` contract tells an inner import from an entry one."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

from scripts import entry_imports
from scripts.linters.entry_only import EntryOnlyContract

ROOT = Path(__file__).resolve().parents[1]


def _entry_packages() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "entry_only"]
    return list(contract["packages"])


PACKAGES = _entry_packages()


@pytest.mark.parametrize("package", PACKAGES)
def test_every_exported_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__doc__, f"{package} says what it owns"
    assert module.__all__, f"{package} names its interface"
    for name in module.__all__:
        assert getattr(module, name) is not None, f"{package}.{name}"


def _type_checking_imports(init: Path) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    found[alias.asname or alias.name] = (statement.module, alias.name)
    return found


def _init(package: str) -> Path:
    return ROOT / Path(*package.split(".")) / "__init__.py"


LAZY = [package for package in PACKAGES if _type_checking_imports(_init(package))]


def test_the_domains_run_in_pool_workers_are_lazy() -> None:
    assert {"app.analysis", "app.match"} <= set(LAZY)


@pytest.mark.parametrize("package", LAZY)
def test_a_lazy_entry_module_resolves_what_the_type_checker_sees(package: str) -> None:
    seen = _type_checking_imports(_init(package))
    module = importlib.import_module(package)
    assert set(seen) == set(module.__all__)
    for name, (origin, original) in seen.items():
        assert getattr(module, name) is getattr(importlib.import_module(origin), original)


@pytest.mark.parametrize("worker_module", ["app.analysis.compute", "app.match.bots"])
def test_a_pool_worker_module_loads_without_the_web_stack(worker_module: str) -> None:
    """A spawned worker unpickles its function by module: that must not pull in the routes."""
    probe = (f"import sys, {worker_module}; "
             "print(sorted(m for m in ('fastapi', 'jinja2', 'app.http', 'app.accounts') "
             "if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    assert loaded == "[]"


def _graph(*imports: tuple[str, str]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for module in ("top", "top.a", "top.a.inner", "top.a.other", "top.b", "top.b.inner",
                   "top.shared", "top.shared.tool", "top.main"):
        graph.add_module(module)
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported, line_number=3,
                         line_contents=f"from {imported} import x")
    return graph


def _check(graph: grimp.ImportGraph) -> tuple[bool, list[tuple[str, str]]]:
    contract = EntryOnlyContract(name="entries", session_options={},
                                 contract_options={"packages": ["top.a", "top.b"]})
    result = contract.check(graph, verbose=False)
    return result.kept, [(b["importer"], b["imported"]) for b in result.metadata["breaches"]]


def test_the_contract_keeps_entry_intra_package_and_shared_imports() -> None:
    graph = _graph(("top.b.inner", "top.a"), ("top.main", "top.b"), ("top.a.inner", "top.a.other"),
                   ("top.a.inner", "top.shared.tool"))
    assert _check(graph) == (True, [])


def test_the_contract_breaks_on_another_domains_inner_module() -> None:
    graph = _graph(("top.b.inner", "top.a.inner"), ("top.main", "top.b.inner"),
                   ("top.a.other", "top.a.inner"))
    assert _check(graph) == (False, [("top.b.inner", "top.a.inner"), ("top.main", "top.b.inner")])


def test_the_rewrite_goes_through_the_entry_module_and_keeps_local_names(tmp_path: Path) -> None:
    for folder in ("top/a", "top/b"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "top/__init__.py").write_text("")
    (tmp_path / "top/a/inner.py").write_text("def read() -> None: ...\nclass Thing: ...\n")
    (tmp_path / "top/a/__init__.py").write_text(
        '"""A."""\n\nfrom top.a.inner import Thing\nfrom top.a.inner import read as read_thing\n\n'
        '__all__ = ["Thing", "read_thing"]\n')
    (tmp_path / "top/a/other.py").write_text("from top.a.inner import Thing\n")
    user = tmp_path / "top/b/__init__.py"
    user.write_text("from top.a.inner import Thing, read\n\n\ndef f() -> None:\n"
                    "    from top.a.inner import read as again  # noqa: F401  # kept\n")
    missing = tmp_path / "top/b/more.py"
    missing.write_text("from top.a.inner import unknown\nfrom top.a import inner\n")
    report = entry_imports.Report()
    table = {"top.a": entry_imports.exports("top.a", tmp_path)}
    for path in (user, missing, tmp_path / "top/a/other.py"):
        entry_imports.rewrite_file(path, tmp_path, ["top.a", "top.b"], table, report, write=True)
    assert user.read_text() == ("from top.a import Thing, read_thing as read\n\n\ndef f() -> None:\n"
                                "    from top.a import read_thing as again  # noqa: F401  # kept\n")
    assert (tmp_path / "top/a/other.py").read_text() == "from top.a.inner import Thing\n"
    assert report.changed == [user]
    assert len(report.problems) == 2
    assert "does not export unknown" in report.problems[0]
    assert "imports the module top.a.inner" in report.problems[1]
