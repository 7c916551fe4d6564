// The Dots board: a pure SVG component. The position comes in, the player's intent
// ("put my mark here") goes out; rooms, seats and the network are the caller's business.
//
// A squared notebook sheet: the first player's marks are pen dots, the second's pencil
// crosses, each in its own colour. Captured areas are outlined along their chain and
// hatched in the captor's colour (the two sides hatch in different directions), captured
// marks are struck through, houses are outlined faintly, the last mark has a ring.
//
// Speed on 39×32: the sheet, the areas and the houses are built once per change of
// their own data, and marks are built row by row, so a move re-renders one row. There
// is a single hit surface instead of one element per point: the pointer position is
// turned into the nearest grid point.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { JSX, VNode } from "preact";
import {
  CELL,
  MARGIN,
  arrowDirection,
  clampView,
  coord,
  frameOf,
  frameTransform,
  fromFrame,
  fullView,
  inView,
  indexBoard,
  indexOf,
  infoAt,
  nearestPoint,
  playablePoints,
  polygonPoints,
  revealPoint,
  screenToSheet,
  sheetSize,
  startCursor,
  stepPoint,
  toFrame,
  unitsPerPixel,
  viewAround,
  zoomAt,
  zoomForCell,
  zoomOf,
  type DotsView,
  type Frame,
  type PointInfo,
  type Pt,
  type Seat,
  type ViewBox,
} from "./dotsGeometry";
import "./dotsBoard.css";
import { columnName } from "../notation";

export type { DotsView, PointInfo, Pt } from "./dotsGeometry";

export type BlockedReason = "occupied" | "dead" | "wait";

export interface DotsBoardLabels {
  /** Accessible name of the whole board. */
  board: string;
  /** A point and what stands on it, for the keyboard cursor. */
  point: (p: Pt, info: PointInfo, playable: boolean) => string;
  /** How to play with the keyboard (read once when the board gets the focus). */
  keys: string;
  zoomIn: string;
  zoomOut: string;
  zoomFit: string;
  /** The control that brings the last mark into view. */
  lastMove: string;
  /** A short visible line on how to zoom and move the sheet with a mouse or touchpad. */
  zoomHelp?: string;
  /** The same for fingers (shown on touch screens). */
  touchHelp?: string;
  /** Shown while a first tap previews a mark: the second tap places it. */
  tapAgain: string;
}

export interface DotsBoardProps {
  view: DotsView;
  /** Points the server says are playable now (optional: derived from the view if absent). */
  legal?: ReadonlyArray<Pt> | null;
  /** Whether the person at this screen may place a mark now. */
  interactive: boolean;
  /** Whose mark a preview shows (defaults to the side to move). */
  mover?: Seat;
  /** A point the computer suggests. */
  hint?: Pt | null;
  /** A mark sent but not confirmed yet. */
  pending?: Pt | null;
  /** Touch: the first tap only shows the mark, a second tap on it places it. */
  tapPreview: boolean;
  /**
   * Show the sheet turned a quarter (a landscape sheet on a portrait phone). Left out:
   * turned when the screen is a portrait phone's and the sheet is wider than tall.
   */
  turn?: boolean;
  labels: DotsBoardLabels;
  onPlace: (p: Pt) => void;
  /** The player tried a point where no mark can go now. */
  onBlocked?: (p: Pt, why: BlockedReason) => void;
  /**
   * Letters over the columns and numbers beside the rows, as the notation names the
   * points (a1 top-left); they stay at the edges of the visible part as it moves.
   */
  coordinates?: boolean;
}

/** Screen pixels a coordinate's text is tall, and the least room between two of them. */
const COORD_PX = 10;
const COORD_ROOM_PX = 20;

/** The coordinates along the top and left edges of the view `vb` (frame units), `upp` frame units a pixel. */
function Coordinates(props: { frame: Frame; vb: ViewBox; upp: number; width: number; height: number }): VNode {
  const { frame, vb, upp, width, height } = props;
  const font = COORD_PX * upp;
  const step = Math.max(1, Math.ceil((COORD_ROOM_PX * upp) / CELL));
  const top = vb.y + font * 0.8;
  const left = vb.x + font;
  const visible = (v: number, lo: number, size: number) => v >= lo + font * 0.6 && v <= lo + size - font * 0.6;
  // Columns of the sheet run across the frame, or down it when the sheet is turned.
  const columns: [string, number, string][] = [];
  for (let x = 0; x < width; x += step) {
    const along = coord(x);
    if (visible(along, frame.turned ? vb.y : vb.x, frame.turned ? vb.h : vb.w)) columns.push([`c${x}`, along, columnName(x)]);
  }
  const rows: [string, number, string][] = [];
  for (let y = 0; y < height; y += step) {
    const along = frame.turned ? frame.sheetH - coord(y) : coord(y);
    if (visible(along, frame.turned ? vb.x : vb.y, frame.turned ? vb.w : vb.h)) rows.push([`r${y}`, along, String(y + 1)]);
  }
  const [across, down] = frame.turned ? [rows, columns] : [columns, rows];
  // A label down the side that sits on the top band's own line would read as one word with
  // the first label across the top ("a31"): that label across then gives way.
  const sideOnTopLine = down.some(([, along]) => Math.abs(along - top) < font * 0.6);
  const acrossShown = sideOnTopLine ? across.filter(([, along]) => along >= left + font * 2.2) : across;
  const texts: VNode[] = [
    ...acrossShown.map(([key, along, name]) => (
      <text key={key} class={`coord ${frame.turned ? "row" : "col"}`} x={along} y={top}>
        {name}
      </text>
    )),
    ...down.map(([key, along, name]) => (
      <text key={key} class={`coord ${frame.turned ? "col" : "row"}`} x={left} y={along}>
        {name}
      </text>
    )),
  ];
  return (
    <g class="coords" aria-hidden="true" data-testid="coordinates" font-size={font} stroke-width={3 * upp}>
      {texts}
    </g>
  );
}

let boardSerial = 0;

/** A chain of grid points as text (two areas with the same text are drawn alike). */
function outlineSig(chain: ReadonlyArray<Pt>): string {
  let sig = "";
  for (const p of chain) sig += `,${p[0]}.${p[1]}`;
  return sig;
}

/** Sheet position of a point, or of the middle of the sheet when there is none. */
function centreOf(p: Pt | null, width: number, height: number): [number, number] {
  return p ? [coord(p[0]), coord(p[1])] : [(coord(0) + coord(width - 1)) / 2, (coord(0) + coord(height - 1)) / 2];
}

const PORTRAIT_PHONE = "(orientation: portrait) and (max-width: 700px)";
/** A screen played with fingers: the sheet opens close enough for them. */
const TOUCH_SCREEN = "(pointer: coarse)";
/** Fingers need this much room between grid lines (a little over 28 px, the target). */
const FINGER_CELL_PX = 30;
/** The last mark is brought at least this close with a mouse ("go to the last move"). */
const CLOSER = 2;

/** Whether a media query matches now (follows turns of the phone and similar changes). */
function useMedia(query: string): boolean {
  const list = () => (typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia(query) : null);
  const [on, setOn] = useState(() => list()?.matches ?? false);
  useEffect(() => {
    const mq = list();
    if (!mq) return;
    const update = () => setOn(mq.matches);
    update();
    mq.addEventListener?.("change", update);
    return () => mq.removeEventListener?.("change", update);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);
  return on;
}

/** The element's width in CSS pixels, followed as the layout changes (0 until known). */
function useWidth(ref: { current: Element | null }): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setWidth(el.getBoundingClientRect().width);
    read();
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return width;
}

/** A pen dot or a pencil cross centred on (0, 0); drawn inside a translated group. */
function markShape(owner: Seat): VNode {
  return owner === 0 ? (
    <circle class="pen" r="5.2" />
  ) : (
    <path class="pencil" d="M -4.6 -4.6 L 4.6 4.6 M 4.6 -4.6 L -4.6 4.6" />
  );
}

function Mark(props: { x: number; y: number; owner: Seat; captured: boolean }): VNode {
  const { x, y, owner, captured } = props;
  return (
    <g
      class={`mark seat${owner}${captured ? " captured" : ""}`}
      transform={`translate(${coord(x)} ${coord(y)})`}
      data-mark={`${x}:${y}`}
      data-owner={owner}
      data-captured={captured ? "true" : "false"}
    >
      {markShape(owner)}
      {captured ? <path class={`strike seat${owner === 0 ? 1 : 0}`} d="M -8 3.5 L 8 -3.5" /> : null}
    </g>
  );
}

type Gesture =
  | { mode: "none" }
  | { mode: "press" | "pan"; id: number; type: string; x0: number; y0: number; vb0: ViewBox }
  | { mode: "pinch"; d0: number; f0: [number, number]; vb0: ViewBox }
  | { mode: "done" };

export function DotsBoard(props: DotsBoardProps): JSX.Element {
  const { view, interactive, hint, pending, tapPreview, labels, onPlace, onBlocked } = props;
  const { width, height } = view;
  const mover = props.mover ?? view.to_move;
  const uid = useMemo(() => `dots${++boardSerial}`, []);
  const svgRef = useRef<SVGSVGElement>(null);

  const portrait = useMedia(PORTRAIT_PHONE);
  const coarse = useMedia(TOUCH_SCREEN);
  const [touchSeen, setTouchSeen] = useState(false);
  const fingers = coarse || touchSeen;
  const turned = props.turn ?? (portrait && width > height);
  const frame = useMemo(() => frameOf(width, height, turned), [width, height, turned]);
  const frameRef = useRef(frame);
  frameRef.current = frame;
  const pxWidth = useWidth(svgRef);
  // The zoom fingers need on this sheet at this size (1: the whole sheet will do).
  const fingerZoom = fingers ? zoomForCell(frame, pxWidth, FINGER_CELL_PX) : 1;
  // The view opens that close only where fingers are the pointer (a first touch on a
  // laptop's screen must not move the sheet under the finger).
  const openZoom = coarse ? fingerZoom : 1;

  const [vb, setVb] = useState<ViewBox>(() => fullView(frame));
  // Until the player moves or zooms the sheet, the view is ours to choose (and to redo
  // when the sheet or the screen changes size).
  const chosen = useRef(false);
  const [hover, setHover] = useState<number | null>(null);
  const [preview, setPreview] = useState<number | null>(null);
  const [cursor, setCursor] = useState<Pt>(() => startCursor(view));
  const [focused, setFocused] = useState(false);
  const [lastPulse, setLastPulse] = useState(0);
  const gesture = useRef<Gesture>({ mode: "none" });
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const vbRef = useRef(vb);
  vbRef.current = vb;

  // A new sheet (or a turn of the phone) starts from the whole sheet, or on a touch screen
  // as close as fingers need, round the last mark (else the middle of the sheet).
  const lastRef = useRef(view.last_move);
  lastRef.current = view.last_move;
  useEffect(() => {
    chosen.current = false;
  }, [frame]);
  useEffect(() => {
    if (chosen.current) return;
    if (openZoom <= 1.01) {
      setVb(fullView(frame));
      return;
    }
    const [fx, fy] = toFrame(frame, ...centreOf(lastRef.current, width, height));
    setVb(viewAround(frame, openZoom, fx, fy));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frame, openZoom]);
  /** The player moved the view: keep it. */
  const choose = (next: ViewBox) => {
    chosen.current = true;
    setVb(next);
  };
  useEffect(() => {
    setCursor(startCursor(view));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [width, height]);

  const board = useMemo(() => indexBoard(view), [view]);
  const playable = useMemo(() => playablePoints(view, board, props.legal), [view, board, props.legal]);
  const pendingIx = pending ? indexOf(pending[0], pending[1], width) : null;
  const canPlace = (i: number) => interactive && pendingIx === null && playable.has(i);

  // A preview is only good for the position it was made in.
  const moveSig = `${view.move_count ?? view.marks.length}:${view.last_move ? view.last_move.join(",") : ""}`;
  useEffect(() => {
    setPreview(null);
  }, [moveSig, interactive]);

  // -- static layers ------------------------------------------------------------------

  const sheet = useMemo(() => {
    const { w, h } = sheetSize(width, height);
    let d = "";
    for (let x = 0; x < width; x++) d += `M${coord(x)} ${coord(0)}V${coord(height - 1)}`;
    for (let y = 0; y < height; y++) d += `M${coord(0)} ${coord(y)}H${coord(width - 1)}`;
    return (
      <g class="sheet" aria-hidden="true">
        <defs>
          {([0, 1] as Seat[]).map((s) => (
            <pattern
              key={s}
              id={`${uid}-hatch${s}`}
              width="6"
              height="6"
              patternUnits="userSpaceOnUse"
              patternTransform={`rotate(${s === 0 ? 45 : -45})`}
            >
              <line x1="0" y1="0" x2="0" y2="6" class={`hatch seat${s}`} />
            </pattern>
          ))}
        </defs>
        <rect class="paper" x="0" y="0" width={w} height={h} />
        <path class="grid" d={d} />
      </g>
    );
  }, [width, height, uid]);

  // What the layers draw, as text: a new position whose areas and houses are the same
  // draws neither again (their points inside, the bulk of a long game's areas, are left out).
  const housesSig = useMemo(() => view.houses.map((h) => `${h.owner}${outlineSig(h.chain)}`).join("|"), [view.houses]);
  const housesLayer = useMemo(
    () => (
      <g class="houses" aria-hidden="true">
        {view.houses.map((hs, i) => (
          <polygon key={i} class={`house seat${hs.owner}`} points={polygonPoints(hs.chain)} data-house={i} data-owner={hs.owner} />
        ))}
      </g>
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [housesSig],
  );

  const areasSig = useMemo(() => view.areas.map((a) => `${a.captor}:${a.inside.length}${outlineSig(a.chain)}`).join("|"), [view.areas]);
  const areasLayer = useMemo(
    () => (
      <g class="areas" aria-hidden="true">
        {view.areas.map((a, i) => (
          <g key={i} class={`area seat${a.captor}`} data-area={i} data-captor={a.captor} data-inside={a.inside.length}>
            <polygon class="area-fill" points={polygonPoints(a.chain)} />
            <polygon class="area-hatch" points={polygonPoints(a.chain)} fill={`url(#${uid}-hatch${a.captor})`} />
            <polygon class="area-outline" points={polygonPoints(a.chain)} data-outline={i} />
          </g>
        ))}
      </g>
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [areasSig, uid],
  );

  // Marks, one memoized group per row: a move re-renders only the rows that changed.
  const rowCache = useRef(new Map<number, { sig: string; node: VNode }>());
  const rows: VNode[] = [];
  {
    const byRow = new Map<number, Array<{ x: number; owner: Seat; captured: boolean }>>();
    for (const m of view.marks) {
      const [x, y] = m.point;
      let r = byRow.get(y);
      if (!r) byRow.set(y, (r = []));
      r.push({ x, owner: m.owner, captured: m.captured });
    }
    const cache = rowCache.current;
    for (const y of cache.keys()) if (!byRow.has(y)) cache.delete(y);
    for (const y of [...byRow.keys()].sort((a, b) => a - b)) {
      const r = byRow.get(y)!;
      r.sort((a, b) => a.x - b.x);
      const sig = r.map((m) => `${m.x}${m.owner}${m.captured ? "c" : ""}`).join(",");
      let hit = cache.get(y);
      if (!hit || hit.sig !== sig) {
        hit = {
          sig,
          node: (
            <g key={`r${y}`} class="row" data-row={y}>
              {r.map((m) => (
                <Mark key={m.x} x={m.x} y={y} owner={m.owner} captured={m.captured} />
              ))}
            </g>
          ),
        };
        cache.set(y, hit);
      }
      rows.push(hit.node);
    }
  }

  // -- input ---------------------------------------------------------------------------

  const rectOf = () => {
    const r = svgRef.current?.getBoundingClientRect();
    return r ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
  };

  const pointAt = (clientX: number, clientY: number): Pt | null => {
    const rect = rectOf();
    if (!rect) return null;
    const f = screenToSheet(clientX, clientY, rect, vbRef.current);
    if (!f) return null;
    const s = fromFrame(frame, f[0], f[1]);
    return nearestPoint(s[0], s[1], width, height);
  };

  const reasonAt = (i: number): BlockedReason => {
    const info = infoAt(board, i);
    if (info.kind === "mark") return "occupied";
    if (info.kind === "dead") return "dead";
    return "wait";
  };

  /** Place at p if possible (else say why); returns whether a mark was placed. */
  const attempt = (p: Pt): boolean => {
    const i = indexOf(p[0], p[1], width);
    if (canPlace(i)) {
      setPreview(null);
      onPlace([p[0], p[1]]);
      return true;
    }
    onBlocked?.([p[0], p[1]], reasonAt(i));
    return false;
  };

  const tap = (clientX: number, clientY: number, pointerType: string) => {
    const p = pointAt(clientX, clientY);
    if (!p) {
      setPreview(null);
      return;
    }
    setCursor(p);
    const i = indexOf(p[0], p[1], width);
    if (pointerType !== "mouse" && tapPreview && canPlace(i) && preview !== i) {
      setPreview(i);
      return;
    }
    attempt(p);
  };

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (e.pointerType === "touch" && !touchSeen) setTouchSeen(true);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    try {
      svgRef.current?.setPointerCapture?.(e.pointerId);
    } catch {
      /* not supported here */
    }
    const ps = [...pointers.current.values()];
    if (ps.length === 1) {
      gesture.current = { mode: "press", id: e.pointerId, type: e.pointerType, x0: e.clientX, y0: e.clientY, vb0: vbRef.current };
    } else if (ps.length === 2) {
      const [a, b] = ps as [{ x: number; y: number }, { x: number; y: number }];
      const rect = rectOf();
      const f0 = rect ? screenToSheet((a.x + b.x) / 2, (a.y + b.y) / 2, rect, vbRef.current) : null;
      gesture.current = f0
        ? { mode: "pinch", d0: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), f0, vb0: vbRef.current }
        : { mode: "done" };
    } else {
      gesture.current = { mode: "done" };
    }
  };

  const onPointerMove = (e: PointerEvent) => {
    const g = gesture.current;
    if (!pointers.current.has(e.pointerId)) {
      // A mouse resting over the sheet: show where the mark would go.
      if (e.pointerType === "mouse" && g.mode === "none") {
        const p = pointAt(e.clientX, e.clientY);
        const i = p ? indexOf(p[0], p[1], width) : null;
        if (i !== hover) setHover(i);
      }
      return;
    }
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const rect = rectOf();
    if (!rect) return;
    if (g.mode === "press" || g.mode === "pan") {
      const dx = e.clientX - g.x0;
      const dy = e.clientY - g.y0;
      if (g.mode === "press") {
        const slop = g.type === "mouse" ? 4 : 9;
        if (Math.hypot(dx, dy) < slop) return;
        gesture.current = { ...g, mode: "pan" };
        setHover(null);
      }
      const upp = unitsPerPixel(rect, g.vb0);
      choose(clampView({ ...g.vb0, x: g.vb0.x - dx * upp, y: g.vb0.y - dy * upp }, frame));
    } else if (g.mode === "pinch") {
      const ps = [...pointers.current.values()];
      if (ps.length < 2) return;
      const [a, b] = ps as [{ x: number; y: number }, { x: number; y: number }];
      const d = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
      const zoomed = zoomAt(g.vb0, d / g.d0, g.vb0.x, g.vb0.y, frame);
      // Keep the sheet point first under the fingers' midpoint under their midpoint now.
      const scale = Math.min(rect.width / zoomed.w, rect.height / zoomed.h);
      const ox = rect.left + (rect.width - zoomed.w * scale) / 2;
      const oy = rect.top + (rect.height - zoomed.h * scale) / 2;
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      choose(clampView({ ...zoomed, x: g.f0[0] - (mx - ox) / scale, y: g.f0[1] - (my - oy) / scale }, frame));
    }
  };

  const endPointer = (e: PointerEvent, cancelled: boolean) => {
    const g = gesture.current;
    const had = pointers.current.delete(e.pointerId);
    if (!had) return;
    if (!cancelled && g.mode === "press" && g.id === e.pointerId) tap(e.clientX, e.clientY, e.pointerType);
    if (pointers.current.size === 0) gesture.current = { mode: "none" };
    else gesture.current = { mode: "done" };
  };

  // Ctrl+wheel (and a touchpad pinch, which browsers report the same way) zooms.
  useEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const rect = rectOf();
      if (!rect) return;
      const cur = vbRef.current;
      const f = screenToSheet(e.clientX, e.clientY, rect, cur);
      if (!f) return;
      const delta = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1);
      chosen.current = true;
      setVb(zoomAt(cur, Math.exp(-delta * 0.0025), f[0], f[1], frameRef.current));
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, []);

  const framePoint = (p: Pt): [number, number] => toFrame(frame, coord(p[0]), coord(p[1]));

  const zoomBy = (factor: number, around?: Pt | null) => {
    const cur = vbRef.current;
    const [fx, fy] = around ? framePoint(around) : [cur.x + cur.w / 2, cur.y + cur.h / 2];
    let next = zoomAt(cur, factor, fx, fy, frame);
    if (around) next = revealPoint(next, fx, fy, frame);
    choose(next);
  };

  /** What the zoom buttons zoom round: the previewed mark, the keyboard cursor, or the last mark when it is in view. */
  const zoomAnchor = (): Pt | null => {
    if (preview !== null) return [preview % width, Math.floor(preview / width)];
    if (focused) return cursor;
    const last = view.last_move;
    if (last && inView(vbRef.current, ...framePoint(last))) return last;
    return null;
  };

  /** Bring the last mark to the middle of the view, close enough to see what it did. */
  const goToLast = () => {
    const last = view.last_move;
    if (!last) return;
    const zoom = Math.max(zoomOf(vbRef.current, frame), fingerZoom > 1.01 ? fingerZoom : Math.min(CLOSER, frame.zmax));
    choose(viewAround(frame, zoom, ...framePoint(last)));
    setCursor(last);
    setLastPulse((n) => n + 1);
  };

  const moveCursor = (p: Pt) => {
    setCursor(p);
    const [fx, fy] = framePoint(p);
    chosen.current = true;
    setVb((cur) => revealPoint(cur, fx, fy, frame));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const dir = arrowDirection(e.key, frame.turned);
    const handled = !!dir || ["Enter", " ", "Spacebar", "Home", "+", "=", "-", "_", "0"].includes(e.key);
    if (!handled || e.ctrlKey || e.metaKey || e.altKey) return;
    setFocused(true);
    if (dir) {
      e.preventDefault();
      moveCursor(stepPoint(cursor, dir, width, height, e.shiftKey ? 5 : 1));
    } else if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      attempt(cursor);
    } else if (e.key === "Home") {
      e.preventDefault();
      moveCursor(startCursor(view));
    } else if (e.key === "+" || e.key === "=") {
      e.preventDefault();
      zoomBy(1.5, cursor);
    } else if (e.key === "-" || e.key === "_") {
      e.preventDefault();
      zoomBy(1 / 1.5, cursor);
    } else if (e.key === "0") {
      e.preventDefault();
      choose(fullView(frame));
    }
  };

  // -- overlays --------------------------------------------------------------------------

  const cursorIx = indexOf(cursor[0], cursor[1], width);
  const cursorInfo = infoAt(board, cursorIx);
  const cursorText = labels.point(cursor, cursorInfo, canPlace(cursorIx));
  // The keyboard cursor wins over a mouse resting somewhere; a touch preview wins over both.
  const ghostIx = preview ?? (focused ? cursorIx : hover);
  const showGhost = ghostIx !== null && canPlace(ghostIx);
  const ghostPt = ghostIx !== null ? ([ghostIx % width, Math.floor(ghostIx / width)] as Pt) : null;
  const zoom = zoomOf(vb, frame);
  const zoomed = zoom > 1.01;
  const lastFrame = view.last_move ? framePoint(view.last_move) : null;
  const lastOffView = lastFrame !== null && !inView(vb, lastFrame[0], lastFrame[1], CELL / 2);
  const help = preview !== null ? labels.tapAgain : fingers ? labels.touchHelp : labels.zoomHelp;
  const style = { "--dots-aspect": String(frame.w / frame.h) } as unknown as JSX.CSSProperties;

  return (
    <div class={`dots-board-wrap${zoomed ? " is-zoomed" : ""}`} style={style}>
      <svg
        ref={svgRef}
        class={`dots-board${interactive ? " is-active" : ""}${focused ? " has-cursor" : ""}`}
        viewBox={`${vb.x} ${vb.y} ${vb.w} ${vb.h}`}
        preserveAspectRatio="xMidYMid meet"
        role="application"
        aria-label={`${labels.board}. ${cursorText}`}
        aria-describedby={`${uid}-keys`}
        tabindex={0}
        data-width={width}
        data-height={height}
        data-cell={CELL}
        data-margin={MARGIN}
        data-turned={turned ? "true" : "false"}
        data-zoom={zoom.toFixed(2)}
        data-cursor={`${cursor[0]}:${cursor[1]}`}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          let kb = true;
          try {
            kb = (e.currentTarget as Element).matches(":focus-visible");
          } catch {
            /* old browser: assume the keyboard */
          }
          setFocused(kb);
        }}
        onBlur={() => setFocused(false)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(e) => endPointer(e, false)}
        onPointerCancel={(e) => endPointer(e, true)}
        onPointerLeave={() => setHover(null)}
        onContextMenu={(e) => {
          if (gesture.current.mode !== "none") e.preventDefault();
        }}
      >
        <g transform={frameTransform(frame)}>
        {sheet}
        {housesLayer}
        {areasLayer}
        {view.last_move ? (
          <circle
            key={`${view.last_move[0]}:${view.last_move[1]}:${lastPulse}`}
            class={`last-halo seat${board.marks.get(indexOf(view.last_move[0], view.last_move[1], width))?.owner ?? 0}`}
            cx={coord(view.last_move[0])}
            cy={coord(view.last_move[1])}
            r="8.5"
            data-last={`${view.last_move[0]}:${view.last_move[1]}`}
            aria-hidden="true"
          />
        ) : null}
        <g class="marks">{rows}</g>

        {view.ungrounded && view.ungrounded.length > 0 ? (
          <g class="ungrounded" aria-hidden="true">
            {view.ungrounded.map(([x, y]) => (
              <circle key={`${x}:${y}`} cx={coord(x)} cy={coord(y)} r="8" data-ungrounded={`${x}:${y}`} />
            ))}
          </g>
        ) : null}

        {hint && !board.marks.has(indexOf(hint[0], hint[1], width)) ? (
          <circle class="hint-ring" cx={coord(hint[0])} cy={coord(hint[1])} r="8" data-hint={`${hint[0]}:${hint[1]}`} />
        ) : null}

        {pending && !board.marks.has(pendingIx!) ? (
          <g class={`mark pending seat${mover}`} transform={`translate(${coord(pending[0])} ${coord(pending[1])})`} data-pending={`${pending[0]}:${pending[1]}`}>
            {markShape(mover)}
          </g>
        ) : null}

        {showGhost && ghostPt ? (
          <g
            class={`mark ghost seat${mover}${preview !== null ? " tap-preview" : ""}`}
            transform={`translate(${coord(ghostPt[0])} ${coord(ghostPt[1])})`}
            data-preview={`${ghostPt[0]}:${ghostPt[1]}`}
            aria-hidden="true"
          >
            {preview !== null ? <circle class="preview-halo" r={CELL * 0.55} /> : null}
            {markShape(mover)}
          </g>
        ) : null}

        {focused ? (
          <rect
            class="cursor-ring"
            x={coord(cursor[0]) - CELL / 2 + 2}
            y={coord(cursor[1]) - CELL / 2 + 2}
            width={CELL - 4}
            height={CELL - 4}
            rx="4"
            aria-hidden="true"
          />
        ) : null}
        </g>
        {props.coordinates && pxWidth > 0 ? <Coordinates frame={frame} vb={vb} upp={vb.w / pxWidth} width={width} height={height} /> : null}
      </svg>

      <div class="dots-tools">
        <p class={`dots-help${preview !== null ? " tap-cue" : ""}`} aria-live="polite" data-testid="dots-help">
          {help ?? ""}
        </p>
        <div class="dots-zoom" role="group">
          <button
            type="button"
            class={`zoom-btn last-btn${lastOffView ? " off-view" : ""}`}
            aria-label={labels.lastMove}
            title={labels.lastMove}
            onClick={goToLast}
            disabled={!view.last_move}
            data-off-view={lastOffView ? "true" : "false"}
          >
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
              <circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" stroke-width="1.8" />
              <circle cx="10" cy="10" r="2.4" fill="currentColor" />
              <path d="M10 0.5v3M10 16.5v3M0.5 10h3M16.5 10h3" stroke="currentColor" stroke-width="1.8" />
            </svg>
          </button>
          <button type="button" class="zoom-btn" aria-label={labels.zoomIn} title={labels.zoomIn} onClick={() => zoomBy(1.6, zoomAnchor())} disabled={zoom >= frame.zmax - 0.01}>
            +
          </button>
          <button type="button" class="zoom-btn" aria-label={labels.zoomOut} title={labels.zoomOut} onClick={() => zoomBy(1 / 1.6, zoomAnchor())} disabled={!zoomed}>
            −
          </button>
          <button type="button" class="zoom-btn" aria-label={labels.zoomFit} title={labels.zoomFit} onClick={() => choose(fullView(frame))} disabled={!zoomed}>
            ⤢
          </button>
        </div>
      </div>

      <p class="sr-only" id={`${uid}-keys`}>
        {labels.keys}
      </p>
      <p class="sr-only" aria-live="polite" data-testid="dots-last">
        {view.last_move ? labels.point(view.last_move, infoAt(board, indexOf(view.last_move[0], view.last_move[1], width)), false) : ""}
      </p>
      <p class="sr-only" aria-live="polite" data-testid="dots-cursor">
        {focused ? cursorText : ""}
      </p>
    </div>
  );
}
