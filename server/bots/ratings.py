"""Ratings of the bots' ladder, by OpenSkill (Weng-Lin, the Plackett-Luce model).

Why OpenSkill rather than Glicko-2: a Glicko-2 rating changes once per rating period, from
all of that period's games, while the ladder rates each game as it ends, on several server
processes; OpenSkill updates after every game, from the two ratings alone, and its Python
package is maintained, typed and has no dependencies (the Glicko-2 packages on PyPI are
small unmaintained modules). Both keep a skill and an uncertainty; OpenSkill's are ``mu``
and ``sigma``.

The numbers are put on the Elo scale people know: the model's ``beta`` is chosen so that
400 points between two settled players mean 10 to 1 odds. The computer levels are fixed
anchors, never updated, so a rating means the same on every server: easy 800 and normal
1200 (as the issue fixes them), hard 1600: in docs/levels.md normal won every game against
easy and hard won every game (Dots and Boxes) or 92 % of them (Dots) against normal, which
on the Elo scale is about 400 points a step (92 % is 424); perfect scores cannot tell more,
so the two steps are set equal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

START_MU = 1500.0
START_SIGMA = 350.0
"""A new bot: in the middle, and uncertain enough to move hundreds of points in its first
games (as a new Glicko player's 350)."""
ELO_BETA = 400 / math.log(10) / math.sqrt(2)
"""Two settled players 400 points apart: the stronger wins 10 games of 11."""
ANCHOR_SIGMA = 1.0
ANCHORS: dict[str, float] = {"easy": 800.0, "normal": 1200.0, "hard": 1600.0}
"""The computer levels' fixed ratings."""
ANCHOR_PREFIX = "level:"

_model = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=ELO_BETA, tau=START_SIGMA / 100)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA


def anchor_player(level: str) -> str:
    """How a computer level is named among the ladder's players."""
    return ANCHOR_PREFIX + level


def anchor_skill(player: str) -> Skill | None:
    """The fixed skill of a computer level's player name; None for a bot."""
    if not player.startswith(ANCHOR_PREFIX):
        return None
    return Skill(ANCHORS[player.removeprefix(ANCHOR_PREFIX)], ANCHOR_SIGMA)


def rate(first: Skill, second: Skill, winner: int | None) -> tuple[Skill, Skill]:
    """Both skills after a game ``first`` and ``second`` played: ``winner`` 0 or 1, None a
    draw. (The caller keeps an anchor's skill as it was.)"""
    ranks = [1.0, 1.0] if winner is None else [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    teams = [
        [_model.rating(mu=first.mu, sigma=first.sigma)],
        [_model.rating(mu=second.mu, sigma=second.sigma)],
    ]
    [[one], [two]] = _model.rate(teams, ranks=ranks)
    return Skill(one.mu, one.sigma), Skill(two.mu, two.sigma)


def win_chance(first: Skill, second: Skill) -> float:
    """How likely ``first`` beats ``second`` as the model sees them."""
    teams = [
        [_model.rating(mu=first.mu, sigma=first.sigma)],
        [_model.rating(mu=second.mu, sigma=second.sigma)],
    ]
    return float(_model.predict_win(teams)[0])


def size_class(game: str, width: int, height: int) -> str:
    """Boards are rated in three classes per game, by their longer side: Dots and Boxes up to
    3 boxes ``small``, up to 6 ``standard``, else ``large``; Dots up to 12 points, up to 24,
    else large."""
    side = max(width, height)
    small, standard = (3, 6) if game == "boxes" else (12, 24)
    if side <= small:
        return "small"
    return "standard" if side <= standard else "large"
