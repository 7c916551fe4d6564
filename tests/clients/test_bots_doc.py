"""docs/bots.md runs: its shell and Python examples against a live server, in the order
written, in a folder holding docs/example_bot.py (see :mod:`tests.docs.api_doc` for the
markers; here also ``<!-- run; background -->``, a command left running until the end,
``<!-- run python -->``, ``<!-- file NAME -->``, a block saved as NAME first, and
``<!-- excerpt FILE -->``, lines that must be FILE's own)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
from pathlib import Path

from tests.conftest import LiveServer
from tests.docs.api_doc import read_guide

DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDE = DOCS / "bots.md"
RESULT = re.compile(r"^game \d+ (won|lost|draw) \d+:\d+ \(\w+\)$")


async def run(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *command, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output, _ = await asyncio.wait_for(process.communicate(), 240)
    assert process.returncode is not None
    return process.returncode, output.decode()


def check_results(output: str) -> None:
    results = [line for line in output.splitlines() if line.startswith("game ")]
    assert all(RESULT.match(line) for line in results), output


async def test_every_example_of_the_bot_guide_runs(server: LiveServer, tmp_path: Path) -> None:
    shutil.copy(DOCS / "example_bot.py", tmp_path)
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "TETRAD_SERVER": server.url,
        # The operator's `tetrad bots add` works on the live server's database.
        "TETRAD_DATABASE_URL": server.app.state.settings.database_url,
    }
    background: list[asyncio.Task[tuple[int, str]]] = []
    ran = 0
    for block in read_guide(GUIDE).blocks:
        where = f"{GUIDE.name}:{block.line}"
        if block.verb == "file":
            (tmp_path / block.argument).write_text(block.body + "\n", encoding="utf-8")
        elif block.verb == "excerpt":
            source = (DOCS / block.argument).read_text(encoding="utf-8")
            missing = [ln for ln in block.body.splitlines() if ln.strip() and ln not in source]
            assert not missing, f"{where}: not in {block.argument}: {missing}"
        elif block.verb == "run" and block.argument == "python":
            code = block.body.replace("http://127.0.0.1:8000", server.url)
            status, output = await run([sys.executable, "-c", code], tmp_path, env)
            assert status == 0, f"{where}: {output}"
            ran += 1
        elif block.verb == "run":
            task = asyncio.ensure_future(run(["bash", "-e", "-c", block.body], tmp_path, env))
            if "background" in [part.strip() for part in (block.marker or "").split(";")]:
                background.append(task)
                continue
            status, output = await task
            assert status == 0, f"{where}: {output}"
            check_results(output)
            ran += 1
    for task in background:
        status, output = await task
        assert status == 0, output
    host = (tmp_path / "host.txt").read_text(encoding="utf-8")
    assert [line.split()[1] for line in host.splitlines() if RESULT.match(line)] == ["1", "2"]
    assert ran == 6
