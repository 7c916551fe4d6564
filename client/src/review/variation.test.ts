import { describe, expect, it } from "vitest";
import { fromSnapshot } from "../net/roomModel";
import type { BoxesBoardView, RoomState } from "../net/types";
import { reviewSnapshot } from "./model";
import type { AnalysedPosition } from "./types";
import { enterVariation, playLine, stepVariation, variationAt } from "./variation";

type P = [number, number];
const line = (a: P, b: P) => ({ line: [a, b] as [P, P] });

/** A 2×1 board (two boxes side by side) with the given lines drawn, gold to move. */
function board(drawn: Array<[P, P]>, toMove: 0 | 1 = 0): RoomState {
  const lines = drawn.map((l) => ({ line: l, player: 0 as const }));
  return fromSnapshot(reviewSnapshot("review", { game: "boxes", rows: 1, cols: 2, lines, boxes: [], last_move: null }, toMove, [0, 0], drawn.length));
}

const analysed = (over: Partial<AnalysedPosition>): AnalysedPosition => ({
  ply: 3,
  to_move: 0,
  exact: true,
  value: 2,
  margin: 2,
  best: [],
  played: null,
  loss: null,
  mistake: null,
  ...over,
});

describe("playing a line on the board", () => {
  it("closes the boxes a line completes, scores them and lets the closer move again", () => {
    // The left box has three sides; drawing b1-b2 closes it (and nothing on the right).
    const start = board([
      [[0, 0], [1, 0]],
      [[0, 1], [1, 1]],
      [[0, 0], [0, 1]],
    ]);
    const after = playLine(start, line([1, 1], [1, 0]))!; // ends written the other way round
    const b = after.board as BoxesBoardView;
    expect(b.boxes).toEqual([{ box: [0, 0], owner: 0 }]);
    expect(after.scores).toEqual([1, 0]);
    expect(after.to_move).toBe(0);
    expect(after.is_over).toBe(false);
    expect(b.legal_moves).toHaveLength(3);
  });

  it("passes the turn when no box is closed, ends the game on the last box, and refuses drawn lines", () => {
    const start = board([[[0, 0], [1, 0]]]);
    const quiet = playLine(start, line([1, 0], [2, 0]))!;
    expect(quiet.to_move).toBe(1);
    expect(quiet.scores).toEqual([0, 0]);
    expect(playLine(start, line([0, 0], [1, 0]))).toBeNull();
    // Coral draws the last line of a board whose every other line is drawn: both boxes.
    const full = board(
      [
        [[0, 0], [1, 0]],
        [[1, 0], [2, 0]],
        [[0, 1], [1, 1]],
        [[1, 1], [2, 1]],
        [[0, 0], [0, 1]],
        [[2, 0], [2, 1]],
      ],
      1,
    );
    const end = playLine(full, line([1, 0], [1, 1]))!;
    expect(end.scores).toEqual([0, 2]);
    expect(end.is_over).toBe(true);
    expect(end.outcome).toEqual({ winner: 1, reason: "board_full" });
    expect(playLine(end, line([0, 0], [1, 0]))).toBeNull();
  });
});

describe("the best line as a variation", () => {
  const start = board([[[0, 0], [1, 0]]]);
  const best = [line([1, 0], [2, 0]), line([0, 1], [1, 1]), line([1, 1], [2, 1])];

  it("starts after the best move and steps within its moves", () => {
    const v = enterVariation(start, analysed({ line: best, played: line([0, 0], [0, 1]) }))!;
    expect(v.from).toBe(3);
    expect(v.step).toBe(1);
    expect(v.positions).toHaveLength(4);
    expect(v.positions[0]).toBe(start);
    expect((v.positions[3]!.board as BoxesBoardView).lines).toHaveLength(4);
    expect(v.played).toEqual(line([0, 0], [0, 1]));
    expect(stepVariation(v, "next").step).toBe(2);
    expect(stepVariation(v, "prev").step).toBe(0);
    expect(stepVariation(stepVariation(v, "prev"), "prev").step).toBe(0);
    expect(stepVariation(v, "last").step).toBe(3);
    expect(stepVariation(stepVariation(v, "last"), "next").step).toBe(3);
    expect(stepVariation(v, "first").step).toBe(0);
    expect(variationAt(v, 9).step).toBe(3);
    expect(variationAt(v, -1).step).toBe(0);
  });

  it("has nothing to show without a line, and keeps only the part of a line that plays", () => {
    expect(enterVariation(start, analysed({ line: [] }))).toBeNull();
    expect(enterVariation(start, analysed({}))).toBeNull();
    expect(enterVariation(start, analysed({ line: [line([0, 0], [1, 0])] }))).toBeNull();
    const cut = enterVariation(start, analysed({ line: [best[0]!, line([0, 0], [1, 0]), best[1]!] }))!;
    expect(cut.moves).toEqual([best[0]]);
  });
});
