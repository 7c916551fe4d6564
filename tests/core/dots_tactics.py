"""Hand-made Dots tactics with the move(s) that solve them: the suite hard must solve.

Each position is an ASCII picture (``x`` the side to move, ``o`` the other, ``.`` free;
see :mod:`tests.core.dots_pictures`) with the points that solve it.  The answers were
reasoned by hand and then checked with a full-width alpha-beta over every free point
next to a mark, to the depth the kind needs (``python bench/dots_tactics.py --verify``):
every listed answer is best and no other move is as good.  Kinds:

* ``capture1`` — take the largest capture there is;
* ``escape`` — the other side threatens a capture: block it (the bigger one, when two
  stand), and do not grab a smaller capture that loses more;
* ``double_threat`` — one mark leaves two captures and only one can be blocked
  (capture in 2);
* ``ladder`` — threaten from the side that drives the group along a wall (or along the
  edge, whose line x holds or chases on) into an own mark, so every block is threatened
  again until the ring closes (capture in 3 or more);
* ``net`` — a quiet mark (no capture, no closing point) after which the other side has no
  single mark that answers the double threats to come (capture in 3 with a quiet start);
* ``defend_double`` — the other side has a double threat, a ladder or a net coming: spoil
  it now; several points do, and all of them are listed.

Positions added in issue 30 (edge ladders, open-board ladders, nets) were verified with
the window following the marks (see ``bench/dots_tactics.py --verify``); some nets were
found by generating small random positions and keeping those whose best move, by that
search, is a net.  The positions set on the big boards (20 × 20 and 39 × 32, mirrored and
turned: :data:`BIG_BOARDS`) were verified the same way, once a picture, on 20 × 20 as the
picture shows it (``l-edge-line-long`` on 39 × 32).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core import dots
from core.dots import Point
from tests.core.dots_pictures import from_picture, placed, viewed


@dataclass(frozen=True)
class Tactic:
    """One position of the suite: a picture, the side-to-move's solving points, the depth.

    With a ``size`` the picture lies in the top-left corner of a board that large, and the
    whole position is then seen in ``view`` (see :func:`tests.core.dots_pictures.placed`);
    the answers are written as in the picture and seen in the same view.
    """

    name: str
    kind: str
    picture: str
    answers: tuple[str, ...]
    depth: int
    """Plies a full-width search needs to prove the answer (the ``--verify`` depth)."""
    size: tuple[int, int] | None = None
    view: int = 0

    def state(self) -> dots.DotsState:
        """The position, ``x`` to move."""
        if self.size is None:
            return from_picture(self.picture)
        return placed(self.picture, *self.size, self.view)

    def unviewed(self) -> Tactic:
        """The same position as the picture shows it (view 0), where it is verified: a
        view changes no value, the rules being the same in every direction."""
        return replace(self, view=0)

    @property
    def points(self) -> tuple[str, ...]:
        """The answers on the board of :meth:`state`."""
        if self.size is None:
            return self.answers
        return tuple(
            str(viewed(Point.from_str(answer), *self.size, self.view)) for answer in self.answers
        )

    def solved_by(self, move: Point) -> bool:
        """Whether ``move`` is one of the answers."""
        return str(move) in self.points

    @property
    def rows(self) -> int:
        """How many rows the picture has (the filler marks lie below)."""
        return len(self.picture.strip().splitlines())


def _t(name: str, kind: str, depth: int, picture: str, answers: str) -> Tactic:
    return Tactic(name, kind, picture, tuple(answers.split()), depth)


SMALL_BOARDS: tuple[Tactic, ...] = (
    # -- capture in 1 ---------------------------------------------------------------------
    _t(
        "c1-diamond",
        "capture1",
        1,
        """
        .......
        ...x...
        ..xo...
        ...x...
        .......
        """,
        "e3",
    ),
    _t(
        "c1-pair",
        "capture1",
        1,
        """
        ........
        ..xx....
        .xoox...
        ..x.....
        ........
        """,
        "d4",
    ),
    _t(
        "c1-larger-of-two",
        "capture1",
        1,
        """
        ...........
        ..xx....x..
        .xoox..xo..
        ..x.....x..
        ...........
        """,
        "d4",
    ),
    _t(
        "c1-ell",
        "capture1",
        1,
        """
        .........
        ..xx.....
        .xoox....
        ..xo.....
        ...x.....
        .........
        """,
        "e4",
    ),
    _t(
        "c1-with-empty",
        "capture1",
        1,
        """
        ........
        ...x....
        ..xox...
        ..x.x...
        ........
        ........
        """,
        "d4 d5",
    ),
    _t(
        "c1-three-in-row",
        "capture1",
        1,
        """
        .........
        ..xxx....
        .xo.o....
        ..xxx....
        .........
        """,
        "f3",
    ),
    _t(
        "c1-block-of-four",
        "capture1",
        1,
        """
        ..........
        ..xx......
        .xoox.....
        .xoox.....
        ..x.......
        ..........
        """,
        "d5",
    ),
    _t(
        "c1-pocket",
        "capture1",
        1,
        """
        ..........
        ..xxx.....
        .x.o......
        ..xxx.....
        ..........
        """,
        "e3 f3",
    ),
    _t(
        "c1-two-rings-one-point",
        "capture1",
        1,
        """
        .........
        ..x.x....
        .xo.ox...
        ..x.x....
        .........
        """,
        "d3",
    ),
    _t(
        "c1-vertical-three",
        "capture1",
        1,
        """
        .......
        ...x...
        ..xox..
        ..xox..
        ..xo...
        ...x...
        .......
        """,
        "e5",
    ),
    # -- escape: block the capture --------------------------------------------------------
    _t(
        "e-diamond",
        "escape",
        2,
        """
        .......
        ...o...
        ..ox...
        ...o...
        .......
        """,
        "e3",
    ),
    _t(
        "e-pair",
        "escape",
        2,
        """
        ........
        ..oo....
        .oxxo...
        ..o.....
        ........
        """,
        "d4",
    ),
    _t(
        "e-block-not-grab",
        "escape",
        2,
        """
        ............
        ..oo.....x..
        .oxxo...xox.
        ..o.........
        ............
        """,
        "d4",
    ),
    _t(
        "e-ell",
        "escape",
        2,
        """
        .........
        ..oo.....
        .oxxo....
        ..ox.....
        ...o.....
        .........
        """,
        "e4",
    ),
    _t(
        "e-three",
        "escape",
        2,
        """
        .........
        ..ooo....
        .ox.x....
        ..ooo....
        .........
        """,
        "f3",
    ),
    _t(
        "e-bigger-threat",
        "escape",
        2,
        """
        ...........
        ..oo....o..
        .oxxo..ox..
        ..o.....o..
        ...........
        """,
        "d4",
    ),
    _t(
        "e-block-of-four",
        "escape",
        2,
        """
        ..........
        ..oo......
        .oxxo.....
        .oxxo.....
        ..o.......
        ..........
        """,
        "d5",
    ),
    _t(
        "e-edge",
        "escape",
        2,
        """
        .o......
        oxo.....
        ........
        ........
        """,
        "b3",
    ),
    _t(
        "e-vertical-pair",
        "escape",
        2,
        """
        .......
        ...o...
        ..oxo..
        ..ox...
        ...o...
        .......
        """,
        "e4",
    ),
    _t(
        "e-double-block",
        "escape",
        2,
        """
        .........
        ..o......
        .oxo.....
        .........
        .........
        """,
        "c4",
    ),
    # -- double threat (capture in 2) -----------------------------------------------------
    _t(
        "d-twin-diamonds",
        "double_threat",
        3,
        """
        ........
        ..x.x...
        .xo.ox..
        ........
        ........
        """,
        "d3",
    ),
    _t(
        "d-vertical-twins",
        "double_threat",
        3,
        """
        ........
        ..x.....
        .xo.....
        ........
        .xo.....
        ..x.....
        ........
        """,
        "c4",
    ),
    _t(
        "d-pair-single",
        "double_threat",
        3,
        """
        ..........
        ..xx.x....
        .xoo.ox...
        ..x.......
        ..........
        """,
        "e3",
    ),
    _t(
        "d-vertical-pair-single",
        "double_threat",
        3,
        """
        ......
        ..x...
        .xox..
        .xo...
        ......
        .xo...
        ..x...
        ......
        """,
        "c5",
    ),
    _t(
        "d-twins-low",
        "double_threat",
        3,
        """
        ..........
        ..........
        ...x.x....
        ..xo.ox...
        ..........
        .......o..
        ..........
        """,
        "e4",
    ),
    _t(
        "d-twins-top-edge",
        "double_threat",
        3,
        """
        .x.x....
        xo.ox...
        ........
        ........
        """,
        "c2",
    ),
    _t(
        "d-pair-pair",
        "double_threat",
        3,
        """
        ...........
        ..xx.xx....
        .xoo.oox...
        ..x..x.....
        ...........
        """,
        "e3",
    ),
    _t(
        "d-pair-single-mirror",
        "double_threat",
        3,
        """
        ..........
        ....x.xx..
        ...xo.oox.
        .......x..
        ..........
        """,
        "f3",
    ),
    # -- ladders (capture in 3) -----------------------------------------------------------
    _t(
        "l-short-ladder",
        "ladder",
        5,
        """
        .......
        .xxxx..
        .xo..x.
        .......
        .......
        """,
        "c4",
    ),
    _t(
        "l-ladder-up",
        "ladder",
        5,
        """
        .......
        .......
        .xo..x.
        .xxxx..
        .......
        """,
        "c2",
    ),
    _t(
        "l-ladder-down",
        "ladder",
        5,
        """
        .....
        .x...
        xo...
        x....
        x....
        .x...
        .....
        """,
        "c3",
    ),
    _t(
        "l-ladder-left",
        "ladder",
        5,
        """
        .......
        ..xxxx.
        .x..ox.
        .......
        .......
        """,
        "e4",
    ),
    _t(
        "l-ladder-down-right",
        "ladder",
        5,
        """
        ......
        ....x.
        ....ox
        .....x
        .....x
        ....x.
        ......
        """,
        "d3",
    ),
    _t(
        "l-edge-line-long",
        "ladder",
        7,
        """
        ..........
        .xo...x...
        .xxxxx....
        ..........
        """,
        "c1",
    ),
    _t(
        "l-edge-line-right",
        "ladder",
        7,
        """
        ..........
        ...x...ox.
        ....xxxxx.
        ..........
        """,
        "h1",
    ),
    _t(
        "l-edge-wall",
        "ladder",
        5,
        """
        .xxxxx...
        .xo..x...
        .........
        .........
        """,
        "c3",
    ),
    _t(
        "l-open-wall",
        "ladder",
        5,
        """
        .........
        .........
        ..xxxxx..
        ..xo..x..
        .........
        .........
        """,
        "d5",
    ),
    _t(
        "l-ladder-two-marks",
        "ladder",
        5,
        """
        ........
        .xxxxx..
        .xoo..x.
        ..x.....
        ........
        """,
        "d4 e4 f4",
    ),
    # -- nets (a quiet mark, then a double threat no one mark answers) --------------------
    _t(
        "n-corner",
        "net",
        5,
        """
        ........
        .ox.x...
        .x.o....
        .xo..xo.
        ...xxx..
        ........
        """,
        "c5",
    ),
    _t(
        "n-two-ways",
        "net",
        5,
        """
        ........
        ..o.xo..
        .x.x....
        ...x....
        .xoxox..
        ........
        """,
        "c6 e6",
    ),
    _t(
        "n-low-pair",
        "net",
        5,
        """
        ........
        .x..x.o.
        .xxx..x.
        .oo.o.o.
        ...oxxx.
        ........
        """,
        "f4 h4",
    ),
    _t(
        "n-three-ways",
        "net",
        5,
        """
        ........
        ....xxx.
        .xox.x..
        ....oxo.
        ..ox.o..
        ........
        """,
        "c4 e5 h4",
    ),
    _t(
        "n-between",
        "net",
        5,
        """
        ........
        ....oxo.
        .ox..xx.
        ..xx.ox.
        ......x.
        ........
        """,
        "e5",
    ),
    # -- defend against a double threat ---------------------------------------------------
    _t(
        "p-twin-diamonds",
        "defend_double",
        4,
        """
        ........
        ..o.o...
        .ox.xo..
        ........
        ........
        """,
        "c4 d2 d3 d4 e4",
    ),
    _t(
        "p-vertical-twins",
        "defend_double",
        4,
        """
        ........
        ..o.....
        .ox.....
        ........
        .ox.....
        ..o.....
        ........
        """,
        "b4 c4 d3 d4 d5",
    ),
    _t(
        "p-pair-single",
        "defend_double",
        4,
        """
        ..........
        ..oo.o....
        .oxx.xo...
        ..o.......
        ..........
        """,
        "d4 e2 e3 e4 f4",
    ),
    _t(
        "p-pair-pair",
        "defend_double",
        4,
        """
        ...........
        ..oo.oo....
        .oxx.xxo...
        ..o..o.....
        ...........
        """,
        "d4 e2 e3 e4 g4",
    ),
    _t(
        "p-twins-top-edge",
        "defend_double",
        4,
        """
        .o.o....
        ox.xo...
        ........
        ........
        """,
        "b3 c1 c2 c3 d3",
    ),
    _t(
        "p-vertical-pair-single",
        "defend_double",
        4,
        """
        ......
        ..o...
        .oxo..
        .ox...
        ......
        .ox...
        ..o...
        ......
        """,
        "b5 c5 d4 d5 d6",
    ),
    _t(
        "p-net-corner",
        "defend_double",
        5,
        """
        ........
        .xo.o...
        .o.x....
        .ox..ox.
        ...ooo..
        ........
        """,
        "c1 c3 c5 d1 d2 e3 f3",
    ),
)
"""The positions on boards as large as their pictures (the issue 30 ones and before)."""

BIG_BOARDS: tuple[tuple[tuple[int, int], tuple[int, ...]], ...] = (
    ((20, 20), (3, 5)),
    ((39, 32), (1, 6)),
)
"""The boards the large-board positions are set on, each with the views it is seen in
(see :func:`tests.core.dots_pictures.placed`): turned half round and a quarter on 20 × 20,
mirrored and turned the other quarter on 39 × 32, so every edge of the board is used."""


def on_big_boards(tactic: Tactic) -> tuple[Tactic, ...]:
    """``tactic``'s picture in the corner of each board of :data:`BIG_BOARDS`, in its views."""
    return tuple(
        replace(tactic, name=f"{tactic.name}@{w}x{h}v{view}", size=(w, h), view=view)
        for (w, h), views in BIG_BOARDS
        for view in views
    )


ON_BIG_BOARDS_TOO = (
    "l-edge-line-long",
    "l-edge-line-right",
    "l-edge-wall",
    "l-open-wall",
    "n-corner",
    "n-between",
    "p-net-corner",
)
"""The small-board positions also set on the big boards (verified there again)."""

LADDER_SIDES: tuple[Tactic, ...] = (
    # The side that runs: a mark on the second line has just been threatened with the
    # first step of a ladder that works, so running only loses more marks; the mark is
    # given up for a capture elsewhere (n3), or for a mark that breaks the ladder later
    # (d1, e2, f1): each loses one mark and takes one.
    _t(
        "le-run-doomed",
        "ladder",
        5,
        """
        ..o............
        .ox...o.....x..
        .ooooo.....xo..
        ............x..
        """,
        "d1 e2 f1 n3",
    ),
    # The same ladder with a breaker of the runner's on the path: now running escapes.
    _t(
        "le-run-breaker",
        "ladder",
        5,
        """
        ..o..x.........
        .ox...o........
        .ooooo.........
        ...............
        """,
        "d2",
    ),
)
"""Ladders seen from the side that runs, on the big boards only."""

TACTICS: tuple[Tactic, ...] = (
    SMALL_BOARDS
    + tuple(
        variant
        for tactic in SMALL_BOARDS
        if tactic.name in ON_BIG_BOARDS_TOO
        for variant in on_big_boards(tactic)
    )
    + tuple(variant for tactic in LADDER_SIDES for variant in on_big_boards(tactic))
)
"""The whole suite."""
