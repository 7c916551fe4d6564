"""The optional compiled build of the Dots and Boxes computer player's search (mypyc).

``core`` is pure Python and stays so: this compiles the hot modules below with mypyc (typed
Python to C, from the mypy already in the dev dependencies) into extension modules built
under ``build/mypyc`` and then moved next to their sources. Python prefers an extension
module to a ``.py`` of the same name, so once built every import of these modules —
server, tests, benchmarks — gets the compiled one; deleting the ``.so`` files (``clean``)
goes back to pure Python. The modules share one runtime library,
``core/compiled_boxes__mypyc*.so``, kept inside the ``core`` package so that it is
importable wherever ``core`` is.

    python -m tools.compiled build [--optional]   # compile; --optional: never fail
    python -m tools.compiled clean                # remove the compiled modules
    python -m tools.compiled status               # built, stale or absent

A build records a hash of the sources it compiled (``build/mypyc/sources.json``). A
compiled module older than its source would run old code, so :func:`stale` tells, and
the test suite ignores a stale build (see :func:`use_sources`).

``TETRAD_AI_BUILD`` chooses what the tests (and the benchmarks) run: ``pure`` ignores the
compiled modules, ``compiled`` requires them, unset takes what is built and up to date.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
MODULES = (
    "core.boxes.search",
    "core.ai.boxes.tables",
    "core.ai.boxes.analysis",
    "core.ai.boxes.coins",
    "core.ai.boxes.endgame",
    "core.ai.boxes.nimstring",
    "core.ai.boxes.solver",
    "core.ai.boxes.levels",
)
"""The modules compiled: the search and everything its inner loop calls (by profiling)."""
GROUP = "core.compiled_boxes"
"""The shared runtime library's module (inside ``core``, importable wherever core is)."""
BUILD_DIR = ROOT / "build" / "mypyc"
RECORD = BUILD_DIR / "sources.json"
MODE_VARIABLE = "TETRAD_AI_BUILD"
PURE, COMPILED = "pure", "compiled"


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def compiled_paths() -> list[Path]:
    """Every compiled file in the tree: the modules' extensions and the shared library."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found: list[Path] = []
    for module in (*MODULES, GROUP + "__mypyc"):
        base = ROOT.joinpath(*module.split("."))
        found += [base.with_name(base.name + suffix) for suffix in suffixes]
    return [path for path in found if path.exists()]


DEPENDENCIES = ("core/*.py", "core/boxes/*.py", "core/ai/*.py", "core/ai/boxes/*.py")
"""The sources a build depends on: the compiled modules and every module they could import
(compiled code bakes in what it knows of the classes and constants it uses)."""


def source_hashes() -> dict[str, str]:
    paths = sorted({path for pattern in DEPENDENCIES for path in ROOT.glob(pattern)})
    return {
        str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest() for path in paths
    }


def built() -> bool:
    """Whether compiled modules are present (up to date or not)."""
    return bool(compiled_paths())


def stale() -> bool:
    """Whether compiled modules are present but were built from other sources than today's."""
    if not built():
        return False
    try:
        recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    return bool(recorded != source_hashes())


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from an extension module rather than its source."""
    return not str(module.__file__).endswith(".py")


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their ``.py`` sources even where a ``.so`` exists."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def use_sources() -> None:
    """Make the compiled modules' sources be imported instead (before ``core`` is imported)."""
    if any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        return
    already = [module for module in MODULES if module in sys.modules]
    if already:
        raise RuntimeError(f"too late to import the sources: {already} already imported")
    sys.meta_path.insert(0, _SourcesFirst())


def apply_mode() -> str:
    """Set up imports as ``TETRAD_AI_BUILD`` asks; return the mode in force (pure/compiled).

    Unset, a stale build is ignored (its modules would run old code) and an up-to-date one
    is used. ``compiled`` with no up-to-date build raises, so that a run meant to measure or
    test the compiled build never quietly runs pure Python.
    """
    wanted = os.environ.get(MODE_VARIABLE, "")
    if wanted not in ("", PURE, COMPILED):
        raise SystemExit(f"{MODE_VARIABLE} is {wanted!r}: 'pure', 'compiled' or unset")
    up_to_date = built() and not stale()
    if wanted == COMPILED and not up_to_date:
        raise SystemExit(
            f"{MODE_VARIABLE}=compiled but the compiled build is "
            f"{'stale' if built() else 'absent'}: run `make compiled`"
        )
    if wanted == PURE or not up_to_date:
        if built():
            use_sources()
        return PURE
    return COMPILED


def build() -> None:
    """Compile :data:`MODULES` in place and record the sources compiled."""
    # Imported here: only building needs mypyc and setuptools.
    from mypyc.build import mypycify  # noqa: PLC0415
    from setuptools import Distribution  # type: ignore[import-untyped]  # noqa: PLC0415

    hashes = source_hashes()
    os.chdir(ROOT)
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    paths = [str(source_path(module).relative_to(ROOT)) for module in MODULES]
    # The project's mypy configuration applies; its overrides for server-only libraries
    # are unused here, which mypy would otherwise report as an error.
    extensions = mypycify(
        ["--no-warn-unused-configs", *paths],
        opt_level="3",
        group_name=GROUP,
        target_dir=str(BUILD_DIR / "c"),
    )
    # A bare Distribution: setup() would read pyproject.toml as this project's packaging.
    distribution = Distribution({"name": "tetrad-compiled", "ext_modules": extensions})
    command = distribution.get_command_obj("build_ext")
    lib = BUILD_DIR / "lib"
    command.build_temp = str(BUILD_DIR / "temp")
    command.build_lib = str(lib)
    distribution.run_command("build_ext")
    # Moved next to the sources rather than copied over the old files (what --inplace
    # does): a running server keeps the files it loaded instead of seeing them rewritten.
    for output in lib.rglob("*.so"):
        os.replace(output, ROOT / output.relative_to(lib))
    RECORD.write_text(json.dumps(hashes, indent=1), encoding="utf-8")


def clean() -> None:
    for path in compiled_paths():
        path.unlink()
    RECORD.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.compiled", description=__doc__)
    parser.add_argument("command", choices=("build", "clean", "status"))
    parser.add_argument(
        "--optional",
        action="store_true",
        help="if the build fails (no C compiler, no Python headers), say so and keep pure Python",
    )
    args = parser.parse_args(argv)
    if args.command == "clean":
        clean()
    elif args.command == "status":
        print("stale" if stale() else "built" if built() else "absent")
    else:
        try:
            build()
        except (Exception, SystemExit) as error:
            clean()
            if not args.optional:
                raise
            print(
                f"The compiled build of the Dots and Boxes search failed ({error!r}); "
                "pure Python is used, which plays the same moves, only slower.",
                file=sys.stderr,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
