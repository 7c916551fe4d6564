// A variation: the best line the analysis gives after a judged move, played on the board
// from the position before that move, to step through and leave again. Pure functions:
// the positions are the game's own position brought forward with the room model, each
// move turned into the event the server would have sent (Dots and Boxes: which boxes the
// line closed, and who moves next).
import { applyEvent } from "../net/roomModel";
import type { EventMessage, Move, RoomState, Seat } from "../net/types";
import type { AnalysedPosition } from "./types";
import type { StepKey } from "./model";

export interface Variation {
  /** The game's ply the variation starts from (the position before the judged move). */
  from: number;
  /** The move that was played there (the one the variation replaces). */
  played: Move | null;
  /** The variation's moves: the best move, then the best play after it. */
  moves: Move[];
  /** `positions[k]`: the board after the first k moves of the variation (0: the game's). */
  positions: RoomState[];
  /** How many of the variation's moves the board shows (0 to moves.length). */
  step: number;
}

/** The variation of an analysed position's best line, showing its first move; null when
 * the position has no line, or the line cannot be played on the board here (a Dots line
 * needs the server's capture rules). */
export function enterVariation(start: RoomState, position: AnalysedPosition): Variation | null {
  const moves = position.line ?? [];
  if (moves.length === 0 || start.game !== "boxes") return null;
  const positions: RoomState[] = [start];
  for (const move of moves) {
    const next = playLine(positions[positions.length - 1]!, move);
    if (!next) break; // a line the position does not allow: show the part that plays
    positions.push(next);
  }
  if (positions.length === 1) return null;
  return { from: position.ply, played: position.played ?? null, moves: moves.slice(0, positions.length - 1), positions, step: 1 };
}

/** The variation after a step key (Home, ←, →, End), kept within its moves. */
export function stepVariation(v: Variation, key: StepKey): Variation {
  const last = v.moves.length;
  const step = key === "first" ? 0 : key === "last" ? last : key === "prev" ? Math.max(0, v.step - 1) : Math.min(last, v.step + 1);
  return step === v.step ? v : { ...v, step };
}

/** The variation showing the position after its first `step` moves. */
export function variationAt(v: Variation, step: number): Variation {
  return { ...v, step: Math.max(0, Math.min(v.moves.length, Math.trunc(step))) };
}

type Box = [number, number];

/** The Dots and Boxes position after drawing `move`: null when it is not a free line. */
export function playLine(state: RoomState, move: Move): RoomState | null {
  if (state.game !== "boxes" || !("line" in move) || state.is_over) return null;
  const board = state.board;
  const key = lineKey(move.line);
  if (!board.legal_moves.some((l) => lineKey(l) === key)) return null;
  const drawn = new Set(board.lines.map((l) => lineKey(l.line)));
  drawn.add(key);
  const closed = boxesBeside(move.line, board.rows, board.cols).filter((b) => boxLines(b).every((k) => drawn.has(k)));
  const seat = state.to_move;
  const scores: [number, number] = [state.scores[0], state.scores[1]];
  scores[seat] += closed.length;
  const over = board.boxes.length + closed.length === board.rows * board.cols;
  const toMove: Seat = closed.length > 0 ? seat : seat === 0 ? 1 : 0;
  const winner = scores[0] === scores[1] ? null : scores[0] > scores[1] ? 0 : 1;
  const msg: EventMessage = {
    protocol: 3,
    type: "event",
    room: state.id,
    version: state.version + 1,
    event: { kind: "move", seat, move: { line: move.line }, closed },
    status: { to_move: toMove, scores, thinking: false, outcome: over ? { winner, reason: "board_full" } : null },
  };
  return applyEvent(state, msg);
}

type Pt = readonly [number, number];

/** A line's key whichever way its ends are written. */
function lineKey(line: readonly [Pt, Pt]): string {
  const [a, b] = line;
  const first = a[1] < b[1] || (a[1] === b[1] && a[0] < b[0]) ? [a, b] : [b, a];
  return `${first[0]![0]},${first[0]![1]}-${first[1]![0]},${first[1]![1]}`;
}

/** The one or two boxes a line borders. */
function boxesBeside(line: readonly [Pt, Pt], rows: number, cols: number): Box[] {
  const [[x1, y1], [x2, y2]] = line;
  const [x, y] = [Math.min(x1, x2), Math.min(y1, y2)];
  const beside: Box[] = y1 === y2 ? [[x, y - 1], [x, y]] : [[x - 1, y], [x, y]];
  return beside.filter(([bx, by]) => bx >= 0 && by >= 0 && bx < cols && by < rows);
}

/** The four lines around a box. */
function boxLines([x, y]: Box): string[] {
  return [
    lineKey([[x, y], [x + 1, y]]),
    lineKey([[x, y + 1], [x + 1, y + 1]]),
    lineKey([[x, y], [x, y + 1]]),
    lineKey([[x + 1, y], [x + 1, y + 1]]),
  ];
}
