"""The optional compiled build of the Dots and Boxes computer player's search (mypyc, Cython).

``core`` is pure Python and stays so: this compiles the hot modules below with mypyc (typed
Python to C, from the mypy already in the dev dependencies) into extension modules built
under ``build/mypyc`` and then moved next to their sources. The exact search's inner loop
has a native twin besides, ``core/ai/boxes/exact_kernel.pyx`` (Cython, a dev dependency),
built with them: ``solver.Solver`` uses it when it is importable and searches in Python
otherwise, alike. Python prefers an extension
module to a ``.py`` of the same name, so once built every import of these modules —
server, tests, benchmarks — gets the compiled one; deleting the ``.so`` files (``clean``)
goes back to pure Python. The modules share one runtime library,
``core/compiled_boxes__mypyc*.so``, kept inside the ``core`` package so that it is
importable wherever ``core`` is.

    python -m tools.compiled build [--optional]   # compile; --optional: never fail
    python -m tools.compiled clean                # remove the compiled modules
    python -m tools.compiled status               # built, stale or absent
    python -m tools.compiled build --frozen       # the same for bench/frozen_ai

The frozen players (bench/frozen_ai, the benches' baseline) have the same hot modules;
``--frozen`` builds them into their own package the same way, so that a bench measures
the baseline as the build it ran in when it was today's hard. Nothing else builds them.

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
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
BUILD_DIR = ROOT / "build" / "mypyc"
MODE_VARIABLE = "TETRAD_AI_BUILD"
PURE, COMPILED = "pure", "compiled"


@dataclass(frozen=True)
class Target:
    """One set of modules compiled together, with its shared runtime library."""

    name: str
    base: Path
    """The directory the modules' packages live in (what is on ``sys.path``)."""
    modules: tuple[str, ...]
    group: str
    """The shared runtime library's module (inside the package, importable with it)."""
    dependencies: tuple[str, ...]
    """Globs (from the repository's root) of the sources a build depends on: the compiled
    modules and every module they could import (compiled code bakes in what it knows of
    the classes and constants it uses)."""
    native: tuple[str, ...] = ()
    """Cython modules (``.pyx`` beside where the module would be) with no Python twin of
    the same name: pure Python does without them."""

    @property
    def build_dir(self) -> Path:
        return BUILD_DIR if self.name == "core" else BUILD_DIR / self.name

    @property
    def record(self) -> Path:
        return self.build_dir / "sources.json"

    def source_path(self, module: str, suffix: str = ".py") -> Path:
        return self.base.joinpath(*module.split(".")).with_suffix(suffix)


CORE = Target(
    name="core",
    base=ROOT,
    modules=(
        "core.boxes.search",
        "core.ai.boxes.tables",
        "core.ai.boxes.analysis",
        "core.ai.boxes.coins",
        "core.ai.boxes.endgame",
        "core.ai.boxes.nimstring",
        "core.ai.boxes.solver",
        "core.ai.boxes.levels",
    ),
    group="core.compiled_boxes",
    dependencies=(
        "core/*.py",
        "core/boxes/*.py",
        "core/ai/*.py",
        "core/ai/boxes/*.py",
        "core/ai/boxes/*.pyx",
    ),
    native=("core.ai.boxes.exact_kernel",),
)
"""The search and everything its inner loop calls (by profiling)."""
FROZEN = Target(
    name="frozen",
    base=ROOT / "bench",
    modules=(
        "frozen_ai.boxes.search",
        "frozen_ai.boxes.tables",
        "frozen_ai.boxes.analysis",
        "frozen_ai.boxes.coins",
        "frozen_ai.boxes.endgame",
        "frozen_ai.boxes.nimstring",
        "frozen_ai.boxes.solver",
        "frozen_ai.boxes.levels",
    ),
    group="frozen_ai.compiled_boxes",
    dependencies=(
        "core/*.py",
        "core/boxes/*.py",
        "bench/frozen_ai/*.py",
        "bench/frozen_ai/boxes/*.py",
    ),
)
"""The same modules of the frozen players (bench/frozen_ai), for the benches only: the
baseline then runs as the build it was measured in when it was today's hard."""
TARGETS = {target.name: target for target in (CORE, FROZEN)}

MODULES = CORE.modules
GROUP = CORE.group
RECORD = CORE.record


def source_path(module: str) -> Path:
    return CORE.source_path(module)


def compiled_paths(target: Target = CORE) -> list[Path]:
    """Every compiled file of ``target``: the modules' extensions and the shared library."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found: list[Path] = []
    for module in (*target.modules, *target.native, target.group + "__mypyc"):
        base = target.base.joinpath(*module.split("."))
        found += [base.with_name(base.name + suffix) for suffix in suffixes]
    return [path for path in found if path.exists()]


DEPENDENCIES = CORE.dependencies


def source_hashes(target: Target = CORE) -> dict[str, str]:
    paths = sorted({path for pattern in target.dependencies for path in ROOT.glob(pattern)})
    return {
        str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest() for path in paths
    }


def built(target: Target = CORE) -> bool:
    """Whether compiled modules are present (up to date or not)."""
    return bool(compiled_paths(target))


def stale(target: Target = CORE) -> bool:
    """Whether compiled modules are present but were built from other sources than today's."""
    if not built(target):
        return False
    try:
        recorded = json.loads(target.record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    return bool(recorded != source_hashes(target))


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from an extension module rather than its source."""
    return not str(module.__file__).endswith(".py")


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads a target's compiled modules from their ``.py`` sources even where a ``.so``
    exists, and finds none of its native modules."""

    def __init__(self, target: Target) -> None:
        self.target = target

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.target.native:
            raise ModuleNotFoundError(f"{fullname} is native only (pure Python asked for)")
        if fullname not in self.target.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, self.target.source_path(fullname))


def use_sources(target: Target = CORE) -> None:
    """Make the compiled modules' sources be imported instead (before they are imported)."""
    if any(
        isinstance(finder, _SourcesFirst) and finder.target is target for finder in sys.meta_path
    ):
        return
    already = [module for module in (*target.modules, *target.native) if module in sys.modules]
    if already:
        raise RuntimeError(f"too late to import the sources: {already} already imported")
    sys.meta_path.insert(0, _SourcesFirst(target))


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


def apply_frozen_mode() -> str:
    """Set up the frozen players' imports like :func:`apply_mode` does core's (before
    ``frozen_ai`` is imported); return the mode in force.

    The frozen build is used when it is up to date, unless ``TETRAD_AI_BUILD=pure``; with
    ``TETRAD_AI_BUILD=compiled`` it must be (``python -m tools.compiled build --frozen``),
    so that a comparison meant to run both builds never runs the baseline slower.
    """
    wanted = os.environ.get(MODE_VARIABLE, "")
    up_to_date = built(FROZEN) and not stale(FROZEN)
    if wanted == COMPILED and not up_to_date:
        raise SystemExit(
            f"{MODE_VARIABLE}=compiled but the frozen players' compiled build is "
            f"{'stale' if built(FROZEN) else 'absent'}: run "
            "`python -m tools.compiled build --frozen`"
        )
    if wanted == PURE or not up_to_date:
        if built(FROZEN):
            use_sources(FROZEN)
        return PURE
    return COMPILED


def build(target: Target = CORE) -> None:
    """Compile ``target``'s modules in place and record the sources compiled."""
    # Imported here: only building needs mypyc, Cython and setuptools.
    from mypyc.build import mypycify  # noqa: PLC0415
    from setuptools import Distribution, Extension  # type: ignore[import-untyped]  # noqa: PLC0415

    hashes = source_hashes(target)
    os.chdir(ROOT)
    build_dir = target.build_dir
    build_dir.mkdir(parents=True, exist_ok=True)
    paths = [str(target.source_path(module).relative_to(ROOT)) for module in target.modules]
    # The project's mypy configuration applies; its overrides for server-only libraries
    # are unused here, which mypy would otherwise report as an error.
    extensions = mypycify(
        ["--no-warn-unused-configs", *paths],
        opt_level="3",
        group_name=target.group,
        target_dir=str(build_dir / "c"),
    )
    if target.native:
        from Cython.Build import cythonize  # noqa: PLC0415

        native = [
            Extension(
                module,
                [str(target.source_path(module, ".pyx").relative_to(ROOT))],
                extra_compile_args=["-O3"],
            )
            for module in target.native
        ]
        extensions += cythonize(  # type: ignore[no-untyped-call]
            native, build_dir=str(build_dir / "cython"), quiet=True
        )
    # A bare Distribution: setup() would read pyproject.toml as this project's packaging.
    distribution = Distribution(
        {"name": f"tetrad-compiled-{target.name}", "ext_modules": extensions}
    )
    command = distribution.get_command_obj("build_ext")
    lib = build_dir / "lib"
    command.build_temp = str(build_dir / "temp")
    command.build_lib = str(lib)
    distribution.run_command("build_ext")
    # Moved next to the sources rather than copied over the old files (what --inplace
    # does): a running server keeps the files it loaded instead of seeing them rewritten.
    for output in lib.rglob("*.so"):
        os.replace(output, target.base / output.relative_to(lib))
    target.record.write_text(json.dumps(hashes, indent=1), encoding="utf-8")


def clean(target: Target = CORE) -> None:
    for path in compiled_paths(target):
        path.unlink()
    target.record.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.compiled", description=__doc__)
    parser.add_argument("command", choices=("build", "clean", "status"))
    parser.add_argument(
        "--frozen",
        action="store_true",
        help="the frozen players of bench/frozen_ai instead of core (for the benches)",
    )
    parser.add_argument(
        "--optional",
        action="store_true",
        help="if the build fails (no C compiler, no Python headers), say so and keep pure Python",
    )
    args = parser.parse_args(argv)
    target = FROZEN if args.frozen else CORE
    if args.command == "clean":
        clean(target)
    elif args.command == "status":
        print("stale" if stale(target) else "built" if built(target) else "absent")
    else:
        try:
            build(target)
        except (Exception, SystemExit) as error:
            clean(target)
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
