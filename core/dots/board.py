"""The fast, mutable Dots engine: one board that changes in place, for search and for replay.

:class:`DotsBoard` is the engine under the immutable :class:`core.dots.DotsState`, and the
documented fast path for the AI: copy a board with :meth:`DotsBoard.copy`, put marks with
:meth:`DotsBoard.place` (which finds every capture the mark makes), read ``score``,
``player``, ``playable`` and the arrays directly.  Whoever creates or copies a board owns
it; nothing else holds a reference, so mutating it is safe.

Cells are addressed by their index in a flat array with a border sentinel (see
:mod:`core.dots.geometry`).  Each cell of ``cell`` holds one of

* ``EMPTY`` — a point anyone may play,
* ``LIVE0`` / ``LIVE1`` (``1`` / ``2``, i.e. player + 1) — a live mark of that player,
* ``DEAD`` — a captured mark, or an empty point inside a captured area,
* ``BORDER`` — the sentinel beyond the edge of the sheet.

``mark`` holds who put a mark on each point (player + 1, or 0) and ``owner`` whose
captured area a point lies in (player + 1, or 0).  A mark is captured when it lies in the
other player's area; a player's score is the number of the opponent's marks in their areas.

How a capture is found, locally and without rescanning the board
-----------------------------------------------------------------
The walls of player *c* are *c*'s live marks: chains link them horizontally, vertically or
diagonally, so the areas they enclose are connected horizontally and vertically only.
A new mark can cut an area off only if it joins two or more separate runs of own marks
around it (a 256-entry table answers that from the eight neighbours) and two of those runs
already belong to one chain, so that the mark closes a loop.  A union-find forest over the
marks (``chains``) tells the second cheaply; it never forgets a link, so after a capture it
may take two marks for linked that are not any more, which costs a walk but never misses a
capture.  When both hold, the engine walks the outline of every area touching the mark,
keeping the area on its right and the walls on its left.  A walk that turns right four
times more than left has gone round the area, so the area is enclosed and the outline is
its tightest chain; a walk that turns left has gone round the outside of the walls
instead.  The walks run side by
side, so a small enclosed area is settled after a few steps even when a long wall is
also touched.  A flood fill inside the chain then collects the area with everything in
it.  When the walk passes a mark twice or comes back near itself, own marks stick into
the area or hang on its chain: the points beyond the walk that cannot reach the edge
without crossing it (an enclosure hanging on the chain) join the area.  Two shapes are
common enough to be settled cheaply: a single point ringed by four marks on one side of
the mark needs no walk, and a walk that comes back near itself only where it cuts a
corner short holds no pocket, so nothing beyond it is searched.  Per player,
``enclosed`` remembers every point that may lie in a closed empty area (a house), so the
house rule costs one look-up when no house is involved.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import MutableSequence
from functools import cache
from typing import TypeAlias

from core.dots.geometry import Geometry
from core.errors import IllegalMove
from core.game import Player, other

EMPTY = 0
LIVE0 = 1
LIVE1 = 2
DEAD = 3
BORDER = 4

Area: TypeAlias = "tuple[Player, tuple[int, ...], Area | None]"
"""A capture as a linked list, newest first: (captor, indices inside its chain, older)."""

_OTHER: tuple[Player, Player] = (1, 0)  # other(player) without a call, for place()
_RUNNING, _CLOSED, _SAME_LOOP, _OUTER = 0, 1, 2, 3
_CHUNK = 8  # outline steps per walk before the side-by-side walks take turns
_SHORTEST_TOUCHING_WALK = 9
"""Fewer distinct marks than this cannot make an outline walk hold a pocket or a mark that
sticks into the area without passing some mark twice (the shortest found in random games
and built shapes has eleven)."""


def chain_root(chains: MutableSequence[int], at: int) -> int:
    """The root of the chain forest's tree holding ``at``, halving the path on the way
    (each node passed is hung from its grandparent)."""
    while True:
        up = chains[at]
        if up == at:
            return at
        top = chains[up]
        chains[at] = top
        at = top


def _group_roots(members: list[int], links: list[tuple[int, int]]) -> tuple[int, ...]:
    """One member per group of ``members`` joined by ``links`` (pairs naming a non-member
    join nothing), in increasing order; each group is named by the root of a union-find
    that hangs the second of each pair under the first."""
    parent = {member: member for member in members}

    def root(member: int) -> int:
        while parent[member] != member:
            member = parent[member]
        return member

    for first, second in links:
        if first in parent and second in parent:
            parent[root(second)] = root(first)
    return tuple(sorted({root(member) for member in members}))


def _local_groups(walls: int) -> tuple[int, ...]:
    """One direction per group of free orthogonal neighbours that touch around the mark.

    ``walls`` has bit ``2*d`` set when the orthogonal neighbour in direction ``d`` is an own
    live mark and bit ``2*d + 1`` for the diagonal neighbour between directions ``d`` and
    ``d + 1``.  Two free orthogonal neighbours touch when the diagonal between them is free.
    """
    free = [d for d in range(4) if not walls >> (2 * d) & 1]
    touching = [(d, (d + 1) % 4) for d in free if not walls >> (2 * d + 1) & 1]
    return _group_roots(free, touching)


LOCAL_GROUPS: tuple[tuple[int, ...], ...] = tuple(_local_groups(walls) for walls in range(256))


def _linked_runs(walls: int) -> tuple[int, ...]:
    """One ring position (0 to 7, clockwise from east) per run of linked neighbours.

    ``walls`` is a pattern as for :data:`LOCAL_GROUPS`.  Two neighbours next to each other
    on the ring are linked, and so are two orthogonal neighbours at a right angle (they are
    diagonal to each other).  When the mark cuts off an area, it splits its free
    neighbours into as many groups as there are runs.
    """
    ring = [position for position in range(8) if walls >> position & 1]
    linked = [
        (position, near)
        for position in ring
        for near in ((position + 1) % 8, (position + 2) % 8 if position % 2 == 0 else -1)
    ]
    return _group_roots(ring, linked)


@cache
def run_offsets(stride: int) -> tuple[tuple[int, ...], ...]:
    """Per neighbour pattern, the index offset of one neighbour in each linked run."""
    ring = (1, stride + 1, stride, stride - 1, -1, -stride - 1, -stride, -stride + 1)
    return tuple(tuple(ring[position] for position in _linked_runs(walls)) for walls in range(256))


def _walls_of_rows(code: int) -> int:
    """The neighbour pattern (as for :data:`LOCAL_GROUPS`) of three ``rows`` entries packed
    as ``above << 6 | own << 3 | below``; the point's own bit is left out."""
    above, own, below = code >> 6 & 7, code >> 3 & 7, code & 7
    return (
        (own & 1)
        | (below & 1) << 1
        | (below >> 1 & 1) << 2
        | (below >> 2 & 1) << 3
        | (own >> 2 & 1) << 4
        | (above >> 2 & 1) << 5
        | (above >> 1 & 1) << 6
        | (above & 1) << 7
    )


ROWS_TO_WALLS: tuple[int, ...] = tuple(_walls_of_rows(code) for code in range(512))


def neighbour_walls(cell: bytearray, index: int, stride: int, wall: int) -> int:
    """The 8-bit pattern of which of the eight neighbours of ``index`` hold ``wall``.

    Bit 0 is the right neighbour and the bits go clockwise (on screen), the order that
    :data:`LOCAL_GROUPS` is indexed by.
    """
    return (
        (cell[index + 1] == wall)
        | ((cell[index + stride + 1] == wall) << 1)
        | ((cell[index + stride] == wall) << 2)
        | ((cell[index + stride - 1] == wall) << 3)
        | ((cell[index - 1] == wall) << 4)
        | ((cell[index - stride - 1] == wall) << 5)
        | ((cell[index - stride] == wall) << 6)
        | ((cell[index - stride + 1] == wall) << 7)
    )


class DotsBoard:
    """A Dots position that changes in place; the fast path for search (see module docs).

    The rules it applies, one sentence each:

    * Players alternately put one mark on a free point; nobody passes.
    * A closed chain of a player's live marks, each linked to the next horizontally,
      vertically or diagonally, that encloses a live opponent mark captures its area.
    * Each area the new mark cuts off is bounded by its tightest chain, and one mark may
      cut off several areas, each captured or not on its own.
    * The board edge never closes a chain.
    * Everything strictly inside a capture's outer chain is captured with it — own marks
      (not scored) and own enclosures, even one hanging on the chain, houses of either
      player and older captured areas — and no mark is counted twice.  A point is inside
      when it cannot reach the board's edge without crossing the area or a captor's mark
      next to it.
    * Nobody may play inside a captured area: its empty points are dead.
    * An area closed with no live opponent mark inside is a house, and both players may
      still play in it.
    * An opponent mark put in a house is captured in that same move by the smallest house
      around it, unless that move makes a capture of its own.
    * A house whose chain loses a mark to a capture dissolves.
    * Enclosing a captured area together with its captor's chain captures that chain and
      frees the marks held inside, which stop counting for the first captor.
    * A player's score is the number of opponent marks lying in that player's areas.
    """

    __slots__ = (
        "areas",
        "cell",
        "chains",
        "cut_off",
        "enclosed",
        "geometry",
        "last",
        "mark",
        "moves",
        "owner",
        "playable",
        "player",
        "rows",
        "runs",
        "score",
        "win_margin",
    )

    geometry: Geometry
    cell: bytearray
    mark: bytearray
    owner: bytearray
    enclosed: bytearray
    """Per index, bit ``player + 1`` set if the point may lie in that player's closed area."""
    playable: list[int]
    """Indices of the points that may be played, in increasing order (row by row)."""
    chains: array[int]
    """A union-find forest over the marks: each mark's parent in its chain's tree (an
    index that is not a mark is its own root).  Live marks linked to each other share a
    tree; a capture leaves its marks in their trees, so two marks in one tree may no longer
    be linked, but two linked live marks are always in one tree."""
    runs: tuple[tuple[int, ...], ...]
    """Per neighbour pattern, one index offset per run of linked neighbours (shared)."""
    rows: tuple[bytearray, bytearray]
    """Per player, per index, which of the point, its left and its right neighbour hold a
    live mark of that player (bits 1, 2 and 0), so three look-ups give a mark's neighbour
    pattern (see :data:`ROWS_TO_WALLS`)."""
    player: Player
    score: list[int]
    cut_off: int
    """How many areas marks have cut off so far (captured or become houses)."""
    last: int
    moves: int
    win_margin: int | None
    areas: Area | None

    def __init__(self, geo: Geometry, win_margin: int | None = None) -> None:
        cell = bytearray([BORDER]) * geo.cells
        for index in geo.indices:
            cell[index] = EMPTY
        self.geometry = geo
        self.cell = cell
        self.mark = bytearray(geo.cells)
        self.owner = bytearray(geo.cells)
        self.enclosed = bytearray(geo.cells)
        self.playable = list(geo.indices)
        self.chains = array("i", range(geo.cells))
        self.runs = run_offsets(geo.stride)
        self.rows = (bytearray(geo.cells), bytearray(geo.cells))
        self.player = 0
        self.score = [0, 0]
        self.cut_off = 0
        self.last = -1
        self.moves = 0
        self.win_margin = win_margin
        self.areas = None

    def copy(self) -> DotsBoard:
        """An independent copy that the caller owns."""
        board = DotsBoard.__new__(DotsBoard)
        board.geometry = self.geometry
        board.cell = self.cell[:]
        board.mark = self.mark[:]
        board.owner = self.owner[:]
        board.enclosed = self.enclosed[:]
        board.playable = self.playable[:]
        board.chains = self.chains[:]
        board.runs = self.runs
        board.rows = (self.rows[0][:], self.rows[1][:])
        board.player = self.player
        board.score = self.score[:]
        board.cut_off = self.cut_off
        board.last = self.last
        board.moves = self.moves
        board.win_margin = self.win_margin
        board.areas = self.areas
        return board

    # -- reading ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """No point is left to play, or one side leads by the immediate-win margin."""
        if not self.playable:
            return True
        margin = self.win_margin
        return margin is not None and abs(self.score[0] - self.score[1]) >= margin

    def is_playable(self, index: int) -> bool:
        """Whether a mark may go on ``index``: a free point outside every captured area."""
        return self.cell[index] == EMPTY

    def is_captured(self, index: int) -> bool:
        """Whether a mark stands on ``index`` and lies in the other player's area."""
        owner = self.owner[index]
        return bool(self.mark[index]) and owner != 0 and owner != self.mark[index]

    # -- changing -----------------------------------------------------------------------

    def put(self, index: int, player: Player) -> None:
        """Put a start mark of ``player`` on ``index``: no turn passes and nothing is captured."""
        if self.cell[index] != EMPTY:
            raise IllegalMove(f"point {self.geometry.point(index)!r} is taken")
        self.cell[index] = self.mark[index] = player + 1
        self._set_live(index, player)
        self._drop_playable(index)
        self._link(index)

    def place(self, index: int) -> bool:
        """The player to move puts a mark on ``index``; every capture it makes is taken.

        True if the mark may have changed an area or a house: it cut an area off, captured,
        or went on a point that may lie in a closed area.  Raises IllegalMove if the point
        is taken or dead.  The caller checks ``is_over`` first; ``index`` must be a board
        index (see :class:`Geometry`).
        """
        cell = self.cell
        if cell[index] != EMPTY:
            raise IllegalMove(f"point {self.geometry.point(index)!r} is taken or dead")
        player = self.player
        wall = player + 1
        cell[index] = wall
        self.mark[index] = wall
        playable = self.playable
        del playable[bisect_left(playable, index)]
        self.player = _OTHER[player]
        self.last = index
        self.moves += 1
        # _set_live inlined: this runs for every mark of every game and search.
        rows = self.rows[player]
        rows[index - 1] |= 1
        rows[index] |= 2
        rows[index + 1] |= 4
        stride = self.geometry.stride
        walls = ROWS_TO_WALLS[rows[index - stride] << 6 | rows[index] << 3 | rows[index + stride]]
        runs = self.runs[walls]
        if runs:
            # Join the mark to the chains of its neighbours; only a mark that links two
            # runs of the same chain can cut an area off (see the module docs).
            chains = self.chains
            root = chain_root(chains, index + runs[0])
            chains[index] = root
            if len(runs) > 1 and self._join(index, runs, root):
                cut_off = self.cut_off
                if self._close(index, player, LOCAL_GROUPS[walls]):
                    return True
                if self.cut_off != cut_off:
                    if self.enclosed[index] & (2 - player):
                        self._intrude(index, other(player))
                    return True
        enclosed = self.enclosed[index]
        if enclosed:
            if enclosed & (2 - player):
                self._intrude(index, other(player))
            return True
        return False

    def _join(self, index: int, runs: tuple[int, ...], root: int) -> bool:
        """Join the chains of the runs of marks around ``index`` (the first run's chain,
        ``root``, is joined already); True if two runs were on one chain already.
        """
        chains = self.chains
        looped = False
        for offset in runs[1:]:
            other_root = chain_root(chains, index + offset)
            if other_root == root:
                looped = True
            else:
                chains[other_root] = root
        return looped

    def _link(self, index: int) -> None:
        """Join a live mark that was put without a turn or freed to its neighbours' chains."""
        wall = self.cell[index]
        runs = self.runs[neighbour_walls(self.cell, index, self.geometry.stride, wall)]
        if runs:
            chains = self.chains
            root = chain_root(chains, index + runs[0])
            chains[index] = root
            self._join(index, runs, root)

    # -- the rules ----------------------------------------------------------------------

    def _close(self, mark: int, player: Player, groups: tuple[int, ...]) -> bool:
        """Each area the new mark cuts off is bounded by its tightest chain and is captured
        if it holds a live opponent mark, else it becomes a house; True if anything was taken.
        """
        cell = self.cell
        wall = player + 1
        steps = self.geometry.steps
        if len(groups) == 2 and not self.enclosed[mark] & wall:
            # The commonest cut, settled without walking: one side of the mark is a single
            # point ringed by four marks (a diamond), so the other side is the open area.
            east, south, west, north = steps
            for d in groups:
                seed = mark + steps[d]
                if (
                    cell[seed + east] == wall
                    and cell[seed + south] == wall
                    and cell[seed + west] == wall
                    and cell[seed + north] == wall
                ):
                    self.cut_off += 1
                    if cell[seed] == 2 - player:
                        self._take(player, [seed])
                        return True
                    self.enclosed[seed] |= wall
                    return False
        count = len(groups)
        seeds = [mark + steps[d] for d in groups]
        lefts = [mark] * count
        rights = seeds[:]
        headings = [(d + 3) & 3 for d in groups]
        turns = [0] * count
        chains = [[mark] for _ in groups]
        status = [_RUNNING] * count
        running = count
        # A point not flagged as possibly enclosed lies in an open area, so one of the walks
        # must be the long one round the outside: once all others are done, it is that one.
        known_open = not self.enclosed[mark] & wall
        outer_seen = False
        while running:
            for walk in range(count):
                if status[walk] != _RUNNING:
                    continue
                left, right, heading, turn = lefts[walk], rights[walk], headings[walk], turns[walk]
                chain = chains[walk]
                closed = False
                for _ in range(_CHUNK):
                    step = steps[heading]
                    ahead = right + step
                    if cell[ahead] == wall:
                        left = ahead
                        heading = (heading + 1) & 3
                        turn += 1
                        chain.append(left)
                    else:
                        ahead_left = left + step
                        if cell[ahead_left] == wall:
                            left = ahead_left
                            right = ahead
                            chain.append(left)
                        else:
                            right = ahead_left
                            heading = (heading + 3) & 3
                            turn -= 1
                    if left == mark and right in seeds:
                        other = seeds.index(right)
                        if other == walk:
                            closed = True
                            break
                        if status[other] == _RUNNING:
                            status[other] = _SAME_LOOP
                            running -= 1
                lefts[walk], rights[walk], headings[walk], turns[walk] = left, right, heading, turn
                if closed:
                    status[walk] = _CLOSED
                    running -= 1
                    outer_seen = outer_seen or turn < 0
                if known_open and not outer_seen and running == 1:
                    for rest in range(count):
                        if status[rest] == _RUNNING:
                            status[rest] = _OUTER
                    running = 0
                if not running:
                    break
        cut_off = [walk for walk in range(count) if status[walk] == _CLOSED and turns[walk] >= 0]
        if not cut_off:
            return False
        self.cut_off += len(cut_off)
        opponent = 2 - player
        if len(cut_off) == 1:
            walk = cut_off[0]
            return self._settle(chains[walk], *self._fill(seeds[walk], chains[walk], opponent))
        fills = []
        enclosed = self.enclosed
        for walk in cut_off:
            fill = self._fill(seeds[walk], chains[walk], opponent)
            # Flag the land this mark cut off at once, so that working out another area's
            # pockets never mistakes it for open land.
            for index in fill[0]:
                enclosed[index] |= wall
            fills.append((chains[walk], *fill))
        taken = False
        for chain, inside, seen, holds_opponent in fills:
            taken = self._settle(chain, inside, seen, holds_opponent) or taken
        return taken

    def _settle(self, walk: list[int], inside: list[int], seen: set[int], holds: bool) -> bool:
        """Complete an area the player to move just cut off (the fill of ``walk``) to all
        that is inside its outer chain, and capture it if it holds a live opponent mark or
        make it a house; True for a capture.
        """
        player = other(self.player)
        wall = player + 1
        marks = len(seen) - len(inside)
        if marks != len(walk) - 1 or marks >= _SHORTEST_TOUCHING_WALK:
            # The walk passed a mark twice or is long enough to come back near itself.
            holds = self._add_pockets(walk, inside, seen, wall) or holds
        if holds:
            self._take(player, inside)
            return True
        enclosed = self.enclosed
        for index in inside:
            enclosed[index] |= wall
        return False

    def _inside_chain(self, seed: int, walk: list[int], wall: int) -> list[int]:
        """Everything inside the outer chain of a closed outline walk of ``wall`` marks
        round ``seed`` (see :meth:`_add_pockets`).
        """
        inside, seen, _ = self._fill(seed, walk, 0)
        self._add_pockets(walk, inside, seen, wall)
        return inside

    def _fill(self, seed: int, walk: list[int], opponent: int) -> tuple[list[int], set[int], bool]:
        """The points a closed walk holds in (an orthogonal flood from ``seed`` that stops at
        the walk's marks), the set of those points and marks, and whether a live
        ``opponent`` mark is among the points.
        """
        cell = self.cell
        steps = self.geometry.steps
        seen = set(walk)
        seen.add(seed)
        inside = [seed]
        holds_opponent = cell[seed] == opponent
        stack = [seed]
        while stack:
            index = stack.pop()
            for step in steps:
                near = index + step
                if near not in seen:
                    seen.add(near)
                    stack.append(near)
                    inside.append(near)
                    if cell[near] == opponent:
                        holds_opponent = True
        return inside, seen, holds_opponent

    def _add_pockets(self, walk: list[int], inside: list[int], seen: set[int], wall: int) -> bool:
        """Complete ``inside`` (and ``seen``), the fill of a closed walk of ``wall`` marks,
        to everything inside the walk's outer chain; True if that added a live opponent mark.

        Whatever lies beyond the walk's marks but cannot reach the board's edge without
        crossing them is inside too: an own enclosure hanging on the chain, a mark wedged
        between two parts of it.  A mark of the walk with nothing but the inside round it
        (it sticks into the area) is inside as well; the rest of the walk is the outer chain.
        """
        chain = set(walk)
        pockets = True
        if len(chain) == len(walk) - 1:
            # A walk that passes no mark twice and comes near itself only between
            # consecutive marks leaves no pocket and no mark sticking in: its marks have
            # exactly as many neighbouring pairs as the walk has links.
            if len(chain) < _SHORTEST_TOUCHING_WALK:
                return False
            # Counted on a bitmask of the marks, with no Python loop over the pairs.
            stride = self.geometry.stride
            bits = sum(map((1).__lshift__, chain))
            pairs = 0
            for offset in (1, stride - 1, stride, stride + 1):
                pairs += (bits & (bits >> offset)).bit_count()
            if pairs == len(chain):
                return False
            # Two marks two links apart that touch (a corner cut short) make a triangle
            # round no point: if every extra pair is such a corner there is no pocket, and
            # only the mark at a corner may stick into the area.
            marks = walk[:-1]
            touching = (1, stride - 1, stride, stride + 1)
            corners = 0
            for before, after in zip(marks, marks[2:] + marks[:2], strict=True):
                if abs(after - before) in touching:
                    corners += 1
            pockets = pairs != len(chain) + corners
        steps = self.geometry.steps
        east, south, west, north = steps
        added_opponent = pockets and self._pockets(walk, inside, seen, wall)
        for mark in chain:
            if (
                mark + east in seen
                and mark + south in seen
                and mark + west in seen
                and mark + north in seen
            ):
                inside.append(mark)
        return added_opponent

    def _pockets(self, walk: list[int], inside: list[int], seen: set[int], wall: int) -> bool:
        """Add to ``inside`` and ``seen`` whatever lies beyond the walk's marks but cannot
        reach the board's edge without crossing them; True if that added a live opponent mark.
        """
        cell = self.cell
        enclosed = self.enclosed
        steps = self.geometry.steps
        east, south, west, north = steps
        opponent = 3 - wall
        added_opponent = False
        reaching_edge: set[int] = set()
        for mark in walk:
            for step in steps:
                start = mark + step
                if start in seen or start in reaching_edge:
                    continue
                state = cell[start]
                if not (
                    state == BORDER
                    or (state == EMPTY and not enclosed[start] & wall)
                    or start + east in reaching_edge
                    or start + south in reaching_edge
                    or start + west in reaching_edge
                    or start + north in reaching_edge
                ):
                    region = self.closed_region(start, wall, reaching_edge, seen)
                    if region is not None:
                        seen |= region
                        inside.extend(region)
                        added_opponent = added_opponent or any(cell[i] == opponent for i in region)
                        continue
                # It reaches the edge, and so does every point next to it beyond the walk.
                reaching_edge.add(start)
                for near in (start + east, start + south, start + west, start + north):
                    if near not in seen:
                        reaching_edge.add(near)
        return added_opponent

    def closed_region(
        self, start: int, wall: int, open_: set[int], fence: set[int] | None = None
    ) -> set[int] | None:
        """The points joined to ``start`` horizontally and vertically without crossing
        ``fence`` (by default: the live marks of ``wall``), if they do not reach the edge of
        the board; else None, and they join ``open_``, the points known to reach it.

        The search runs toward the nearest edge first, and stops at any point of ``open_``
        and at any free point that no closed area of ``wall`` marks may hold (see
        ``enclosed``), so open land is told quickly.
        """
        cell = self.cell
        enclosed = self.enclosed
        toward_edge = self.geometry.edge_first
        region = {start}
        stack = [start]
        while stack:
            index = stack.pop()
            state = cell[index]
            if state == BORDER or (state == EMPTY and not enclosed[index] & wall):
                open_ |= region
                return None
            for step in toward_edge[index]:
                near = index + step
                if near in open_:
                    open_ |= region
                    return None
                if near not in region and (
                    cell[near] != wall if fence is None else near not in fence
                ):
                    region.add(near)
                    stack.append(near)
        return region

    def _intrude(self, mark: int, owner: Player) -> None:
        """An opponent mark put inside a house is captured at once by the smallest house
        of ``owner`` around it, together with everything else inside that house.
        """
        cell = self.cell
        wall = owner + 1
        order = self.geometry.edge_first
        seen = {mark}
        stack = [mark]
        while stack:
            index = stack.pop()
            for step in order[index]:
                near = index + step
                if near in seen:
                    continue
                state = cell[near]
                if state == wall:
                    continue
                if state == BORDER:
                    # The house this point was flagged for has dissolved: forget it here.
                    enclosed = self.enclosed
                    keep = 3 - wall
                    for open_point in seen:
                        enclosed[open_point] &= keep
                    return
                seen.add(near)
                stack.append(near)
        top = min(seen)
        chain = self._walk_outline(top - self.geometry.stride, top, 0, wall)
        self._take(owner, self._inside_chain(top, chain, wall))

    def _walk_outline(self, left: int, right: int, heading: int, wall: int) -> list[int]:
        """The walls met walking once round an outline from the edge between ``left`` (a
        wall) and ``right`` (not a wall), keeping walls on the left.
        """
        cell = self.cell
        steps = self.geometry.steps
        start_left, start_right = left, right
        chain = [left]
        while True:
            step = steps[heading]
            ahead = right + step
            if cell[ahead] == wall:
                left = ahead
                heading = (heading + 1) & 3
                chain.append(left)
            else:
                ahead_left = left + step
                if cell[ahead_left] == wall:
                    left = ahead_left
                    right = ahead
                    chain.append(left)
                else:
                    right = ahead_left
                    heading = (heading + 3) & 3
            if left == start_left and right == start_right:
                return chain

    def _take(self, captor: Player, inside: list[int]) -> None:
        """A capture turns everything inside its chain into the captor's area: opponent marks
        there count for the captor once, the captor's own marks held there come back.
        """
        cell, mark, owner = self.cell, self.mark, self.owner
        mine = captor + 1
        gained = changed = 0
        freed: list[int] = []
        for index in inside:
            was = owner[index]
            if was == mine:
                continue
            changed += 1
            owner[index] = mine
            who = mark[index]
            if who == 0:
                if cell[index] == EMPTY:
                    self._drop_playable(index)
                cell[index] = DEAD
            elif who == mine:
                if was:
                    freed.append(index)
                    self._set_live(index, captor)
                cell[index] = mine
            else:
                gained += 1
                cell[index] = DEAD
                self._set_dead(index, _OTHER[captor])
        if not changed:  # a larger area closed by the same mark has taken it all already
            return
        self.score[captor] += gained
        self.score[1 - captor] -= len(freed)
        for index in freed:
            # While held, a mark can gain no live neighbour: every point next to it lay
            # in the area or on its chain.  Linking it again is cheap and needs no proof.
            self._link(index)
        self.areas = (captor, tuple(inside), self.areas)

    def _set_live(self, index: int, player: Player) -> None:
        """Keep ``rows`` in step with a live mark of ``player`` put or freed on ``index``."""
        rows = self.rows[player]
        rows[index - 1] |= 1
        rows[index] |= 2
        rows[index + 1] |= 4

    def _set_dead(self, index: int, player: Player) -> None:
        """Keep ``rows`` in step with a mark of ``player`` on ``index`` being captured."""
        rows = self.rows[player]
        rows[index - 1] &= 6
        rows[index] &= 5
        rows[index + 1] &= 3

    def _drop_playable(self, index: int) -> None:
        playable = self.playable
        del playable[bisect_left(playable, index)]

    # -- optional rules -----------------------------------------------------------------

    def ungrounded(self, player: Player) -> list[int]:
        """Grounding: the live marks of ``player`` not linked to the board edge orthogonally
        through their own live marks and their own captured area.
        """
        geo = self.geometry
        cell, owner = self.cell, self.owner
        mine = player + 1
        width, height, stride = geo.width, geo.height, geo.stride
        edge = [
            (y + 1) * stride + x + 1
            for y in range(height)
            for x in range(width)
            if x in (0, width - 1) or y in (0, height - 1)
        ]
        linked = {index for index in edge if cell[index] == mine or owner[index] == mine}
        stack = list(linked)
        while stack:
            index = stack.pop()
            for step in geo.steps:
                near = index + step
                if near not in linked and (cell[near] == mine or owner[near] == mine):
                    linked.add(near)
                    stack.append(near)
        return [index for index in geo.indices if cell[index] == mine and index not in linked]
