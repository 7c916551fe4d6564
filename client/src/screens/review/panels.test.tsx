import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render } from "@testing-library/preact";
import { MoveList } from "./MoveList";
import { AnalysisPanel, PositionNote } from "./AnalysisPanel";
import type { Analysis, ReviewMove } from "../../review/types";

afterEach(cleanup);

const move = (ply: number, notation: string, seat: 0 | 1, scores: [number, number]): ReviewMove => ({
  ply,
  notation,
  seat,
  change: { kind: "move", seat, move: { line: [[0, 0], [1, 0]] } },
  scores,
  to_move: seat,
});

const seatName = (s: 0 | 1) => (s === 0 ? "Gold" : "Coral");

describe("the move list", () => {
  it("names each move with its score and marks a mistake with the boxes it loses", () => {
    const onPick = vi.fn();
    const { getByRole } = render(
      <MoveList moves={[move(1, "a1-b1", 0, [0, 0]), move(2, "a1-a2", 1, [0, 1])]} ply={1} mistakes={[{ index: 1, loss: 2 }]} seatName={seatName} onPick={onPick} />,
    );
    const first = getByRole("button", { name: "Move 1, Gold: a1-b1, score 0:0" });
    expect(first.getAttribute("aria-current")).toBe("step");
    const second = getByRole("button", { name: "Move 2, Coral: a1-a2, score 0:1, gives away 2 boxes" });
    expect(second.classList.contains("mistake")).toBe(true);
    fireEvent.click(second);
    expect(onPick).toHaveBeenCalledWith(2);
  });
});

describe("the analysis panel", () => {
  const props = {
    game: "boxes" as const,
    error: null,
    busy: false,
    ply: 0,
    plies: 4,
    mistakes: [],
    captures: [],
    seatName,
    onStart: () => undefined,
    onPick: () => undefined,
  };

  it("offers to start, then shows the progress", () => {
    const onStart = vi.fn();
    const view = render(<AnalysisPanel {...props} analysis={null} onStart={onStart} />);
    fireEvent.click(view.getByRole("button", { name: "Analyse the game" }));
    expect(onStart).toHaveBeenCalled();
    const running: Analysis = { id: "a", game: "boxes", status: "running", done: 1, total: 4, positions: [], players: [] };
    view.rerender(<AnalysisPanel {...props} analysis={running} />);
    const bar = view.getByRole("progressbar");
    expect(bar.getAttribute("value")).toBe("1");
    expect(view.getByText(/1 of 4 positions/)).toBeTruthy();
    expect(view.queryByRole("button", { name: "Analyse the game" })).toBeNull();
  });

  it("draws the graph with a text summary once positions arrive", () => {
    const pos = (ply: number, margin: number) => ({ ply, to_move: 0 as const, exact: true, value: margin, margin, best: [{ line: [[0, 0], [1, 0]] as [[number, number], [number, number]] }], played: null, loss: 0, cost: 0, mistake: false });
    const done: Analysis = { id: "a", game: "boxes", status: "done", done: 2, total: 2, positions: [pos(0, 0), pos(1, 2)], players: [] };
    const view = render(<AnalysisPanel {...props} analysis={done} />);
    expect(view.getByRole("img", { name: "Evaluation over the game" })).toBeTruthy();
    expect(view.getByTestId("eval-summary").textContent).toContain("0 at the start");
    const note = render(<PositionNote game="boxes" analysis={done} ply={0} />);
    expect(note.getByTestId("analysis-here").textContent).toBe("Exact: gold ends 0 with best play. Best move: a1-b1.");
    expect(view.getByTestId("mistake-count").textContent).toBe("No move lost boxes.");
  });

  it("says what the move played cost, the best line, and each player's figures", () => {
    const line = (a: [number, number], b: [number, number]) => ({ line: [a, b] as [[number, number], [number, number]] });
    const here = { ply: 0, to_move: 0 as const, exact: true, value: 1, margin: 1, best: [line([0, 0], [1, 0])], complete: false, played: line([0, 0], [0, 1]), loss: 4, cost: 2, mistake: true, line: [line([0, 0], [1, 0]), line([1, 0], [1, 1])], values: [] };
    const estimated = { ...here, ply: 1, exact: false, complete: false, loss: null, cost: null, mistake: null, line: [] };
    const players = [
      { seat: 0 as const, judged: 1, mistakes: 1, blunders: 0, lost: 2, accuracy: 0 },
      { seat: 1 as const, judged: 0, mistakes: 0, blunders: 0, lost: 0, accuracy: null },
    ];
    const done: Analysis = { id: "a", game: "boxes", status: "done", done: 2, total: 2, positions: [here, estimated], players };
    const view = render(<AnalysisPanel {...props} analysis={done} mistakes={[{ index: 0, loss: 2 }]} />);
    const note = render(<PositionNote game="boxes" analysis={done} ply={0} />);
    expect(note.getByTestId("analysis-here").textContent).toContain("there may be other best moves");
    expect(note.getByTestId("played-here").textContent).toBe("a1-a2, played here, gives away 2 boxes. Best was a1-b1, then: a1-b1 b1-b2.");
    expect(view.getByTestId("mistake-count").textContent).toContain("1 of 2 moves were judged exactly");
    expect(view.getByTestId("analysis-players").textContent).toContain("1 mistake, 0 blunders, accuracy 0% over 1 judged moves");
    expect(view.getByTestId("eval-summary").textContent).toContain("Dashed: estimates");
  });
});
