// Geometry of a Dots board: pure functions, no DOM, no network.
//
// Coordinates follow the wire protocol (docs/api.md): points are (x, y) with x in
// 0..width-1 and y in 0..height-1, (0, 0) top-left; the notation calls (0, 0) `a1`
// (notation.ts). Inside the client a point also has an index,
// y * width + x, which is cheap to keep in sets and maps.

export type Seat = 0 | 1;
export type Pt = readonly [number, number];

/** The position as the server's rules describe it (core `DotsState.view()`). */
export interface DotsView {
  game?: "dots";
  width: number;
  height: number;
  start?: string;
  win_margin?: number | null;
  grounding?: boolean;
  marks: ReadonlyArray<{ point: Pt; owner: Seat; captured: boolean }>;
  /** Captured areas: the captor, the ordered chain round the area, the points inside. */
  areas: ReadonlyArray<{ captor: Seat; chain: ReadonlyArray<Pt>; inside: ReadonlyArray<Pt> }>;
  /** Empty enclosures ("houses"): closed chains that capture nothing. */
  houses: ReadonlyArray<{ owner: Seat; chain: ReadonlyArray<Pt>; inside: ReadonlyArray<Pt> }>;
  last_move: Pt | null;
  move_count?: number;
  scores: readonly number[];
  to_move: Seat;
  is_over: boolean;
  outcome?: unknown;
  /** After an ending by grounding: the points that counted as captured. */
  ungrounded?: ReadonlyArray<Pt>;
}

/** What stands on a point, as far as drawing and labels are concerned. */
export type PointInfo =
  | { kind: "free" }
  | { kind: "dead" }
  | { kind: "mark"; owner: Seat; captured: boolean };

// Drawing units: one cell of the squared sheet, and the paper round the outer points.
export const CELL = 24;
export const MARGIN = 18;

export const coord = (i: number): number => MARGIN + i * CELL;

export function sheetSize(width: number, height: number): { w: number; h: number } {
  return { w: (width - 1) * CELL + 2 * MARGIN, h: (height - 1) * CELL + 2 * MARGIN };
}

export const indexOf = (x: number, y: number, width: number): number => y * width + x;
export const pointOf = (index: number, width: number): Pt => [index % width, Math.floor(index / width)];

export function inBoard(x: number, y: number, width: number, height: number): boolean {
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < width && y < height;
}

/** Who stands where, and which empty points lie inside captured areas (dead). */
export interface BoardIndex {
  marks: Map<number, { owner: Seat; captured: boolean }>;
  dead: Set<number>;
}

export function indexBoard(view: DotsView): BoardIndex {
  const w = view.width;
  const marks = new Map<number, { owner: Seat; captured: boolean }>();
  for (const m of view.marks) marks.set(indexOf(m.point[0], m.point[1], w), { owner: m.owner, captured: m.captured });
  const dead = new Set<number>();
  for (const a of view.areas) {
    for (const p of a.inside) {
      const i = indexOf(p[0], p[1], w);
      if (!marks.has(i)) dead.add(i);
    }
  }
  return { marks, dead };
}

export function infoAt(board: BoardIndex, index: number): PointInfo {
  const m = board.marks.get(index);
  if (m) return { kind: "mark", owner: m.owner, captured: m.captured };
  return board.dead.has(index) ? { kind: "dead" } : { kind: "free" };
}

/**
 * The points a mark may go on, for display only (the server decides): the server's
 * list when it sent one, else every free point outside the captured areas.
 */
export function playablePoints(view: DotsView, board: BoardIndex, legal?: ReadonlyArray<Pt> | null): Set<number> {
  const w = view.width;
  if (legal) return new Set(legal.map((p) => indexOf(p[0], p[1], w)));
  const out = new Set<number>();
  if (view.is_over) return out;
  const n = view.width * view.height;
  for (let i = 0; i < n; i++) if (!board.marks.has(i) && !board.dead.has(i)) out.add(i);
  return out;
}

/** An SVG "points" attribute for a chain of grid points. */
export function polygonPoints(chain: ReadonlyArray<Pt>): string {
  return chain.map(([x, y]) => `${coord(x)},${coord(y)}`).join(" ");
}

// -- the visible part of the sheet (zoom and pan) --------------------------------------
//
// The SVG shows a "frame": the sheet as drawn, or the sheet turned a quarter clockwise
// (a landscape sheet on a portrait phone). The view box, zoom and pan live in frame
// units; grid points are turned into frame units and back.

export interface ViewBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Frame {
  w: number;
  h: number;
  /** How far one may zoom in. */
  zmax: number;
  turned: boolean;
  /** Height of the unturned sheet (the turn's offset). */
  sheetH: number;
}

/** How far one may zoom in: about eight cells across the narrower side stay visible. */
export function maxZoom(width: number, height: number): number {
  return Math.max(1, (Math.min(width, height) + 1) / 9);
}

export function frameOf(width: number, height: number, turned = false): Frame {
  const s = sheetSize(width, height);
  const zmax = maxZoom(width, height);
  return turned ? { w: s.h, h: s.w, zmax, turned, sheetH: s.h } : { w: s.w, h: s.h, zmax, turned, sheetH: s.h };
}

/** Sheet units → frame units. */
export function toFrame(f: Frame, sx: number, sy: number): [number, number] {
  return f.turned ? [f.sheetH - sy, sx] : [sx, sy];
}

/** Frame units → sheet units. */
export function fromFrame(f: Frame, fx: number, fy: number): [number, number] {
  return f.turned ? [fy, f.sheetH - fx] : [fx, fy];
}

/** The SVG transform that turns the sheet into the frame (none when not turned). */
export function frameTransform(f: Frame): string | undefined {
  return f.turned ? `matrix(0 1 -1 0 ${f.sheetH} 0)` : undefined;
}

export function fullView(f: Frame): ViewBox {
  return { x: 0, y: 0, w: f.w, h: f.h };
}

export function zoomOf(vb: ViewBox, f: Frame): number {
  return f.w / vb.w;
}

/** Keep the view inside the frame, at a zoom between 1 and the maximum, same shape as the frame. */
export function clampView(vb: ViewBox, f: Frame): ViewBox {
  const w = Math.min(f.w, Math.max(f.w / f.zmax, vb.w));
  const h = (w * f.h) / f.w;
  const x = Math.min(f.w - w, Math.max(0, vb.x));
  const y = Math.min(f.h - h, Math.max(0, vb.y));
  return { x, y, w, h };
}

/** Zoom by `factor` (> 1 is closer) keeping the frame point (fx, fy) where it is on screen. */
export function zoomAt(vb: ViewBox, factor: number, fx: number, fy: number, f: Frame): ViewBox {
  const w = Math.min(f.w, Math.max(f.w / f.zmax, vb.w / factor));
  const k = w / vb.w;
  const h = vb.h * k;
  return clampView({ x: fx - (fx - vb.x) * k, y: fy - (fy - vb.y) * k, w, h }, f);
}

/** The zoom at which one cell of the sheet spans `px` screen pixels in an element `elementWidth` wide (at least 1, at most the frame's limit). */
export function zoomForCell(f: Frame, elementWidth: number, px: number): number {
  if (elementWidth <= 0) return 1;
  const cellAtWhole = (CELL * elementWidth) / f.w;
  return Math.min(f.zmax, Math.max(1, px / cellAtWhole));
}

/** The view at `zoom` centred (as far as the frame allows) on the frame point (fx, fy). */
export function viewAround(f: Frame, zoom: number, fx: number, fy: number): ViewBox {
  const w = f.w / Math.min(f.zmax, Math.max(1, zoom));
  const h = (w * f.h) / f.w;
  return clampView({ x: fx - w / 2, y: fy - h / 2, w, h }, f);
}

/** Whether the frame point (fx, fy) is inside the view, `pad` frame units from its edges. */
export function inView(vb: ViewBox, fx: number, fy: number, pad = 0): boolean {
  return fx >= vb.x + pad && fx <= vb.x + vb.w - pad && fy >= vb.y + pad && fy <= vb.y + vb.h - pad;
}

/** The view moved so that the frame point (px, py) is inside it with some room round it. */
export function revealPoint(vb: ViewBox, px: number, py: number, f: Frame): ViewBox {
  const pad = CELL * 1.5;
  let { x, y } = vb;
  if (px - pad < x) x = px - pad;
  if (px + pad > x + vb.w) x = px + pad - vb.w;
  if (py - pad < y) y = py - pad;
  if (py + pad > y + vb.h) y = py + pad - vb.h;
  return clampView({ ...vb, x, y }, f);
}

/** Arrow keys move the cursor the way they point on screen, also on a turned sheet. */
export function arrowDirection(key: string, turned: boolean): Direction | null {
  const plain: Record<string, Direction> = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
  const turn: Record<string, Direction> = { ArrowUp: "left", ArrowDown: "right", ArrowLeft: "down", ArrowRight: "up" };
  return (turned ? turn : plain)[key] ?? null;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Screen position → sheet position for an SVG showing `vb` in the element box `rect`
 * with preserveAspectRatio "xMidYMid meet".
 */
export function screenToSheet(clientX: number, clientY: number, rect: Rect, vb: ViewBox): [number, number] | null {
  if (rect.width <= 0 || rect.height <= 0 || vb.w <= 0 || vb.h <= 0) return null;
  const scale = Math.min(rect.width / vb.w, rect.height / vb.h);
  const ox = rect.left + (rect.width - vb.w * scale) / 2;
  const oy = rect.top + (rect.height - vb.h * scale) / 2;
  return [vb.x + (clientX - ox) / scale, vb.y + (clientY - oy) / scale];
}

/** Sheet units per screen pixel. */
export function unitsPerPixel(rect: Rect, vb: ViewBox): number {
  const scale = Math.min(rect.width / vb.w, rect.height / vb.h);
  return scale > 0 ? 1 / scale : 1;
}

/** The grid point nearest to a sheet position, or null when it is off the board. */
export function nearestPoint(sx: number, sy: number, width: number, height: number): Pt | null {
  // The paper round the outer points still belongs to them (up to the sheet's edge).
  const fx = (sx - MARGIN) / CELL;
  const fy = (sy - MARGIN) / CELL;
  const reach = MARGIN / CELL;
  if (fx < -reach || fy < -reach || fx > width - 1 + reach || fy > height - 1 + reach) return null;
  const x = Math.max(0, Math.min(width - 1, Math.round(fx)));
  const y = Math.max(0, Math.min(height - 1, Math.round(fy)));
  return [x, y];
}

export type Direction = "up" | "down" | "left" | "right";

/** The cursor moved by `by` points (stays on the board). */
export function stepPoint(p: Pt, dir: Direction, width: number, height: number, by = 1): Pt {
  const [x, y] = p;
  const clamp = (v: number, hi: number) => Math.max(0, Math.min(hi - 1, v));
  switch (dir) {
    case "left":
      return [clamp(x - by, width), y];
    case "right":
      return [clamp(x + by, width), y];
    case "up":
      return [x, clamp(y - by, height)];
    case "down":
      return [x, clamp(y + by, height)];
  }
}

/** Where the keyboard cursor starts: the last mark, else the centre of the sheet. */
export function startCursor(view: DotsView): Pt {
  if (view.last_move) return view.last_move;
  return [Math.floor((view.width - 1) / 2), Math.floor((view.height - 1) / 2)];
}
