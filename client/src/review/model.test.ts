import { describe, expect, it } from "vitest";
import {
  buildPositions,
  captureTimeline,
  clampPly,
  evalPath,
  evalSeries,
  evalSummary,
  mistakesOf,
  plyFromHash,
  positionAt,
  stepTo,
  turnsOf,
  judgedOf,
  lineCosts,
  reviewPositions,
} from "./model";
// A fighting 12×12 Dots game of 140 moves as the server reviews it: 12 captures, an area
// swallowed by a larger one, houses built and broken into. Made with
//   .venv/bin/python -c "import json, sys; sys.path.insert(0, 'bench');
//   from review_open import fighting_game; from server.review.records import review, GameFacts;
//   print(json.dumps(review(fighting_game(12, 12, 140, 12, seed=3), GameFacts()).model_dump(mode='json')))"
import dotsFight from "./fixtures/dots-12x12-review.json";
import type { Analysis, AnalysedPosition, Review, ReviewMove } from "./types";
import type { BoxesBoardView, DotsBoardView } from "../net/types";

type P = [number, number];
const line = (a: P, b: P) => ({ line: [a, b] as [P, P] });

function boxesMove(ply: number, notation: string, seat: 0 | 1, l: [P, P], scores: [number, number], toMove: 0 | 1, closed: P[] = []): ReviewMove {
  return {
    ply,
    notation,
    seat,
    change: { kind: "move", seat, move: line(l[0], l[1]), ...(closed.length ? { closed } : {}) },
    scores,
    to_move: toMove,
  };
}

/** A 2×1 game (README): the fourth line closes the left box for coral. */
function boxesReview(): Review {
  return {
    id: "room-1",
    game: "boxes",
    mode: "computer",
    size: [2, 1],
    seats: [
      { seat: 0, kind: "human", colour: "gold" },
      { seat: 1, kind: "computer", colour: "coral" },
    ],
    result: { winner: 1, reason: "board_full", scores: [0, 2] },
    finished_at: "2026-11-30T12:00:00Z",
    notation: "boxes 2x1; a1-b1 a1-a2 a2-b2 b1-b2",
    record: { game: "boxes" },
    start: { game: "boxes", rows: 1, cols: 2, lines: [], boxes: [], last_move: null },
    final: {
      game: "boxes",
      rows: 1,
      cols: 2,
      lines: [
        { line: [[0, 0], [1, 0]], player: 0 },
        { line: [[0, 0], [0, 1]], player: 1 },
        { line: [[0, 1], [1, 1]], player: 0 },
        { line: [[1, 0], [1, 1]], player: 1 },
      ],
      boxes: [{ box: [0, 0], owner: 1 }],
      last_move: { line: [[1, 0], [1, 1]] },
    },
    moves: [
      boxesMove(1, "a1-b1", 0, [[0, 0], [1, 0]], [0, 0], 1),
      boxesMove(2, "a1-a2", 1, [[0, 0], [0, 1]], [0, 0], 0),
      boxesMove(3, "a2-b2", 0, [[0, 1], [1, 1]], [0, 0], 1),
      boxesMove(4, "b1-b2", 1, [[1, 0], [1, 1]], [0, 1], 1, [[0, 0]]),
    ],
  };
}

const pos = (ply: number, over: Partial<AnalysedPosition> = {}): AnalysedPosition => ({
  ply,
  to_move: 0,
  exact: true,
  value: 0,
  margin: 0,
  best: [],
  played: null,
  loss: null,
  mistake: false,
  ...over,
});

describe("review positions", () => {
  it("brings the start board forward move by move, closed boxes and scores included", () => {
    const review = boxesReview();
    const positions = buildPositions(review);
    expect(positions).toHaveLength(5);
    const start = positions[0]!.board as BoxesBoardView;
    expect(start.lines).toHaveLength(0);
    expect(positions[0]!.to_move).toBe(0);
    const after3 = positions[3]!;
    expect((after3.board as BoxesBoardView).lines.map((l) => l.player)).toEqual([0, 1, 0]);
    expect(after3.to_move).toBe(1);
    const end = positions[4]!;
    expect((end.board as BoxesBoardView).boxes).toEqual([{ box: [0, 0], owner: 1 }]);
    expect(end.scores).toEqual([0, 1]);
    expect(end.is_over).toBe(true);
    expect(end.outcome).toEqual({ winner: 1, reason: "board_full" });
    expect(positions[3]!.is_over).toBe(false);
    // The last position is the server's final board, the same as the moves make.
    const played = buildPositions({ ...review, final: { ...review.final, lines: [] } as Review["final"] })[4]!.board as BoxesBoardView;
    expect(played.lines).toEqual([]);
  });

  it("steps with buttons and keys inside the game, and reads a ply from the address", () => {
    const review = boxesReview();
    expect(stepTo("next", 4, review)).toBe(4);
    expect(stepTo("prev", 0, review)).toBe(0);
    expect(stepTo("prev", 3, review)).toBe(2);
    expect(stepTo("first", 3, review)).toBe(0);
    expect(stepTo("last", 1, review)).toBe(4);
    expect(clampPly(99, review)).toBe(4);
    expect(clampPly(Number.NaN, review)).toBe(0);
    expect(plyFromHash("#2", review)).toBe(2);
    expect(plyFromHash("#40", review)).toBe(4);
    expect(plyFromHash("#x", review)).toBeNull();
  });

  it("groups moves in turns: a player who closes a box moves again", () => {
    const review = boxesReview();
    review.moves.push(boxesMove(5, "b1-c1", 1, [[1, 0], [2, 0]], [0, 1], 0));
    expect(turnsOf(review.moves).map((t) => [t.player, t.moves])).toEqual([
      [0, [0]],
      [1, [1]],
      [0, [2]],
      [1, [3, 4]],
    ]);
  });
});

describe("analysis", () => {
  const analysis: Analysis = {
    id: "a",
    game: "boxes",
    status: "done",
    done: 4,
    total: 4,
    positions: [
      pos(2, { margin: -2, mistake: true, loss: 4, cost: 2 }),
      pos(0),
      pos(1, { margin: 1, exact: false, loss: null, cost: null, mistake: null }),
      pos(3, { margin: -2, mistake: false, loss: 0, cost: 0 }),
    ],
    players: [],
  };

  it("marks the moves that give boxes away, with how many boxes of the score", () => {
    expect(mistakesOf(analysis)).toEqual([{ index: 2, loss: 2 }]);
    expect(mistakesOf(null)).toEqual([]);
    expect(judgedOf(analysis)).toEqual({ judged: 2, analysed: 4 }); // pos(0) has no loss: not judged
    // an analysis kept from before `cost`: half the margin given away
    expect(mistakesOf({ ...analysis, positions: [pos(5, { mistake: true, loss: 6, cost: undefined })] })).toEqual([{ index: 5, loss: 3 }]);
    expect(positionAt(analysis, 1)?.exact).toBe(false);
    expect(positionAt(analysis, 9)).toBeNull();
  });

  it("draws the evaluation from gold's side and sums it up in words", () => {
    const pts = evalSeries(analysis);
    expect(pts.map((p) => [p.ply, p.value])).toEqual([
      [0, 0],
      [1, 1],
      [2, -2],
      [3, -2],
    ]);
    expect(evalPath(pts, 4, 100, 40)).toBe("M0 20 L25 12 L50 36 L75 36");
    // the estimate at ply 1 apart: dashed from 0 to 2, solid from 2 to 3
    expect(evalPath(pts, 4, 100, 40, false)).toBe("M0 20 L25 12 L50 36");
    expect(evalPath(pts, 4, 100, 40, true)).toBe("M50 36 L75 36");
    expect(evalSummary(pts)).toMatchObject({ first: 0, last: -2, max: { ply: 1, value: 1 }, min: { ply: 2, value: -2 } });
    expect(evalSummary([])).toBeNull();
  });

});

describe("Dots capture timeline", () => {
  it("lists which move captured what", () => {
    const mark = (ply: number, notation: string, seat: 0 | 1, p: P, extra = {}): ReviewMove => ({
      ply,
      notation,
      seat,
      change: { kind: "move", seat, move: { point: p }, ...extra },
      scores: [0, 0],
      to_move: (1 - seat) as 0 | 1,
    });
    const capture = { key: [2, 2] as P, captor: 0 as const, chain: [[2, 1], [3, 2], [2, 3], [1, 2]] as P[], inside: [[2, 2]] as P[] };
    const review: Review = {
      id: null,
      game: "dots",
      mode: null,
      size: [5, 5],
      seats: [],
      result: null,
      finished_at: null,
      notation: "dots 5x5; c2 c3 b3 a1 c4 a2 d3",
      record: {},
      start: { game: "dots", width: 5, height: 5, start: "empty", win_margin: null, grounding: false, marks: [], areas: [], houses: [], ungrounded: [], last_move: null },
      final: {
        game: "dots",
        width: 5,
        height: 5,
        start: "empty",
        win_margin: null,
        grounding: false,
        marks: [
          [2, 1, 0],
          [2, 2, 1],
          [1, 2, 0],
          [0, 0, 1],
          [2, 3, 0],
          [0, 1, 1],
          [3, 2, 0],
        ],
        areas: [capture],
        houses: [],
        ungrounded: [],
        last_move: { point: [3, 2] },
      },
      moves: [
        mark(1, "c2", 0, [2, 1]),
        mark(2, "c3", 1, [2, 2]),
        mark(3, "b3", 0, [1, 2]),
        mark(4, "a1", 1, [0, 0]),
        mark(5, "c4", 0, [2, 3]),
        mark(6, "a2", 1, [0, 1]),
        { ...mark(7, "d3", 0, [3, 2], { captures: [capture] }), scores: [1, 0] },
      ],
    };
    const positions = buildPositions(review);
    const last = positions[7]!.board as DotsBoardView;
    expect(last.marks.find((m) => m.point[0] === 2 && m.point[1] === 2)?.captured).toBe(true);
    expect(captureTimeline(review)).toEqual([{ index: 6, player: 0, move: "d3", taken: 1, areas: 1 }]);
  });
});

describe("line values", () => {
  it("gives each undrawn line of an exact position its cost in boxes, by line key", () => {
    const here = pos(3, {
      value: 2,
      values: [
        { move: line([0, 0], [1, 0]), value: 2 },
        { move: line([1, 1], [1, 0]), value: -4 },
      ],
    });
    expect([...lineCosts(here)]).toEqual([
      ["h:0:0", 0],
      ["v:1:0", 3],
    ]);
    expect(lineCosts({ ...here, exact: false }).size).toBe(0);
    expect(lineCosts(null).size).toBe(0);
  });
});

describe("Dots positions made when asked for", () => {
  const review = dotsFight as unknown as Review;
  const replayed = buildPositions(review);

  it("are the positions replayed move by move, in any order of asking", () => {
    const positions = reviewPositions(review);
    const order = [...replayed.keys(), ...[...replayed.keys()].reverse(), 70, 3, 139, 0, 140, 71];
    for (const ply of order) expect(positions.at(ply)).toEqual(replayed[ply]);
  });

  it("show the captures, the swallowed area and the houses as they came and went", () => {
    const positions = reviewPositions(review);
    const keys = (ply: number, layer: "areas" | "houses") => (positions.at(ply).board as DotsBoardView)[layer].map((a) => a.key.join(","));
    const plies = review.moves.map((_, i) => i + 1);
    const gone = (layer: "areas" | "houses") => plies.filter((k) => keys(k - 1, layer).some((key) => !keys(k, layer).includes(key)));
    const came = (layer: "areas" | "houses") => plies.filter((k) => keys(k, layer).some((key) => !keys(k - 1, layer).includes(key)));
    expect(came("areas")).toEqual(captureTimeline(review).map((c) => c.index + 1));
    expect(gone("areas").length).toBeGreaterThan(0);
    expect(came("houses").length).toBeGreaterThan(0);
    expect(gone("houses").length).toBeGreaterThan(0);
  });

  it("keep a position asked for again (stepping back and forth redraws nothing new)", () => {
    const positions = reviewPositions(review);
    const first = positions.at(50);
    positions.at(51);
    expect(positions.at(50)).toBe(first);
  });
});
