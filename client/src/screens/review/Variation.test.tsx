import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, within } from "@testing-library/preact";
import { fromSnapshot } from "../../net/roomModel";
import type { Analysis, AnalysedPosition, ReviewMove } from "../../review/types";
import { enterVariation, variationAt } from "../../review/variation";
import { reviewSnapshot } from "../../review/model";
import { PositionNote } from "./AnalysisPanel";
import { MoveList } from "./MoveList";
import { VariationBanner, VariationMoves, variationWhere } from "./Variation";

afterEach(cleanup);

type P = [number, number];
const line = (a: P, b: P) => ({ line: [a, b] as [P, P] });

const start = fromSnapshot(reviewSnapshot("review", { game: "boxes", rows: 1, cols: 2, lines: [], boxes: [], last_move: null }, 0, [0, 0]));

// Gold's first move a1-a2 gave a box away; the better line starts with a1-b1.
const judged: AnalysedPosition = {
  ply: 0,
  to_move: 0,
  exact: true,
  value: 0,
  margin: 0,
  best: [line([0, 0], [1, 0])],
  complete: true,
  played: line([0, 0], [0, 1]),
  loss: 2,
  cost: 1,
  mistake: true,
  line: [line([0, 0], [1, 0]), line([1, 0], [2, 0])],
  values: [],
};

const move = (ply: number, notation: string, seat: 0 | 1): ReviewMove => ({
  ply,
  notation,
  seat,
  change: { kind: "move", seat, move: line([0, 0], [0, 1]) },
  scores: [0, 0],
  to_move: seat === 0 ? 1 : 0,
});

describe("the better line as a variation", () => {
  it("is offered beside what the judged move cost", () => {
    const analysis: Analysis = { id: "a", game: "boxes", status: "done", done: 1, total: 1, positions: [judged], players: [] };
    const onVariation = vi.fn();
    const note = render(<PositionNote game="boxes" analysis={analysis} ply={0} onVariation={onVariation} />);
    fireEvent.click(note.getByRole("button", { name: "Show the better line" }));
    expect(onVariation).toHaveBeenCalled();
    cleanup();
    // Where it cannot be played on the board, nothing is offered.
    const plain = render(<PositionNote game="boxes" analysis={analysis} ply={0} />);
    expect(plain.queryByRole("button", { name: "Show the better line" })).toBeNull();
  });

  it("says what the board shows, leads back, and nests its moves under the move it replaces", () => {
    const variation = enterVariation(start, judged)!;
    const onLeave = vi.fn();
    const banner = render(<VariationBanner variation={variation} onLeave={onLeave} />);
    const region = banner.getByRole("region", { name: "Variation" });
    expect(region.textContent).toContain("The better line instead of move 1, a1-a2: a1-b1 b1-c1.");
    fireEvent.click(within(region).getByRole("button", { name: "Back to the game" }));
    expect(onLeave).toHaveBeenCalled();
    cleanup();

    const onPick = vi.fn();
    const list = render(
      <MoveList
        moves={[move(1, "a1-a2", 0), move(2, "b1-c1", 1)]}
        ply={0}
        mistakes={[]}
        seatName={(s) => (s === 0 ? "Gold" : "Coral")}
        onPick={() => undefined}
        nested={{ after: 0, content: <VariationMoves variation={variation} onPick={onPick} /> }}
      />,
    );
    const nested = list.getByRole("list", { name: "Variation instead of move 1" });
    expect(nested.closest("li.turn")?.textContent).toContain("a1-a2");
    const first = within(nested).getByRole("button", { name: "Variation move 1: a1-b1" });
    expect(first.getAttribute("aria-current")).toBe("step");
    fireEvent.click(within(nested).getByRole("button", { name: "Variation move 2: b1-c1" }));
    expect(onPick).toHaveBeenCalledWith(2);
  });

  it("tells the stepper where it is", () => {
    const variation = enterVariation(start, judged)!;
    const t = (key: string, params?: Record<string, unknown>) => `${key} ${JSON.stringify(params)}`;
    expect(variationWhere(variation, t as never)).toBe('variation.atMove {"k":1,"total":2}');
    expect(variationWhere(variationAt(variation, 0), t as never)).toBe('variation.atStart {"n":1}');
  });
});
