"""The server's folders import only what docs/architecture.md says they may: the room rules
know no wire, HTTP or storage; the room service knows storage only by its interfaces; the
stores know nothing of the service; the edges reach storage only through the service (the
hub excepted: it is the pub/sub transport)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"
WEB = ("fastapi", "starlette")
DATABASE = ("sqlmodel", "sqlalchemy")
EDGES = ("server.api", "server.ws")

RULES: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    # (modules, forbidden imports, allowed exceptions among the forbidden)
    (
        "rooms/model.py rooms/rules.py rooms/games.py rooms/daily.py",
        ("server.protocol", "server.errors", "server.store", "server.db", "pydantic", "redis",
         *EDGES, *WEB, *DATABASE),
        (),
    ),
    ("rooms/*.py", ("server.store", "server.errors", "redis", *EDGES, *WEB, *DATABASE), ()),
    ("store/*.py", ("server.rooms.service", "server.rooms.rules", *EDGES, *WEB), ()),
    ("protocol.py", ("server.store", "server.rooms.service", "redis", *EDGES, *WEB), ()),
    ("api/*.py", ("server.store",), ("api/health.py",)),
    (
        "ws/*.py",
        ("server.store", "server.api"),
        ("server.store.frames", "server.store.keys", "server.store.outage",
         "server.store.subscriber"),
    ),
]  # fmt: skip


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def modules(patterns: str) -> list[Path]:
    return sorted({path for pattern in patterns.split() for path in SERVER.glob(pattern)})


@pytest.mark.parametrize(("patterns", "forbidden", "allowed"), RULES)
def test_imports_follow_the_layers(
    patterns: str, forbidden: tuple[str, ...], allowed: tuple[str, ...]
) -> None:
    found = modules(patterns)
    assert found, patterns
    broken = []
    for path in found:
        name = str(path.relative_to(SERVER))
        if name in allowed:
            continue
        for module in imports_of(path):
            hit = any(module == f or module.startswith(f + ".") for f in forbidden)
            excused = any(module == a or module.startswith(a + ".") for a in allowed)
            if hit and not excused:
                broken.append(f"{name} imports {module}")
    assert not broken, broken
