"""core's documentation runs: every ``>>>`` example in every module of ``core`` (the public
API of each game is shown in its package's docstring), and the ``repr`` of any state is the
code that makes it again."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import boxes, dots

MODULES = ["core", *sorted(info.name for info in pkgutil.walk_packages(core.__path__, "core."))]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_games_show_their_api() -> None:
    for package in (boxes, dots):
        assert doctest.testmod(package).attempted >= 8


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), game=st.sampled_from(["boxes", "dots"]), ended=st.booleans())
def test_the_repr_of_a_state_rebuilds_it(seed: int, game: str, ended: bool) -> None:
    rng = random.Random(seed)
    if game == "boxes":
        state = boxes.new_game(rows=rng.randint(1, 4), cols=rng.randint(1, 4))
    else:
        state = dots.new_game(width=rng.randint(5, 8), height=rng.randint(5, 8), start="cross")
    for _ in range(rng.randint(0, 30)):
        if state.is_over:
            break
        state = state.play(rng.choice(list(state.legal_moves())))
    if ended and not state.is_over:
        state = state.resign(rng.choice([0, 1]))
    assert eval(repr(state), {"boxes": boxes, "dots": dots}) == state
