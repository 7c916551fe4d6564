// The Dots and Boxes board: a pure SVG component. Position and legal lines come in,
// the player's intent ("draw this line") goes out. It knows nothing about rooms,
// seats or the network; the caller decides what the intent means.
import { useMemo, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import {
  allLines,
  idKey,
  idToLine,
  lineKey,
  parseKey,
  step,
  type Direction,
  type Line,
  type LineId,
  type Seat,
} from "./boxesGeometry";
import { columnName } from "../notation";

/** The position as the server's rules describe it (core `BoxesState.view()`). */
export interface BoxesView {
  rows: number;
  cols: number;
  lines: ReadonlyArray<{ line: Line; player: Seat | null }>;
  boxes: ReadonlyArray<{ box: readonly [number, number]; owner: Seat }>;
  last_move: Line | null;
  to_move: Seat;
  scores: readonly [number, number] | readonly number[];
  legal_moves: ReadonlyArray<Line>;
}

export type LineState = "free" | "drawn" | "blocked";

export interface BoxesBoardLabels {
  /** Accessible name of the whole board. */
  board: string;
  /** Accessible name of one line: its ends and whether it can be drawn. */
  line: (line: Line, state: LineState) => string;
}

export interface BoxesBoardProps {
  view: BoxesView;
  /** Whether the person at this screen may draw now. */
  interactive: boolean;
  /** Whose colour the preview takes (defaults to the side to move). */
  mover?: Seat;
  /** A line the computer suggests. */
  hint?: Line | null;
  /** A line sent but not confirmed yet. */
  pending?: Line | null;
  /** Text in a claimed box: a letter or a seat number. */
  boxLabel: (owner: Seat) => string;
  labels: BoxesBoardLabels;
  onDraw: (line: Line) => void;
  /** The player tried a line that cannot be drawn now. */
  onBlocked?: (line: Line, why: "drawn" | "wait") => void;
  /** Letters over the columns of dots and numbers beside the rows, as the notation names them (a1 top-left). */
  coordinates?: boolean;
  /** A short note drawn on undrawn lines (the review: what each line costs), by line key;
   * `best` lines are marked. The notes are for the eye: the page says the same in words. */
  lineNotes?: ReadonlyMap<string, { text: string; best: boolean }>;
}

const S = 64; // one box
const M = 30; // margin around the dots
const HALF = S / 2;

const px = (x: number) => M + x * S;

function hitPolygon(id: LineId): string {
  const { x, y } = id;
  const pts: Array<[number, number]> =
    id.kind === "h"
      ? [
          [px(x), px(y)],
          [px(x) + HALF, px(y) - HALF],
          [px(x + 1), px(y)],
          [px(x) + HALF, px(y) + HALF],
        ]
      : [
          [px(x), px(y)],
          [px(x) + HALF, px(y) + HALF],
          [px(x), px(y + 1)],
          [px(x) - HALF, px(y) + HALF],
        ];
  return pts.map(([a, b]) => `${a},${b}`).join(" ");
}

/** Whether focus came from the keyboard (a mouse click should not draw the focus ring). */
function focusVisible(el: Element): boolean {
  try {
    return el.matches(":focus-visible");
  } catch {
    return true;
  }
}

function ends(id: LineId) {
  const [[x1, y1], [x2, y2]] = idToLine(id);
  return { x1: px(x1), y1: px(y1), x2: px(x2), y2: px(y2) };
}

export function BoxesBoard(props: BoxesBoardProps): JSX.Element {
  const { view, interactive, hint, pending, boxLabel, labels, onDraw, onBlocked } = props;
  const { rows, cols } = view;
  const mover = props.mover ?? view.to_move;
  const svgRef = useRef<SVGSVGElement>(null);
  const [hover, setHover] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);

  const lines = useMemo(() => allLines(rows, cols), [rows, cols]);
  const drawn = useMemo(() => {
    const m = new Map<string, Seat | null>();
    for (const l of view.lines) m.set(lineKey(l.line), l.player);
    return m;
  }, [view.lines]);
  const legal = useMemo(() => new Set(view.legal_moves.map(lineKey)), [view.legal_moves]);
  const lastKey = view.last_move ? lineKey(view.last_move) : null;
  const hintKey = hint ? lineKey(hint) : null;
  const pendingKey = pending ? lineKey(pending) : null;

  // The line that holds the tab stop: the selection if still on the board, else the
  // first free line, else the first line.
  const firstFree = lines.find((l) => legal.has(idKey(l))) ?? lines[0];
  const selectedValid = selected !== null && parseKey(selected) !== null && lines.some((l) => idKey(l) === selected);
  const tabKey = selectedValid ? selected : firstFree ? idKey(firstFree) : null;

  const canDraw = (key: string) => interactive && legal.has(key) && key !== pendingKey;

  const stateOf = (key: string): LineState =>
    drawn.has(key) || key === pendingKey ? "drawn" : canDraw(key) ? "free" : "blocked";

  const attempt = (key: string) => {
    const id = parseKey(key);
    if (!id) return;
    const line = idToLine(id);
    if (canDraw(key)) {
      onDraw(line);
    } else if (onBlocked) {
      onBlocked(line, drawn.has(key) || key === pendingKey ? "drawn" : "wait");
    }
  };

  const focusKey = (key: string) => {
    setSelected(key);
    const el = svgRef.current?.querySelector<SVGElement>(`[data-line="${key}"]`);
    el?.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const cur = tabKey ? parseKey(tabKey) : null;
    if (!cur) return;
    const dirs: Record<string, Direction> = {
      ArrowUp: "up",
      ArrowDown: "down",
      ArrowLeft: "left",
      ArrowRight: "right",
    };
    const dir = dirs[e.key];
    if (dir) {
      e.preventDefault();
      focusKey(idKey(step(cur, dir, rows, cols)));
    } else if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      attempt(idKey(cur));
    } else if (e.key === "Home" && firstFree) {
      e.preventDefault();
      focusKey(idKey(firstFree));
    }
  };

  const width = cols * S + 2 * M;
  const height = rows * S + 2 * M;
  // The keyboard selection wins over a pointer resting somewhere on the board.
  const previewKey = focused ? tabKey : hover;
  const showPreview = previewKey !== null && canDraw(previewKey);

  return (
    <svg
      ref={svgRef}
      class={`board boxes-board${interactive ? " is-active" : ""}`}
      viewBox={`0 0 ${width} ${height}`}
      style={{ "--aspect": String(width / height) }}
      role="group"
      aria-label={labels.board}
      data-rows={rows}
      data-cols={cols}
      onKeyDown={onKeyDown}
      onPointerLeave={() => setHover(null)}
    >
      <defs>
        <pattern id="bx-paper" width={HALF} height={HALF} patternUnits="userSpaceOnUse" x={M} y={M}>
          <path d={`M ${HALF} 0 L 0 0 0 ${HALF}`} class="paper-grid" />
        </pattern>
        <pattern id="bx-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <line x1="0" y1="0" x2="0" y2="8" class="hatch" />
        </pattern>
      </defs>
      <rect x="0" y="0" width={width} height={height} class="paper" />
      <rect x="0" y="0" width={width} height={height} fill="url(#bx-paper)" />
      {props.coordinates ? (
        <g class="coords" aria-hidden="true" data-testid="coordinates">
          {Array.from({ length: cols + 1 }, (_, x) => (
            <text key={`c${x}`} x={px(x)} y={M / 2} class="coord col">
              {columnName(x)}
            </text>
          ))}
          {Array.from({ length: rows + 1 }, (_, y) => (
            <text key={`r${y}`} x={M / 2} y={px(y)} class="coord row">
              {y + 1}
            </text>
          ))}
        </g>
      ) : null}

      {view.boxes.map(({ box: [bx, by], owner }) => (
        <g key={`b${bx}:${by}`} class={`box seat${owner}`} data-box={`${bx}:${by}`} data-owner={owner}>
          <rect x={px(bx) + 3} y={px(by) + 3} width={S - 6} height={S - 6} rx="4" />
          {owner === 1 ? (
            <rect x={px(bx) + 3} y={px(by) + 3} width={S - 6} height={S - 6} rx="4" fill="url(#bx-hatch)" />
          ) : null}
          <text x={px(bx) + HALF} y={px(by) + HALF} dominant-baseline="central" text-anchor="middle" aria-hidden="true">
            {boxLabel(owner)}
          </text>
        </g>
      ))}

      {hintKey && !drawn.has(hintKey) ? (
        <line {...ends(parseKey(hintKey)!)} class="hint-line" data-hint={hintKey} />
      ) : null}

      {view.lines.map(({ line, player }) => {
        const key = lineKey(line);
        const id = parseKey(key);
        if (!id) return null;
        const cls = `${player === null ? "start" : `seat${player}`}${key === lastKey ? " last" : ""}`;
        // The second seat's lines carry a light stripe down the middle: who drew a line
        // shows without telling gold from coral.
        return (
          <g key={`l${key}`} class={`drawn-line ${cls}`}>
            <line {...ends(id)} class={`drawn ${cls}`} data-drawn={key} data-player={player ?? "start"} />
            {player === 1 ? <line {...ends(id)} class="stripe" /> : null}
          </g>
        );
      })}

      {pendingKey && !drawn.has(pendingKey) ? (
        <line {...ends(parseKey(pendingKey)!)} class={`drawn pending seat${mover}`} />
      ) : null}

      {showPreview ? <line {...ends(parseKey(previewKey)!)} class={`preview seat${mover}`} data-preview={previewKey} /> : null}

      {focused && tabKey ? (
        (() => {
          const e = ends(parseKey(tabKey)!);
          const pad = 10;
          return (
            <rect
              class="select-ring"
              x={Math.min(e.x1, e.x2) - pad}
              y={Math.min(e.y1, e.y2) - pad}
              width={Math.abs(e.x2 - e.x1) + 2 * pad}
              height={Math.abs(e.y2 - e.y1) + 2 * pad}
              rx="8"
            />
          );
        })()
      ) : null}

      {Array.from({ length: rows + 1 }, (_, y) =>
        Array.from({ length: cols + 1 }, (_, x) => <circle key={`d${x}:${y}`} class="dot" cx={px(x)} cy={px(y)} r="5" />),
      )}

      {props.lineNotes ? (
        <g class="line-notes" aria-hidden="true" data-testid="line-notes">
          {[...props.lineNotes].map(([key, note]) => {
            const id = parseKey(key);
            if (!id || drawn.has(key)) return null;
            const e = ends(id);
            const [cx, cy] = [(e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2];
            return (
              <g key={`n${key}`} class={`line-note${note.best ? " best" : ""}`} data-note={key}>
                <rect x={cx - 13} y={cy - 10} width="26" height="20" rx="10" />
                <text x={cx} y={cy} dominant-baseline="central" text-anchor="middle">
                  {note.text}
                </text>
              </g>
            );
          })}
        </g>
      ) : null}

      {lastKey
        ? (() => {
            const e = ends(parseKey(lastKey)!);
            return (
              <circle key={lastKey} class="last-mark" cx={(e.x1 + e.x2) / 2} cy={(e.y1 + e.y2) / 2} r="5.5" data-last={lastKey} />
            );
          })()
        : null}

      {lines.map((id) => {
        const key = idKey(id);
        const state = stateOf(key);
        return (
          <polygon
            key={`h${key}`}
            class={`hit ${state}`}
            points={hitPolygon(id)}
            data-line={key}
            role="button"
            tabindex={key === tabKey ? 0 : -1}
            aria-label={labels.line(idToLine(id), state)}
            aria-disabled={state !== "free"}
            onPointerEnter={() => setHover(key)}
            onPointerDown={() => setHover(key)}
            onClick={() => {
              setSelected(key);
              attempt(key);
            }}
            onFocus={(e) => {
              setSelected(key);
              setFocused(focusVisible(e.currentTarget));
            }}
            onBlur={() => setFocused(false)}
          />
        );
      })}
    </svg>
  );
}
