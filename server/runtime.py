"""Process-wide tuning for a long-running server."""

from __future__ import annotations

import gc
import os

GEN0_THRESHOLD = 50_000
"""Allocations between young-generation collections (CPython's default is 700). A move
allocates a few hundred short-lived objects that reference counting frees at once; at the
default, the collector ran every few moves and took about a third of the CPU under load."""


def tune_garbage_collector() -> None:
    """Move everything allocated at start-up (modules, tables, the app) out of the
    collector's sight, and collect the young generation less often."""
    if os.environ.get("TETRAD_GC_DEFAULTS"):  # for measuring what the tuning buys
        return
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, second, third)
