"""An MCTS (UCT + RAVE) Dots player with capture-aware playouts, to measure against hard.

Issue 15, deliverable 7, asks whether hard Dots should read ahead with a forcing
(threat-space) search — what core.ai.dots.hard does — or with Monte Carlo tree search and
capture-aware playouts, and to measure which is stronger.  This is the MCTS side of that
comparison, written in pure Python like core and given the same time per move; it is a
bench, not a product level.  bench/ai_tournament.py plays it as the level ``mcts`` (or
``mcts@SECONDS``) on Dots::

    cd bench && PYTHONPATH=.. ../.venv/bin/python ai_tournament.py \
        dots 20x20 hard@1.0 mcts@1.0 10 --jobs 1
    cd bench && PYTHONPATH=.. ../.venv/bin/python ai_tournament.py \
        dots 20x20 mcts@1.0 normal@1.0 8 --jobs 1
    cd bench && PYTHONPATH=.. ../.venv/bin/python ai_tournament.py \
        dots 39x32 hard@1.0 mcts@1.0 2 --jobs 1
    cd bench && PYTHONPATH=.. ../.venv/bin/python dots_tactics.py --level mcts
    PYTHONPATH=. .venv/bin/python bench/dots_mcts.py --positions 5   # iterations per second

How it plays (all on the public :class:`core.dots.board.DotsBoard`: ``copy``, ``place``,
``score``):

* The root's moves are hard's and normal's candidates (near the 16 latest marks, and every
  closing point); a node deeper down tries the free points next to its 6 latest marks and
  the captures and blocks it inherits.  Each move starts with a prior (virtual visits):
  high for a capture or a block of a capture, low on the edge line.
* Selection is UCT blended with RAVE (all-moves-as-first): with a few hundred playouts a
  move and a hundred moves at the root, AMAF statistics are what tells moves apart early.
* A playout of at most :data:`PLAYOUT_PLIES` moves: the side to move takes a capture next
  to the 4 latest marks if there is one, else blocks one of the other side's there, else
  plays a random free point next to them.  It is scored by the change of the lead over
  the playout (the board's own ``score``), squashed to a win probability.
* The move played is the root's most visited.

Measured 2026-12-01 on a 2-core machine shared with another worker, pure Python on both
sides (commands above; ``--jobs 1``, seed 0, colours alternating; margins in marks):

========================  =====  =======  ========  =================
match (empty start)       games  A W/D/L  A margin  think p50 (A / B)
========================  =====  =======  ========  =================
hard@1 vs mcts@1, 20×20   10     10/0/0   +14.1     68 ms / 802 ms
mcts@1 vs normal@1, 20×20 8      4/0/4    −0.6      802 ms / 1 ms
hard@1 vs mcts@1, 39×32   2      2/0/0    +77.5     244 ms / 803 ms
========================  =====  =======  ========  =================

Tactics suite (``bench/dots_tactics.py --level mcts``, 40 positions, 1 s): mcts 39/40
(misses one capture in one, c1-pocket), hard 40/40.  Speed: about 1,100 iterations
(tree walk and a ≤ 30-ply playout) a second on 20×20 middle games and 900 on 39×32
(``bench/dots_mcts.py``), 2,700–2,900 a second averaged over whole tournament games
(late playouts are short; 1,700 on 39×32).  So at 1 s a move MCTS is only about as
strong as normal's one-move reading (whose prior it starts from) and loses every game to
hard's forcing search: a few thousand noisy playouts spread over a hundred candidate
moves cannot see the two- and three-move captures that the forcing search reads exactly.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai.dots.search import (
    RECENT_MARKS,
    TIME_SHARE,
    Closers,
    all_closers,
    candidates,
    closers_after,
    free_near,
    may_close,
    threats,
)
from core.dots.board import EMPTY, LOCAL_GROUPS, ROWS_TO_WALLS, DotsBoard
from core.dots.geometry import Point
from core.dots.state import DotsState
from core.errors import IllegalMove

PLAYOUT_PLIES = 30
"""A playout stops after this many moves: the local fight is decided by then, and a
longer random tail only adds noise to the score."""
PLAYOUT_FOCUS = 4
"""Playout moves lie next to this many of the latest marks."""
TREE_FOCUS = 6
"""A node below the root tries the free points next to this many of its latest marks."""
LEAD_SCALE = 2.0
"""A playout gaining this many marks scores tanh(1) ≈ 0.76 above even (0.5 + 0.5 tanh)."""
EXPLORATION = 0.3
"""UCT's exploration constant (small: RAVE and the priors already spread the visits)."""
RAVE_EQUIVALENCE = 400
"""Visits of a node at which its own statistics weigh as much as the AMAF ones."""
PRIOR_VISITS = 8
"""Virtual visits carrying a move's prior."""
TAKE_NOW = 0.5
"""A root capture's prior counts its marks this much more (hard's TAKE_NOW): a playout
takes a capture left standing just as well, so without it taking now looks no better."""
ROOT_PRIOR_VISITS = 30
"""Virtual visits carrying a root move's prior, normal's one-move reading (it is better)."""
CAPTURE_PRIOR, BLOCK_PRIOR, QUIET_PRIOR, EDGE_PRIOR = 0.95, 0.85, 0.5, 0.3
"""Prior win rates: a capture, a block of the other side's capture, a quiet move, an edge move."""


CLOSABLE = bytes(len(LOCAL_GROUPS[ROWS_TO_WALLS[code]]) > 1 for code in range(512))
"""Per packed ``rows`` code (see DotsBoard.rows), whether a mark there joins separate runs of
own marks: may_close of core.ai.dots.search in three look-ups, for the playouts' inner loop."""

SPENT = {"playouts": 0, "seconds": 0.0}
"""Playouts run and seconds searched by :func:`choose_move` in this process (for the tournament)."""


def gain(board: DotsBoard, index: int, player: int) -> int:
    """How many marks ``player`` gains on the lead by a mark on ``index`` (on a copy)."""
    child = board.copy()
    child.player = player  # type: ignore[assignment]
    child.place(index)
    score = child.score
    before = board.score
    return (score[player] - score[1 - player]) - (before[player] - before[1 - player])


def urgent(board: DotsBoard, index: int) -> float:
    """The prior of ``index`` for the side to move: capture, block, edge or quiet."""
    player = board.player
    if may_close(board, index, player) and gain(board, index, player) > 0:
        return CAPTURE_PRIOR
    if may_close(board, index, 1 - player) and gain(board, index, 1 - player) > 0:
        return BLOCK_PRIOR
    geo = board.geometry
    point = geo.points[index]
    assert point is not None
    if point.x in (0, geo.width - 1) or point.y in (0, geo.height - 1):
        return EDGE_PRIOR
    return QUIET_PRIOR


class Node:
    """A position in the tree with per-move statistics kept from its mover's side."""

    __slots__ = (
        "amaf_visits",
        "amaf_wins",
        "board",
        "children",
        "keep",
        "moves",
        "recent",
        "total",
        "visits",
        "wins",
    )

    def __init__(
        self,
        board: DotsBoard,
        recent: list[int],
        moves: list[int],
        priors: list[float] | None = None,
        weight: int = PRIOR_VISITS,
    ) -> None:
        """A node for ``board`` (owned) reached by ``recent`` marks, trying ``moves`` with
        ``priors`` (the cheap :func:`urgent` ones unless given) worth ``weight`` visits."""
        self.board = board
        self.recent = recent
        self.moves = moves
        count = len(moves)
        if priors is None:
            priors = [urgent(board, index) for index in moves]
        self.visits = [float(weight)] * count
        self.wins = [weight * prior for prior in priors]
        self.amaf_visits = [0.0] * count
        self.amaf_wins = [0.0] * count
        self.children: list[Node | None] = [None] * count
        self.total = 0
        self.keep = [
            index for index, prior in zip(moves, priors, strict=True) if prior > QUIET_PRIOR
        ]
        """Captures and blocks, handed down to the children's move lists."""

    def select(self) -> int:
        """The position in ``moves`` of the move UCT-RAVE picks."""
        log_total = math.log(self.total + 1)
        beta = math.sqrt(RAVE_EQUIVALENCE / (3 * self.total + RAVE_EQUIVALENCE))
        best, best_value = 0, -1.0
        visits, wins, amaf_visits, amaf_wins = (
            self.visits,
            self.wins,
            self.amaf_visits,
            self.amaf_wins,
        )
        for position in range(len(self.moves)):
            seen = visits[position]
            value = wins[position] / seen
            amaf = amaf_visits[position]
            if amaf:
                value = (1 - beta) * value + beta * amaf_wins[position] / amaf
            value += EXPLORATION * math.sqrt(log_total / seen)
            if value > best_value:
                best, best_value = position, value
        return best


def root_priors(board: DotsBoard, moves: list[int], closers: Closers) -> list[float]:
    """Priors of the root's moves from normal's reading: the gain less the other side's
    largest capture right after, squashed like a playout's result; edge moves lower."""
    player = board.player
    before = board.score[player] - board.score[1 - player]
    geo = board.geometry
    priors = []
    for index in moves:
        child = board.copy()
        child.place(index)
        value = (child.score[player] - child.score[1 - player] - before) * (1 + TAKE_NOW)
        reply = threats(closers_after(board, child, closers, index, False)[1 - player])
        if reply:
            value -= reply[0][0]
        prior = 0.5 + 0.5 * math.tanh(value / LEAD_SCALE)
        point = geo.points[index]
        assert point is not None
        if point.x in (0, geo.width - 1) or point.y in (0, geo.height - 1):
            prior -= 0.2
        priors.append(prior)
    return priors


def tree_moves(board: DotsBoard, recent: list[int], keep: list[int]) -> list[int]:
    """A node's moves: free points next to its latest live marks and the inherited urgent ones."""
    cell = board.cell
    sources = [index for index in recent[-3 * TREE_FOCUS :] if cell[index] in (1, 2)]
    found = free_near(board, sources[-TREE_FOCUS:], 1)
    found.update(index for index in keep if cell[index] == EMPTY)
    if not found:
        found = free_near(board, sources, 2) or set(board.playable[:50])
    return sorted(found)


def playout(board: DotsBoard, recent: list[int], rng: random.Random, played: list[int]) -> None:
    """Play capture-aware random moves on ``board`` (owned), appending them to ``played``.

    Captures and blocks are looked for next to the two latest marks (a capture appears
    next to the mark that made it possible: the mover's previous one, or the other side's
    last, which threatens), random moves next to the four latest.
    """
    recent = recent[-PLAYOUT_FOCUS:]
    cell = board.cell
    rows = board.rows
    stride = board.geometry.stride
    ring = board.geometry.ring
    for _ in range(PLAYOUT_PLIES):
        if board.is_over:
            return
        player = board.player
        own, theirs = rows[player], rows[1 - player]
        move = block = -1
        seen: set[int] = set()
        for source in recent[-2:]:
            for step in ring:
                index = source + step
                if cell[index] != EMPTY or index in seen:
                    continue
                seen.add(index)
                if (
                    CLOSABLE[own[index - stride] << 6 | own[index] << 3 | own[index + stride]]
                    and gain(board, index, player) > 0
                ):
                    move = index
                    break
                if (
                    block < 0
                    and CLOSABLE[
                        theirs[index - stride] << 6 | theirs[index] << 3 | theirs[index + stride]
                    ]
                    and gain(board, index, 1 - player) > 0
                ):
                    block = index
            if move >= 0:
                break
        if move < 0:
            move = block
        if move < 0:
            near = [
                source + step
                for source in recent[-PLAYOUT_FOCUS:]
                for step in ring
                if cell[source + step] == EMPTY
            ]
            move = rng.choice(near) if near else rng.choice(board.playable)
        board.place(move)
        recent.append(move)
        played.append(move)


def reward(board: DotsBoard, start_lead: int) -> float:
    """Player 0's result of a playout: the lead it gained, squashed into 0..1."""
    gained = board.score[0] - board.score[1] - start_lead
    return 0.5 + 0.5 * math.tanh(gained / LEAD_SCALE)


def search(
    board: DotsBoard, recent: list[int], rng: random.Random, deadline: float
) -> tuple[int, int]:
    """The most visited root move after searching until ``deadline``, and the playouts run."""
    closers = (all_closers(board, 0), all_closers(board, 1))
    moves = candidates(board, recent, closers)
    root = Node(board, recent, moves, root_priors(board, moves, closers), ROOT_PRIOR_VISITS)
    root.keep = sorted({*root.keep, *closers[0], *closers[1]})
    if len(root.moves) == 1:
        return root.moves[0], 0
    start_lead = board.score[0] - board.score[1]
    playouts = 0
    clock = time.perf_counter
    while playouts == 0 or clock() < deadline:
        path: list[tuple[Node, int]] = []
        played: list[int] = []
        node = root
        while True:
            position = node.select()
            path.append((node, position))
            index = node.moves[position]
            played.append(index)
            child = node.children[position]
            if child is None:
                after = node.board.copy()
                after.place(index)
                if node.visits[position] >= PRIOR_VISITS + 1 and not after.is_over:
                    # Second visit: the move earns a node (the first only gets a playout).
                    line = [*node.recent, index]
                    child = Node(after, line, tree_moves(after, line, node.keep))
                    node.children[position] = child
                    after = after.copy()
                else:
                    break
            else:
                after = child.board.copy()
            node = child
            if after.is_over or not node.moves:
                break
        if not after.is_over:
            playout(after, [*node.recent, played[-1]], rng, played)
        result = reward(after, start_lead)
        playouts += 1
        update(path, played, result)
    best = max(range(len(root.moves)), key=lambda position: root.visits[position])
    return root.moves[best], playouts


def update(path: list[tuple[Node, int]], played: list[int], result: float) -> None:
    """Back up ``result`` (player 0's) along ``path``, with AMAF for later moves of each mover."""
    for depth, (node, position) in enumerate(path):
        mine = result if node.board.player == 0 else 1 - result
        node.visits[position] += 1
        node.wins[position] += mine
        node.total += 1
        # The mover's own later moves (every second one from here) count as if played first.
        later = set(played[depth::2])
        for spot, index in enumerate(node.moves):
            if index in later:
                node.amaf_visits[spot] += 1
                node.amaf_wins[spot] += mine


def choose_move(state: DotsState, seed: int | None = None, time_limit: float = 1.0) -> Point:
    """The point MCTS plays in ``state`` within about ``time_limit`` seconds."""
    if state.is_over:
        raise IllegalMove("the game is over")
    deadline = time.perf_counter() + TIME_SHARE * time_limit
    board = state.to_board()
    geo = board.geometry
    recent = [geo.index(point) for point in state.moves[-RECENT_MARKS:]]
    started = time.perf_counter()
    index, playouts = search(board, recent, random.Random(seed), deadline)
    SPENT["playouts"] += playouts
    SPENT["seconds"] += time.perf_counter() - started
    return geo.point(index)


def main() -> None:
    """Iterations (tree walk + playout) per second of the search on middle-game positions."""
    from bench.dots_think_time import middle_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--size", default="20x20")
    parser.add_argument("--marks", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    total = 0
    spent = 0.0
    for seed in range(args.positions):
        state = middle_game(width, height, args.marks, seed)
        board = state.to_board()
        recent = [board.geometry.index(point) for point in state.moves[-RECENT_MARKS:]]
        started = time.perf_counter()
        _, playouts = search(board, recent, random.Random(seed), started + args.seconds)
        spent += time.perf_counter() - started
        total += playouts
    print(f"{args.size} middle games after {args.marks} marks, {args.positions} positions")
    print(f"MCTS iterations (playouts of <= {PLAYOUT_PLIES} plies): {total / spent:.0f} per second")


if __name__ == "__main__":
    main()
