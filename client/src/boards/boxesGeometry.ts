// Geometry of a Dots and Boxes board: pure functions, no DOM, no network.
//
// Coordinates follow the wire protocol (docs/api.md): dots are (x, y) with x in 0..cols and y in
// 0..rows, (0, 0) top-left; a line joins two adjacent dots. Inside the client a line
// also has a short key, "h:x:y" for (x, y)-(x+1, y) and "v:x:y" for (x, y)-(x, y+1).

export type Dot = readonly [number, number];
export type Line = readonly [Dot, Dot];
export type Seat = 0 | 1;

export interface LineId {
  readonly kind: "h" | "v";
  readonly x: number;
  readonly y: number;
}

/** The line with its two ends in a canonical order (top-left end first), or null if not a line. */
export function normalize(line: Line): Line | null {
  const [[x1, y1], [x2, y2]] = line;
  const dx = Math.abs(x1 - x2);
  const dy = Math.abs(y1 - y2);
  if (dx + dy !== 1) return null;
  if (x1 < x2 || y1 < y2) return [[x1, y1], [x2, y2]];
  return [[x2, y2], [x1, y1]];
}

export function lineId(line: Line): LineId | null {
  const n = normalize(line);
  if (!n) return null;
  const [[x1, y1], [x2]] = n;
  return { kind: x2 !== x1 ? "h" : "v", x: x1, y: y1 };
}

export function lineKey(line: Line): string {
  const id = lineId(line);
  return id ? `${id.kind}:${id.x}:${id.y}` : "";
}

export function idKey(id: LineId): string {
  return `${id.kind}:${id.x}:${id.y}`;
}

export function idToLine(id: LineId): Line {
  return id.kind === "h"
    ? [
        [id.x, id.y],
        [id.x + 1, id.y],
      ]
    : [
        [id.x, id.y],
        [id.x, id.y + 1],
      ];
}

export function parseKey(key: string): LineId | null {
  const m = /^([hv]):(\d+):(\d+)$/.exec(key);
  if (!m) return null;
  return { kind: m[1] as "h" | "v", x: Number(m[2]), y: Number(m[3]) };
}

export function inBoard(id: LineId, rows: number, cols: number): boolean {
  if (id.x < 0 || id.y < 0) return false;
  return id.kind === "h" ? id.x < cols && id.y <= rows : id.x <= cols && id.y < rows;
}

/** Every line of a rows×cols board, row by row: the horizontal row y, then the verticals below it. */
export function allLines(rows: number, cols: number): LineId[] {
  const out: LineId[] = [];
  for (let y = 0; y <= rows; y++) {
    for (let x = 0; x < cols; x++) out.push({ kind: "h", x, y });
    if (y < rows) for (let x = 0; x <= cols; x++) out.push({ kind: "v", x, y });
  }
  return out;
}

/**
 * Centre of a line in doubled coordinates: horizontal lines sit on even rows and odd
 * columns, vertical lines on odd rows and even columns.
 */
function doubled(id: LineId): [number, number] {
  return id.kind === "h" ? [2 * id.x + 1, 2 * id.y] : [2 * id.x, 2 * id.y + 1];
}

function fromDoubled(cx: number, cy: number): LineId | null {
  if (cy % 2 === 0 && cx % 2 === 1) return { kind: "h", x: (cx - 1) / 2, y: cy / 2 };
  if (cy % 2 === 1 && cx % 2 === 0) return { kind: "v", x: cx / 2, y: (cy - 1) / 2 };
  return null;
}

export type Direction = "up" | "down" | "left" | "right";

/**
 * The line the keyboard selection moves to. Left and right stay in the same row of
 * lines; up and down step to the next row of lines, alternating between horizontal and
 * vertical rows, so that every line can be reached. At the edge the selection stays.
 */
export function step(id: LineId, dir: Direction, rows: number, cols: number): LineId {
  const [cx, cy] = doubled(id);
  const maxX = 2 * cols;
  const maxY = 2 * rows;
  let cand: Array<[number, number]> = [];
  if (dir === "left") cand = [[cx - 2, cy]];
  else if (dir === "right") cand = [[cx + 2, cy]];
  else {
    const ny = dir === "up" ? cy - 1 : cy + 1;
    // From a horizontal line go to the vertical at its left end (else its right end);
    // from a vertical line go to the horizontal on its right (else on its left).
    cand =
      id.kind === "h"
        ? [
            [cx - 1, ny],
            [cx + 1, ny],
          ]
        : [
            [cx + 1, ny],
            [cx - 1, ny],
          ];
  }
  for (const [x, y] of cand) {
    if (x < 0 || y < 0 || x > maxX || y > maxY) continue;
    const next = fromDoubled(x, y);
    if (next && inBoard(next, rows, cols)) return next;
  }
  return id;
}
