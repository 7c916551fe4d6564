import { describe, expect, it, vi, afterEach } from "vitest";
import { cleanup, fireEvent, render } from "@testing-library/preact";
import { BoxesBoard, type BoxesView } from "./BoxesBoard";
import { allLines, idToLine, lineKey, step, normalize, type Line } from "./boxesGeometry";

afterEach(cleanup);

function view(rows: number, cols: number, drawn: Array<{ line: Line; player: 0 | 1 | null }> = [], extra: Partial<BoxesView> = {}): BoxesView {
  const taken = new Set(drawn.map((d) => lineKey(d.line)));
  return {
    rows,
    cols,
    lines: drawn,
    boxes: [],
    last_move: drawn.length ? drawn[drawn.length - 1]!.line : null,
    to_move: 0,
    scores: [0, 0],
    legal_moves: allLines(rows, cols).map(idToLine).filter((l) => !taken.has(lineKey(l))),
    ...extra,
  };
}

const labels = {
  board: "board",
  line: (l: Line, st: string) => `${l[0].join(",")}-${l[1].join(",")} ${st}`,
};

function setup(v: BoxesView, interactive = true) {
  const onDraw = vi.fn();
  const onBlocked = vi.fn();
  const r = render(
    <BoxesBoard view={v} interactive={interactive} boxLabel={(o) => (o === 0 ? "Y" : "C")} labels={labels} onDraw={onDraw} onBlocked={onBlocked} />,
  );
  return { ...r, onDraw, onBlocked };
}

describe("geometry", () => {
  it("counts the lines of the presets", () => {
    expect(allLines(3, 3)).toHaveLength(24);
    expect(allLines(4, 4)).toHaveLength(40);
    expect(allLines(5, 5)).toHaveLength(60);
    expect(allLines(7, 7)).toHaveLength(112);
  });

  it("normalizes either order and refuses non-lines", () => {
    expect(normalize([[1, 0], [0, 0]])).toEqual([[0, 0], [1, 0]]);
    expect(normalize([[0, 1], [0, 0]])).toEqual([[0, 0], [0, 1]]);
    expect(normalize([[0, 0], [1, 1]])).toBeNull();
    expect(lineKey([[2, 1], [2, 0]])).toBe("v:2:0");
  });

  it("keyboard steps reach every line and stay on the board", () => {
    const rows = 3;
    const cols = 4;
    const seen = new Set<string>();
    const todo = [allLines(rows, cols)[0]!];
    while (todo.length) {
      const cur = todo.pop()!;
      const k = lineKey(idToLine(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      for (const d of ["up", "down", "left", "right"] as const) todo.push(step(cur, d, rows, cols));
    }
    expect(seen.size).toBe(allLines(rows, cols).length);
    expect(step({ kind: "h", x: 0, y: 0 }, "up", rows, cols)).toEqual({ kind: "h", x: 0, y: 0 });
    expect(step({ kind: "h", x: 0, y: 0 }, "down", rows, cols)).toEqual({ kind: "v", x: 0, y: 0 });
    expect(step({ kind: "v", x: 0, y: 0 }, "down", rows, cols)).toEqual({ kind: "h", x: 0, y: 1 });
    expect(step({ kind: "v", x: 4, y: 0 }, "down", rows, cols)).toEqual({ kind: "h", x: 3, y: 1 });
  });
});

describe("BoxesBoard", () => {
  it("offers one hit area per line with an accessible name", () => {
    const { container } = setup(view(3, 3));
    const hits = container.querySelectorAll("[data-line]");
    expect(hits).toHaveLength(24);
    expect(hits[0]!.getAttribute("aria-label")).toBe("0,0-1,0 free");
    expect(container.querySelector("svg")!.getAttribute("aria-label")).toBe("board");
  });

  it("draws a free line on click, with the line in API form", () => {
    const { container, onDraw } = setup(view(3, 3));
    fireEvent.click(container.querySelector('[data-line="v:1:2"]')!);
    expect(onDraw).toHaveBeenCalledWith([[1, 2], [1, 3]]);
  });

  it("previews the line under the pointer before drawing", () => {
    const { container } = setup(view(3, 3));
    expect(container.querySelector("[data-preview]")).toBeNull();
    fireEvent.pointerEnter(container.querySelector('[data-line="h:2:3"]')!);
    expect(container.querySelector("[data-preview]")!.getAttribute("data-preview")).toBe("h:2:3");
  });

  it("refuses drawn lines and everything when not interactive", () => {
    const drawn: Line = [[0, 0], [1, 0]];
    const a = setup(view(2, 2, [{ line: drawn, player: 1 }]));
    fireEvent.click(a.container.querySelector('[data-line="h:0:0"]')!);
    expect(a.onDraw).not.toHaveBeenCalled();
    expect(a.onBlocked).toHaveBeenCalledWith([[0, 0], [1, 0]], "drawn");
    cleanup();
    const b = setup(view(2, 2), false);
    fireEvent.click(b.container.querySelector('[data-line="h:1:0"]')!);
    expect(b.onDraw).not.toHaveBeenCalled();
    expect(b.onBlocked).toHaveBeenCalledWith([[1, 0], [2, 0]], "wait");
    fireEvent.pointerEnter(b.container.querySelector('[data-line="h:1:0"]')!);
    expect(b.container.querySelector("[data-preview]")).toBeNull();
  });

  it("plays by keyboard: one tab stop, arrows move, Enter and Space draw", () => {
    const v = view(2, 2, [{ line: [[0, 0], [1, 0]], player: 0 }]);
    const { container, onDraw } = setup(v);
    const stops = container.querySelectorAll('[data-line][tabindex="0"]');
    expect(stops).toHaveLength(1);
    // The tab stop starts on the first free line.
    expect(stops[0]!.getAttribute("data-line")).toBe("h:1:0");
    (stops[0] as SVGElement).focus();
    fireEvent.keyDown(stops[0]!, { key: "ArrowDown" });
    const cur = container.querySelector('[data-line][tabindex="0"]')!;
    expect(cur.getAttribute("data-line")).toBe("v:1:0");
    expect(document.activeElement).toBe(cur);
    fireEvent.keyDown(cur, { key: "Enter" });
    expect(onDraw).toHaveBeenLastCalledWith([[1, 0], [1, 1]]);
    fireEvent.keyDown(cur, { key: "ArrowRight" });
    const next = container.querySelector('[data-line][tabindex="0"]')!;
    expect(next.getAttribute("data-line")).toBe("v:2:0");
    fireEvent.keyDown(next, { key: " " });
    expect(onDraw).toHaveBeenLastCalledWith([[2, 0], [2, 1]]);
  });

  it("shows claimed boxes with the owner's letter, drawn lines and the last-line mark", () => {
    const drawn: Array<{ line: Line; player: 0 | 1 | null }> = [
      { line: [[0, 0], [1, 0]], player: null },
      { line: [[0, 0], [0, 1]], player: 1 },
      { line: [[1, 0], [1, 1]], player: 0 },
      { line: [[0, 1], [1, 1]], player: 1 },
    ];
    const v = view(1, 2, drawn, { boxes: [{ box: [0, 0], owner: 1 }], scores: [0, 1] });
    const { container } = setup(v);
    const box = container.querySelector('[data-box="0:0"]')!;
    expect(box.getAttribute("data-owner")).toBe("1");
    expect(box.textContent).toBe("C");
    expect(container.querySelectorAll("[data-drawn]")).toHaveLength(4);
    expect(container.querySelector("[data-drawn='h:0:0']")!.getAttribute("class")).toContain("start");
    expect(container.querySelector("[data-last]")!.getAttribute("data-last")).toBe("h:0:1");
  });

  it("shows a hint line and a pending line", () => {
    const onDraw = vi.fn();
    const { container } = render(
      <BoxesBoard
        view={view(2, 2)}
        interactive
        hint={[[0, 2], [1, 2]]}
        pending={[[1, 1], [1, 0]]}
        boxLabel={() => "1"}
        labels={labels}
        onDraw={onDraw}
      />,
    );
    expect(container.querySelector("[data-hint]")!.getAttribute("data-hint")).toBe("h:0:2");
    expect(container.querySelector(".pending")).not.toBeNull();
    // A pending line cannot be sent twice.
    fireEvent.click(container.querySelector('[data-line="v:1:0"]')!);
    expect(onDraw).not.toHaveBeenCalled();
  });
});

describe("BoxesBoard coordinates", () => {
  it("name the dots' columns a… and rows 1… from the top left, only when asked", () => {
    const { container } = render(
      <BoxesBoard view={view(2, 3)} interactive={false} boxLabel={() => ""} labels={labels} onDraw={() => undefined} coordinates />,
    );
    const texts = [...container.querySelectorAll("[data-testid='coordinates'] text")].map((t) => t.textContent);
    expect(texts).toEqual(["a", "b", "c", "d", "1", "2", "3"]);
    cleanup();
    const plain = render(<BoxesBoard view={view(2, 3)} interactive={false} boxLabel={() => ""} labels={labels} onDraw={() => undefined} />);
    expect(plain.container.querySelector("[data-testid='coordinates']")).toBeNull();
  });
});
