"""``core`` imports only the standard library, so bots and tests can use it anywhere."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"


def imported_top_level_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_core_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"core", "__future__"}
    offenders = {
        str(path.relative_to(CORE.parent)): sorted(imported_top_level_modules(path) - allowed)
        for path in sorted(CORE.rglob("*.py"))
    }
    offenders = {path: names for path, names in offenders.items() if names}
    assert offenders == {}


def test_core_does_no_io_or_asyncio() -> None:
    forbidden = {"asyncio", "socket", "subprocess", "threading", "multiprocessing", "os"}
    for path in sorted(CORE.rglob("*.py")):
        used = imported_top_level_modules(path) & forbidden
        assert not used, f"{path} imports {used}"
