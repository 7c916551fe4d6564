import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render } from "@testing-library/preact";
import { DotsBoard, type DotsBoardLabels } from "./DotsBoard";
import {
  CELL,
  MARGIN,
  clampView,
  frameOf,
  fromFrame,
  fullView,
  inView,
  indexBoard,
  maxZoom,
  nearestPoint,
  playablePoints,
  screenToSheet,
  sheetSize,
  stepPoint,
  toFrame,
  viewAround,
  zoomAt,
  zoomForCell,
  type DotsView,
  type Pt,
} from "./dotsGeometry";

afterEach(cleanup);

// A real position from core (7×7): pen surrounded the pencil cross at (2, 2).
const captured: DotsView = {
  game: "dots",
  width: 7,
  height: 7,
  start: "empty",
  win_margin: null,
  grounding: false,
  marks: [
    { point: [0, 0], owner: 1, captured: false },
    { point: [2, 1], owner: 0, captured: false },
    { point: [1, 2], owner: 0, captured: false },
    { point: [2, 2], owner: 1, captured: true },
    { point: [3, 2], owner: 0, captured: false },
    { point: [2, 3], owner: 0, captured: false },
    { point: [5, 5], owner: 1, captured: false },
  ],
  areas: [{ captor: 0, chain: [[2, 1], [3, 2], [2, 3], [1, 2]], inside: [[2, 2]] }],
  houses: [],
  last_move: [1, 2],
  move_count: 7,
  scores: [1, 0],
  to_move: 1,
  is_over: false,
  outcome: null,
  ungrounded: [],
};

function empty(width: number, height: number): DotsView {
  return { width, height, marks: [], areas: [], houses: [], last_move: null, move_count: 0, scores: [0, 0], to_move: 0, is_over: false };
}

const labels: DotsBoardLabels = {
  board: "Dots board",
  point: (p, info, playable) =>
    `point ${p[0]},${p[1]} ${info.kind === "mark" ? `seat${info.owner}${info.captured ? " captured" : ""}` : info.kind}${playable ? " playable" : ""}`,
  keys: "arrows move, Enter places",
  zoomIn: "zoom in",
  zoomOut: "zoom out",
  zoomFit: "whole sheet",
  lastMove: "last move",
  tapAgain: "tap again",
};

// jsdom lays nothing out: give the sheet a box of exactly its own size at (0, 0), so a
// screen pixel is one sheet unit.
function layOut(svg: SVGSVGElement, view: DotsView) {
  const { w, h } = sheetSize(view.width, view.height);
  svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: w, height: h, right: w, bottom: h, x: 0, y: 0, toJSON: () => ({}) }) as DOMRect;
}

function setup(view: DotsView, opts: { interactive?: boolean; tapPreview?: boolean; pending?: Pt | null } = {}) {
  const onPlace = vi.fn();
  const onBlocked = vi.fn();
  const r = render(
    <DotsBoard
      view={view}
      interactive={opts.interactive ?? true}
      tapPreview={opts.tapPreview ?? true}
      pending={opts.pending ?? null}
      labels={labels}
      onPlace={onPlace}
      onBlocked={onBlocked}
    />,
  );
  const svg = r.container.querySelector("svg.dots-board") as SVGSVGElement;
  layOut(svg, view);
  return { ...r, svg, onPlace, onBlocked };
}

const at = (x: number, y: number) => ({ clientX: MARGIN + x * CELL, clientY: MARGIN + y * CELL });

function tap(svg: SVGSVGElement, x: number, y: number, pointerType: "mouse" | "touch", id = 1) {
  fireEvent.pointerDown(svg, { pointerId: id, pointerType, button: 0, ...at(x, y) });
  fireEvent.pointerUp(svg, { pointerId: id, pointerType, button: 0, ...at(x, y) });
}

describe("dots geometry", () => {
  it("finds the nearest grid point and nothing off the sheet", () => {
    expect(nearestPoint(MARGIN + 2 * CELL + 5, MARGIN + 3 * CELL - 7, 7, 7)).toEqual([2, 3]);
    expect(nearestPoint(1, 1, 7, 7)).toEqual([0, 0]);
    expect(nearestPoint(MARGIN + 6 * CELL + 10, MARGIN, 7, 7)).toEqual([6, 0]);
    expect(nearestPoint(MARGIN * 2 + 6 * CELL + 1, MARGIN, 7, 7)).toBeNull();
  });

  it("maps screen to sheet through a letterboxed, zoomed view", () => {
    const vb = { x: 100, y: 50, w: 200, h: 100 };
    // A 400×400 box shows the 200×100 view at scale 2, centred vertically.
    expect(screenToSheet(0, 100, { left: 0, top: 0, width: 400, height: 400 }, vb)).toEqual([100, 50]);
    expect(screenToSheet(400, 300, { left: 0, top: 0, width: 400, height: 400 }, vb)).toEqual([300, 150]);
  });

  it("keeps zoom and pan inside the sheet", () => {
    const f = frameOf(39, 32);
    const full = fullView(f);
    expect(clampView({ ...full, x: -50, y: 900 }, f)).toEqual(full);
    const z = zoomAt(full, 100, full.w / 2, full.h / 2, f);
    expect(full.w / z.w).toBeCloseTo(maxZoom(39, 32));
    expect(z.x).toBeGreaterThan(0);
    const back = zoomAt(z, 0.001, 0, 0, f);
    expect(back).toEqual(full);
  });

  it("playable points: free and outside captured areas, or the server's list", () => {
    const b = indexBoard(captured);
    const free = playablePoints(captured, b);
    expect(free.size).toBe(49 - 7);
    expect(b.dead.size).toBe(0);
    const withDead: DotsView = {
      ...captured,
      marks: captured.marks.filter((m) => m.point[0] !== 2 || m.point[1] !== 2),
    };
    const b2 = indexBoard(withDead);
    expect(b2.dead.has(2 * 7 + 2)).toBe(true);
    expect(playablePoints(withDead, b2).has(2 * 7 + 2)).toBe(false);
    expect([...playablePoints(captured, b, [[4, 4]])]).toEqual([4 * 7 + 4]);
  });

  it("a turned frame maps sheet points there and back", () => {
    const f = frameOf(39, 32, true);
    const s = sheetSize(39, 32);
    expect([f.w, f.h]).toEqual([s.h, s.w]);
    // The sheet's top-left corner goes to the frame's top-right corner.
    expect(toFrame(f, 0, 0)).toEqual([s.h, 0]);
    expect(fromFrame(f, ...toFrame(f, 123, 45))).toEqual([123, 45]);
  });

  it("the cursor stays on the board", () => {
    expect(stepPoint([0, 0], "left", 5, 5)).toEqual([0, 0]);
    expect(stepPoint([3, 4], "down", 5, 5)).toEqual([3, 4]);
    expect(stepPoint([1, 1], "right", 5, 5, 5)).toEqual([4, 1]);
  });
});

describe("DotsBoard rendering", () => {
  it("draws pen dots and pencil crosses, a captured area outlined along its chain and hatched, and the captured mark struck through", () => {
    const { container } = setup(captured);
    expect(container.querySelectorAll("[data-mark]")).toHaveLength(7);
    expect(container.querySelectorAll("[data-mark] circle.pen")).toHaveLength(4);
    expect(container.querySelectorAll("[data-mark] path.pencil")).toHaveLength(3);

    const area = container.querySelector("[data-area='0']")!;
    expect(area.getAttribute("data-captor")).toBe("0");
    expect(area.classList.contains("seat0")).toBe(true);
    const outline = area.querySelector("polygon.area-outline")!;
    const pts = (c: number) => MARGIN + c * CELL;
    expect(outline.getAttribute("points")).toBe(
      `${pts(2)},${pts(1)} ${pts(3)},${pts(2)} ${pts(2)},${pts(3)} ${pts(1)},${pts(2)}`,
    );
    const hatch = area.querySelector("polygon.area-hatch")!;
    expect(hatch.getAttribute("fill")).toMatch(/^url\(#dots\d+-hatch0\)$/);
    const patternId = hatch.getAttribute("fill")!.slice(5, -1);
    expect(container.querySelector(`pattern#${patternId}`)).not.toBeNull();

    const prisoner = container.querySelector("[data-mark='2:2']")!;
    expect(prisoner.getAttribute("data-captured")).toBe("true");
    expect(prisoner.querySelector("path.strike")).not.toBeNull();
    expect(container.querySelectorAll("path.strike")).toHaveLength(1);

    expect(container.querySelector("[data-last='1:2']")).not.toBeNull();
  });

  it("draws houses faintly, apart from captures", () => {
    const v: DotsView = {
      ...empty(7, 7),
      marks: [
        { point: [1, 0], owner: 1, captured: false },
        { point: [0, 1], owner: 1, captured: false },
        { point: [2, 1], owner: 1, captured: false },
        { point: [1, 2], owner: 1, captured: false },
      ],
      houses: [{ owner: 1, chain: [[1, 0], [2, 1], [1, 2], [0, 1]], inside: [[1, 1]] }],
    };
    const { container } = setup(v);
    const house = container.querySelector("polygon.house")!;
    expect(house.getAttribute("data-owner")).toBe("1");
    expect(container.querySelector("[data-area]")).toBeNull();
  });

  it("re-renders only the row of a new mark", () => {
    const v1: DotsView = { ...empty(9, 9), marks: [{ point: [1, 1], owner: 0, captured: false }, { point: [5, 6], owner: 1, captured: false }] };
    const r = setup(v1);
    const row1 = r.container.querySelector("[data-row='1']")!;
    const row6 = r.container.querySelector("[data-row='6']")!;
    r.rerender(
      <DotsBoard
        view={{ ...v1, marks: [...v1.marks, { point: [7, 6], owner: 0, captured: false }], move_count: 3 }}
        interactive
        tapPreview
        labels={labels}
        onPlace={() => {}}
      />,
    );
    expect(r.container.querySelector("[data-row='1']")).toBe(row1);
    expect(r.container.querySelector("[data-row='6']")).toBe(row6);
    expect(row6.querySelectorAll("[data-mark]")).toHaveLength(2);
  });
});

describe("DotsBoard input", () => {
  it("a mouse click places a mark at once", () => {
    const { svg, onPlace } = setup(empty(7, 7));
    tap(svg, 3, 4, "mouse");
    expect(onPlace).toHaveBeenCalledWith([3, 4]);
  });

  it("on touch the first tap previews, the second on the same point places", () => {
    const { svg, container, onPlace } = setup(empty(7, 7));
    tap(svg, 3, 4, "touch");
    expect(onPlace).not.toHaveBeenCalled();
    expect(container.querySelector("[data-preview='3:4']")).not.toBeNull();
    // Another point moves the preview.
    tap(svg, 5, 5, "touch");
    expect(onPlace).not.toHaveBeenCalled();
    expect(container.querySelector("[data-preview='5:5']")).not.toBeNull();
    tap(svg, 5, 5, "touch");
    expect(onPlace).toHaveBeenCalledTimes(1);
    expect(onPlace).toHaveBeenCalledWith([5, 5]);
  });

  it("with the preview switched off one tap places", () => {
    const { svg, onPlace } = setup(empty(7, 7), { tapPreview: false });
    tap(svg, 2, 2, "touch");
    expect(onPlace).toHaveBeenCalledWith([2, 2]);
  });

  it("a drag pans and never places", () => {
    const { svg, onPlace } = setup(empty(20, 20));
    fireEvent.click(svg.parentElement!.querySelector("button[aria-label='zoom in']")!);
    const before = svg.getAttribute("viewBox");
    fireEvent.pointerDown(svg, { pointerId: 1, pointerType: "mouse", button: 0, clientX: 200, clientY: 200 });
    fireEvent.pointerMove(svg, { pointerId: 1, pointerType: "mouse", buttons: 1, clientX: 150, clientY: 170 });
    fireEvent.pointerUp(svg, { pointerId: 1, pointerType: "mouse", button: 0, clientX: 150, clientY: 170 });
    expect(onPlace).not.toHaveBeenCalled();
    expect(svg.getAttribute("viewBox")).not.toBe(before);
  });

  it("two fingers pinch to zoom and place nothing", () => {
    const { svg, onPlace } = setup(empty(39, 32));
    expect(svg.getAttribute("data-zoom")).toBe("1.00");
    fireEvent.pointerDown(svg, { pointerId: 1, pointerType: "touch", clientX: 300, clientY: 300 });
    fireEvent.pointerDown(svg, { pointerId: 2, pointerType: "touch", clientX: 340, clientY: 300 });
    fireEvent.pointerMove(svg, { pointerId: 2, pointerType: "touch", clientX: 420, clientY: 300 });
    fireEvent.pointerUp(svg, { pointerId: 2, pointerType: "touch", clientX: 420, clientY: 300 });
    fireEvent.pointerUp(svg, { pointerId: 1, pointerType: "touch", clientX: 300, clientY: 300 });
    expect(Number(svg.getAttribute("data-zoom"))).toBeGreaterThan(2.5);
    expect(onPlace).not.toHaveBeenCalled();
  });

  it("Ctrl+wheel zooms, a plain wheel does not", () => {
    const { svg } = setup(empty(39, 32));
    fireEvent.wheel(svg, { deltaY: -200, clientX: 100, clientY: 100 });
    expect(svg.getAttribute("data-zoom")).toBe("1.00");
    fireEvent.wheel(svg, { deltaY: -200, clientX: 100, clientY: 100, ctrlKey: true });
    expect(Number(svg.getAttribute("data-zoom"))).toBeGreaterThan(1.2);
  });

  it("refuses occupied and dead points and waits when it is not our move", () => {
    const { svg, onPlace, onBlocked } = setup(captured, { tapPreview: false });
    tap(svg, 2, 1, "mouse");
    expect(onBlocked).toHaveBeenLastCalledWith([2, 1], "occupied");
    cleanup();
    const dead: DotsView = { ...captured, marks: captured.marks.filter((m) => m.point[0] !== 2 || m.point[1] !== 2) };
    const s2 = setup(dead);
    tap(s2.svg, 2, 2, "mouse");
    expect(s2.onBlocked).toHaveBeenLastCalledWith([2, 2], "dead");
    cleanup();
    const s3 = setup(empty(7, 7), { interactive: false });
    tap(s3.svg, 4, 4, "touch");
    expect(s3.onBlocked).toHaveBeenLastCalledWith([4, 4], "wait");
    expect(onPlace).not.toHaveBeenCalled();
    expect(s2.onPlace).not.toHaveBeenCalled();
    expect(s3.onPlace).not.toHaveBeenCalled();
  });

  it("on a turned sheet a tap and the arrows follow the screen", () => {
    const onPlace = vi.fn();
    const v = empty(9, 5);
    const r = render(<DotsBoard view={v} interactive tapPreview={false} turn labels={labels} onPlace={onPlace} />);
    const svg = r.container.querySelector("svg.dots-board") as SVGSVGElement;
    const { w, h } = sheetSize(9, 5);
    // The turned frame is h wide and w tall; one screen pixel is one unit.
    svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: h, height: w, right: h, bottom: w, x: 0, y: 0, toJSON: () => ({}) }) as DOMRect;
    expect(svg.getAttribute("data-turned")).toBe("true");
    expect(svg.getAttribute("viewBox")).toBe(`0 0 ${h} ${w}`);
    // Sheet point (2, 1) sits at frame (sheetH - y, x).
    const [fx, fy] = toFrame(frameOf(9, 5, true), MARGIN + 2 * CELL, MARGIN + 1 * CELL);
    fireEvent.pointerDown(svg, { pointerId: 1, pointerType: "mouse", button: 0, clientX: fx, clientY: fy });
    fireEvent.pointerUp(svg, { pointerId: 1, pointerType: "mouse", button: 0, clientX: fx, clientY: fy });
    expect(onPlace).toHaveBeenCalledWith([2, 1]);
    // ArrowRight on screen goes up the sheet; ArrowDown goes right.
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    expect(svg.getAttribute("data-cursor")).toBe("2:0");
    fireEvent.keyDown(svg, { key: "ArrowDown" });
    expect(svg.getAttribute("data-cursor")).toBe("3:0");
  });

  it("a pending mark blocks a second one", () => {
    const { svg, container, onPlace } = setup(empty(7, 7), { pending: [1, 1] });
    expect(container.querySelector("[data-pending='1:1']")).not.toBeNull();
    tap(svg, 3, 3, "mouse");
    expect(onPlace).not.toHaveBeenCalled();
  });
});

describe("DotsBoard keyboard", () => {
  it("is reached by Tab, moves a cursor with the arrows and places with Enter or Space", async () => {
    const { svg, container, onPlace } = setup(captured);
    expect(svg.getAttribute("tabindex")).toBe("0");
    // The cursor starts on the last mark.
    expect(svg.getAttribute("data-cursor")).toBe("1:2");
    expect(svg.getAttribute("aria-label")).toContain("point 1,2 seat0");
    await act(() => svg.focus());
    fireEvent.keyDown(svg, { key: "ArrowUp" });
    expect(svg.getAttribute("data-cursor")).toBe("1:1");
    expect(svg.getAttribute("aria-label")).toContain("point 1,1 free playable");
    expect(container.querySelector("[data-testid='dots-cursor']")!.textContent).toContain("point 1,1 free playable");
    expect(container.querySelector(".cursor-ring")).not.toBeNull();
    fireEvent.keyDown(svg, { key: "Enter" });
    expect(onPlace).toHaveBeenLastCalledWith([1, 1]);
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    fireEvent.keyDown(svg, { key: "ArrowRight" });
    expect(svg.getAttribute("aria-label")).toContain("point 3,1 free");
    fireEvent.keyDown(svg, { key: " " });
    expect(onPlace).toHaveBeenLastCalledWith([3, 1]);
    // On a captured mark the label says so and nothing is placed.
    fireEvent.keyDown(svg, { key: "ArrowDown" });
    fireEvent.keyDown(svg, { key: "ArrowLeft" });
    expect(svg.getAttribute("aria-label")).toContain("point 2,2 seat1 captured");
    fireEvent.keyDown(svg, { key: "Enter" });
    expect(onPlace).toHaveBeenCalledTimes(2);
  });

  it("+ and - zoom around the cursor, 0 shows the whole sheet", () => {
    const { svg } = setup(empty(39, 32));
    fireEvent.keyDown(svg, { key: "+" });
    expect(Number(svg.getAttribute("data-zoom"))).toBeGreaterThan(1.4);
    fireEvent.keyDown(svg, { key: "0" });
    expect(svg.getAttribute("data-zoom")).toBe("1.00");
  });
});

describe("DotsBoard on a phone", () => {
  it("opens a big sheet close enough for fingers: the zoom that gives a cell its pixels", () => {
    const f = frameOf(39, 32, true);
    // 370 px across a turned 39×32 sheet: about 11.4 px a cell when whole.
    const z = zoomForCell(f, 370, 30);
    expect((CELL * 370 * z) / f.w).toBeCloseTo(30);
    expect(zoomForCell(frameOf(5, 5), 370, 30)).toBe(1);
    expect(zoomForCell(f, 10, 30)).toBe(f.zmax);
    const v = viewAround(f, z, f.w / 2, f.h / 2);
    expect(v.x + v.w / 2).toBeCloseTo(f.w / 2);
    expect(inView(v, f.w / 2, f.h / 2)).toBe(true);
    expect(inView(v, 0, 0)).toBe(false);
    // Near an edge the view stays on the sheet.
    expect(viewAround(f, z, 0, 0)).toMatchObject({ x: 0, y: 0 });
  });

  it("says to tap again while a first tap previews a mark", () => {
    const { svg, container, onPlace } = setup(empty(9, 9));
    const help = () => container.querySelector("[data-testid='dots-help']")!.textContent;
    expect(help()).not.toBe("tap again");
    tap(svg, 4, 4, "touch");
    expect(help()).toBe("tap again");
    expect(onPlace).not.toHaveBeenCalled();
    tap(svg, 4, 4, "touch");
    expect(onPlace).toHaveBeenCalledWith([4, 4]);
  });

  it("goes to the last move, closer, and marks the button while that move is out of view", () => {
    const view = { ...empty(39, 32), marks: [{ point: [37, 30] as Pt, owner: 0 as const, captured: false }], last_move: [37, 30] as Pt, move_count: 1 };
    const { svg, getByRole } = setup(view);
    const button = getByRole("button", { name: "last move" });
    expect(button.getAttribute("data-off-view")).toBe("false");
    // "+" zooms round the last move while it is in view; a drag then takes it out.
    fireEvent.click(getByRole("button", { name: "zoom in" }));
    fireEvent.click(getByRole("button", { name: "zoom in" }));
    expect(button.getAttribute("data-off-view")).toBe("false");
    fireEvent.pointerDown(svg, { pointerId: 1, pointerType: "mouse", button: 0, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(svg, { pointerId: 1, pointerType: "mouse", buttons: 1, clientX: 700, clientY: 700 });
    fireEvent.pointerUp(svg, { pointerId: 1, pointerType: "mouse", button: 0, clientX: 700, clientY: 700 });
    expect(button.getAttribute("data-off-view")).toBe("true");
    fireEvent.click(button);
    expect(button.getAttribute("data-off-view")).toBe("false");
    expect(svg.getAttribute("data-cursor")).toBe("37:30");
  });

  it("+ keeps a previewed mark where it is on the screen", () => {
    const { svg, getByRole } = setup(empty(39, 32));
    tap(svg, 30, 5, "touch");
    const before = svg.getAttribute("viewBox")!.split(" ").map(Number);
    fireEvent.click(getByRole("button", { name: "zoom in" }));
    const after = svg.getAttribute("viewBox")!.split(" ").map(Number);
    // The point's position within the view, as a share of the view's size, stays put.
    const share = (vb: number[]) => [(MARGIN + 30 * CELL - vb[0]!) / vb[2]!, (MARGIN + 5 * CELL - vb[1]!) / vb[3]!];
    expect(after[2]).toBeLessThan(before[2]!);
    expect(share(after)[0]).toBeCloseTo(share(before)[0]!, 1);
    expect(share(after)[1]).toBeCloseTo(share(before)[1]!, 1);
  });
});

describe("DotsBoard coordinates", () => {
  it("label the columns and rows in view, thinning them out when the sheet is small on screen", () => {
    const r = render(<DotsBoard view={empty(39, 32)} interactive={false} tapPreview labels={labels} onPlace={() => undefined} coordinates />);
    const texts = () => [...r.container.querySelectorAll("[data-testid='coordinates'] text")].map((t) => t.textContent);
    // jsdom has no layout: until the board knows its width on screen there are none.
    expect(texts()).toEqual([]);
    cleanup();
    const wide = sheetSize(39, 32).w;
    const proto = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = () => ({ left: 0, top: 0, width: wide, height: 800, right: wide, bottom: 800, x: 0, y: 0, toJSON: () => ({}) }) as DOMRect;
    try {
      const again = render(<DotsBoard view={empty(39, 32)} interactive={false} tapPreview labels={labels} onPlace={() => undefined} coordinates />);
      const shown = [...again.container.querySelectorAll("[data-testid='coordinates'] text")].map((t) => t.textContent);
      // One sheet unit a pixel: a cell is 24 px, room enough for every label.
      expect(shown).toContain("a");
      expect(shown).toContain("am");
      expect(shown).toContain("1");
      expect(shown).toContain("32");
    } finally {
      Element.prototype.getBoundingClientRect = proto;
    }
  });

  it("on a turned sheet keep the first letter down the side clear of the numbers across the top", () => {
    const proto = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = () => ({ left: 0, top: 0, width: 374, height: 450, right: 374, bottom: 450, x: 0, y: 0, toJSON: () => ({}) }) as DOMRect;
    try {
      const r = render(<DotsBoard view={empty(39, 32)} interactive={false} tapPreview turn labels={labels} onPlace={() => undefined} coordinates />);
      const placed = (cls: string) =>
        [...r.container.querySelectorAll(`[data-testid='coordinates'] text.${cls}`)].map((t) => ({ x: Number(t.getAttribute("x")), y: Number(t.getAttribute("y")), name: t.textContent }));
      const font = Number(r.container.querySelector("[data-testid='coordinates']")!.getAttribute("font-size"));
      const across = placed("row");
      const down = placed("col");
      expect(across.length).toBeGreaterThan(5);
      expect(down.map((label) => label.name)).toContain("a");
      // No two labels on one line closer than two letters' room.
      for (const side of down) {
        for (const label of across) {
          if (Math.abs(side.y - label.y) < font * 0.6) expect(Math.abs(side.x - label.x)).toBeGreaterThanOrEqual(font * 2.2);
        }
      }
    } finally {
      Element.prototype.getBoundingClientRect = proto;
    }
  });
});
