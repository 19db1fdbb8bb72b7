"""An import-linter contract type: the listed packages meet only through their entry modules.

A module outside package ``P`` may import ``P`` (its ``__init__.py``, which names the public
interface in ``__all__``) but none of ``P``'s inner modules; modules inside ``P`` import each other
directly. Registered in ``pyproject.toml`` (``contract_types``) and run by ``lint-imports``;
``scripts/entry_imports.py`` rewrites the imports that break it.
"""

from __future__ import annotations

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def owner(module: str, packages: list[str]) -> str | None:
    """The listed package ``module`` lies in (itself included), if any."""
    for package in packages:
        if module == package or module.startswith(package + "."):
            return package
    return None


class EntryOnlyContract(Contract):
    """Options: ``packages``, the packages whose inner modules only they themselves import."""

    type_name = "entry_only"

    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        packages = sorted(self.packages, key=len, reverse=True)  # type: ignore[attr-defined]
        missing = [p for p in packages if p not in graph.modules]
        if missing:
            raise ValueError(f"entry_only: no such package in the graph: {', '.join(missing)}")
        breaches: list[dict[str, object]] = []
        for package in sorted(packages):
            for inner in sorted(graph.find_descendants(package)):
                for importer in sorted(graph.find_modules_that_directly_import(inner)):
                    if owner(importer, packages) == package:
                        continue
                    lines = sorted({d["line_number"] for d in
                                    graph.get_import_details(importer=importer, imported=inner)})
                    breaches.append({"importer": importer, "imported": inner, "package": package,
                                     "lines": lines})
                    output.verbose_print(verbose, f"{importer} -> {inner}")
        return ContractCheck(kept=not breaches, metadata={"breaches": breaches})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for breach in check.metadata["breaches"]:
            lines = ", ".join(f"l.{n}" for n in breach["lines"])  # type: ignore[attr-defined]
            output.print_error(f"{breach['importer']} imports {breach['imported']} ({lines}): "
                               f"import it from {breach['package']}", bold=False)
        output.new_line()
        output.print("Export the name from the package's __init__.py (with __all__) and run "
                     "scripts/entry_imports.py.")
