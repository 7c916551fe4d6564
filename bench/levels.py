"""The strength ladder of the computer levels in both games, as the table docs/levels.md shows.

    cd bench && PYTHONPATH=.. ../.venv/bin/python levels.py [--games 20] \\
        [--random-games 10] [--boxes-size 5x5] [--dots-size 20x20] [--time-limit 1.0] \\
        [--seed 1] [--jobs 1] [--games-only boxes|dots] [--matches hard-normal,...]

For each game, five matches of ``bench/ai_tournament.py`` (colours alternating, every move
through ``core.ai.choose_move`` as the server calls it): each level against a uniformly
random player (``--random-games`` games each: they are one-sided, and hard's take longest)
and each level against the next one up (``--games`` games each). Prints one Markdown row a
match, from the stronger side's point of view: wins, draws and losses, the share of wins,
the mean margin (boxes or marks a game) and the stronger side's think time (p95 and max).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

from ai_tournament import AI_BUILD, GameResult, percentile, play_one, run_all

MATCHES = (
    ("easy", "random"),
    ("normal", "random"),
    ("hard", "random"),
    ("normal", "easy"),
    ("hard", "normal"),
)
"""Each match as (the level measured, its opponent)."""
GAME_NAMES = {"boxes": "Dots and Boxes", "dots": "Dots"}


@dataclass(frozen=True)
class Match:
    """One match's results, from the point of view of ``level``."""

    game: str
    size: str
    level: str
    opponent: str
    results: list[GameResult]

    def row(self) -> str:
        """The match as one Markdown table row."""
        margins = [result.margin for result in self.results]
        wins = sum(margin > 0 for margin in margins)
        draws = margins.count(0)
        losses = len(margins) - wins - draws
        think = [seconds * 1000 for result in self.results for seconds in result.think["A"]]
        return (
            f"| {GAME_NAMES[self.game]} {self.size} | {self.level} vs {self.opponent} "
            f"| {len(margins)} | {wins}/{draws}/{losses} | {100 * wins / len(margins):.0f} % "
            f"| {statistics.fmean(margins):+.1f} | {percentile(think, 0.95):.0f} ms "
            f"| {max(think, default=0.0):.0f} ms |"
        )


HEADER = (
    "| board | match | games | W/D/L | wins | mean margin | think p95 | think max |\n"
    "|---|---|---|---|---|---|---|---|"
)


def play_match(
    game: str, size: str, level: str, opponent: str, games: int, options: argparse.Namespace
) -> Match:
    """``games`` games of ``level`` (side A) against ``opponent``, colours alternating."""
    jobs = [
        (game, size, level, opponent, index, options.time_limit, options.seed)
        for index in range(games)
    ]
    return Match(game, size, level, opponent, run_all(play_one, jobs, options.jobs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--random-games", type=int, default=10)
    parser.add_argument("--boxes-size", default="5x5")
    parser.add_argument("--dots-size", default="20x20")
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games-only", choices=tuple(GAME_NAMES), help="one game only")
    parser.add_argument(
        "--matches",
        help="these matches only, as LEVEL-OPPONENT (comma-separated; all five unless given)",
    )
    options = parser.parse_args()
    started = time.perf_counter()
    print(
        f"levels: {options.games} games a match between levels, {options.random_games} against "
        f"random, time limit {options.time_limit:g} s, seed {options.seed}, {options.jobs} "
        f"job(s), {AI_BUILD} build of core's search"
    )
    print(HEADER, flush=True)
    for game in GAME_NAMES:
        if options.games_only not in (None, game):
            continue
        size = options.boxes_size if game == "boxes" else options.dots_size
        for level, opponent in MATCHES:
            if options.matches and f"{level}-{opponent}" not in options.matches.split(","):
                continue
            games = options.random_games if opponent == "random" else options.games
            print(play_match(game, size, level, opponent, games, options).row(), flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
