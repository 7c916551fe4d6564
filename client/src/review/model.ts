// A reviewed game as positions: the start board brought forward move by move with the
// room model (the same code that applies live move events), so a review draws exactly what
// play drew. Pure functions: the review screen picks a ply and reads the result.
import { applyEvent, fromSnapshot } from "../net/roomModel";
import { lineKey } from "../boards/boxesGeometry";
import type { EventMessage, RoomState, Seat, ServerSnapshot } from "../net/types";
import type { Analysis, AnalysedPosition, Review, ReviewMove } from "./types";

const SEATS: ServerSnapshot["seats"] = [
  { seat: 0, kind: "human", taken: true, connected: false, colour: "gold" },
  { seat: 1, kind: "human", taken: true, connected: false, colour: "coral" },
];

/** Who moves after `ply` moves. */
function toMoveAt(review: Review, ply: number): Seat {
  if (ply === 0) return review.moves[0]?.seat ?? 0;
  return review.moves[ply - 1]!.to_move;
}

/** The positions of a game, read by ply: `at(k)` is the board after k moves. */
export interface ReviewPositions {
  at(ply: number): RoomState;
}

/** The positions of a reviewed game. A Dots and Boxes game is small: every position is
 * brought forward move by move at once. A Dots game may have thousands of moves on a
 * 60×60 sheet, too many positions to build and hold: each is made when asked for, straight
 * from a table of when each area and house came and went (no replay from the start), and
 * the last few asked for are kept so that stepping back and forth reuses them. */
export function reviewPositions(review: Review): ReviewPositions {
  if (review.game !== "dots") {
    const all = buildPositions(review);
    return { at: (ply) => all[clampPly(ply, review)]! };
  }
  const lives = dotsLives(review);
  const kept = new Map<number, RoomState>();
  return {
    at(asked) {
      const ply = clampPly(asked, review);
      let state = kept.get(ply);
      if (state) kept.delete(ply);
      else state = dotsPositionAt(review, lives, ply);
      kept.set(ply, state); // the most recently used last
      if (kept.size > KEPT_POSITIONS) kept.delete(kept.keys().next().value!);
      return state;
    },
  };
}

/** Dots positions a review keeps at hand (the ones just stepped through). */
const KEPT_POSITIONS = 8;

type AreaWire = Extract<Review["start"], { game: "dots" }>["areas"][number];
type HouseWire = Extract<Review["start"], { game: "dots" }>["houses"][number];

/** An area or a house of a Dots game and the plies it stood on the board: from `from`
 * (the position after that many moves) up to, not including, `to`. */
interface Life<T> {
  item: T;
  from: number;
  to: number;
}

interface DotsLives {
  areas: Life<AreaWire>[];
  houses: Life<HouseWire>[];
}

/** When each area and house of a Dots game appeared and went (a capture inside a house
 * removes the house; a larger capture swallows an area), in the order the room model
 * lists them: those standing from the start, then as the moves added them. */
function dotsLives(review: Review): DotsLives {
  const start = review.start;
  if (start.game !== "dots") throw new Error("not a Dots review");
  const end = review.moves.length + 1;
  const areas: Life<AreaWire>[] = start.areas.map((item) => ({ item, from: 0, to: end }));
  const houses: Life<HouseWire>[] = start.houses.map((item) => ({ item, from: 0, to: end }));
  const areaAt = new Map<string, Life<AreaWire>>(areas.map((l) => [`${l.item.key[0]},${l.item.key[1]}`, l]));
  const houseAt = new Map<string, Life<HouseWire>>(houses.map((l) => [`${l.item.key[0]},${l.item.key[1]},${l.item.owner}`, l]));
  review.moves.forEach((m, i) => {
    const ev = m.change;
    if (ev.kind !== "move") return;
    const ply = i + 1;
    for (const [x, y] of ev.areas_removed ?? []) {
      const life = areaAt.get(`${x},${y}`);
      if (life && life.to === end) life.to = ply;
    }
    for (const [x, y, owner] of ev.houses_removed ?? []) {
      const life = houseAt.get(`${x},${y},${owner}`);
      if (life && life.to === end) life.to = ply;
    }
    for (const item of ev.captures ?? []) {
      const life = { item, from: ply, to: end };
      areas.push(life);
      areaAt.set(`${item.key[0]},${item.key[1]}`, life);
    }
    for (const item of ev.houses_added ?? []) {
      const life = { item, from: ply, to: end };
      houses.push(life);
      houseAt.set(`${item.key[0]},${item.key[1]},${item.owner}`, life);
    }
  });
  return { areas, houses };
}

/** The Dots position after `ply` moves, read by the room model from the board as the
 * server would send it then (the same code draws a room joined mid-game). */
function dotsPositionAt(review: Review, lives: DotsLives, ply: number): RoomState {
  const start = review.start;
  if (start.game !== "dots") throw new Error("not a Dots review");
  const n = review.moves.length;
  const standing = <T>(all: readonly Life<T>[]) => all.filter((l) => l.from <= ply && ply < l.to).map((l) => l.item);
  const marks = [...start.marks];
  for (let i = 0; i < ply; i++) {
    const m = review.moves[i]!;
    const ev = m.change;
    if (ev.kind === "move" && "point" in ev.move) marks.push([ev.move.point[0], ev.move.point[1], m.seat]);
  }
  const played = review.moves[ply - 1]?.change;
  const board: Review["start"] =
    ply === n
      ? review.final
      : {
          ...start,
          marks,
          areas: standing(lives.areas),
          houses: standing(lives.houses),
          last_move: played?.kind === "move" && "point" in played.move ? { point: played.move.point } : start.last_move,
        };
  const over = ply === n && review.result;
  const scores: [number, number] = ply === 0 ? startScoresOf(review) : [review.moves[ply - 1]!.scores[0], review.moves[ply - 1]!.scores[1]];
  const snap = reviewSnapshot(review.id ?? "review", board, toMoveAt(review, ply), scores, ply);
  return fromSnapshot(over ? { ...snap, status: { ...snap.status, outcome: { winner: review.result!.winner, reason: review.result!.reason } } } : snap);
}

/** A room holding `board`, as a review shows it: two people's seats, nobody connected,
 * `moves` moves made, `toMove` to move with `scores`. */
export function reviewSnapshot(id: string, board: ServerSnapshot["board"], toMove: Seat, scores: [number, number], moves = 0): ServerSnapshot {
  return {
    id,
    game: board.game,
    mode: "local",
    version: moves,
    game_number: 1,
    level: null,
    daily: null,
    computer_seat: null,
    seats: SEATS,
    spectators: 0,
    requests: [],
    move_count: moves,
    status: { to_move: toMove, scores, outcome: null, thinking: false },
    board,
    expires_in_seconds: null,
  };
}

/** Every position of the game: `positions[k]` is the board after k moves. The last one is
 * the server's `final` board (a Dots game lost by grounding also shows the lost marks). */
export function buildPositions(review: Review): RoomState[] {
  const snap = reviewSnapshot(review.id ?? "review", review.start, toMoveAt(review, 0), startScoresOf(review));
  const positions = [fromSnapshot(snap)];
  review.moves.forEach((m, i) => {
    const last = i === review.moves.length - 1;
    const msg: EventMessage = {
      protocol: 3,
      type: "event",
      room: snap.id,
      version: i + 1,
      event: m.change,
      status: {
        to_move: toMoveAt(review, i + 1),
        scores: [m.scores[0], m.scores[1]],
        thinking: false,
        outcome: last && review.result ? { winner: review.result.winner, reason: review.result.reason } : null,
      },
    };
    positions.push(applyEvent(positions[i]!, msg));
  });
  const n = review.moves.length;
  const end = positions[n]!;
  const outcome = review.result ? { winner: review.result.winner, reason: review.result.reason } : null;
  positions[n] = fromSnapshot({
    ...snap,
    version: n,
    move_count: n,
    board: review.final,
    status: { to_move: end.to_move, scores: [end.scores[0], end.scores[1]], thinking: false, outcome },
  });
  return positions;
}

function startScoresOf(review: Review): [number, number] {
  if (review.start.game === "boxes") {
    const s: [number, number] = [0, 0];
    for (const b of review.start.boxes) s[b.owner] += 1;
    return s;
  }
  return [0, 0];
}

/** A ply kept inside the game: 0 (the start) to the number of moves. */
export function clampPly(ply: number, review: Pick<Review, "moves">): number {
  if (!Number.isFinite(ply)) return 0;
  return Math.max(0, Math.min(review.moves.length, Math.trunc(ply)));
}

export type StepKey = "first" | "prev" | "next" | "last";

/** The ply a navigation key leads to (Home, ←, →, End). */
export function stepTo(key: StepKey, ply: number, review: Pick<Review, "moves">): number {
  switch (key) {
    case "first":
      return 0;
    case "prev":
      return clampPly(ply - 1, review);
    case "next":
      return clampPly(ply + 1, review);
    case "last":
      return review.moves.length;
  }
}

/** The keyboard keys that step through a review (up and down still scroll the page). */
export const STEP_KEYS: Record<string, StepKey> = {
  ArrowLeft: "prev",
  ArrowRight: "next",
  Home: "first",
  End: "last",
};

/** The ply from a URL fragment such as "#12" (the position after 12 moves). */
export function plyFromHash(hash: string, review: Pick<Review, "moves">): number | null {
  const m = /^#?(\d+)$/.exec(hash);
  return m ? clampPly(Number(m[1]), review) : null;
}

/** The moves a player made in a row (Dots and Boxes: a turn is every move until one does not close a box). */
export interface Turn {
  number: number;
  player: Seat;
  /** Index of each move of the turn in the game. */
  moves: number[];
}

/** The moves grouped in turns, so the list reads like a scoresheet. */
export function turnsOf(moves: readonly ReviewMove[]): Turn[] {
  const turns: Turn[] = [];
  moves.forEach((m, i) => {
    const cur = turns[turns.length - 1];
    if (cur && cur.player === m.seat) cur.moves.push(i);
    else turns.push({ number: turns.length + 1, player: m.seat, moves: [i] });
  });
  return turns;
}

/** A move that loses boxes against perfect play: its index and how many it loses. */
export interface Mistake {
  index: number;
  loss: number;
}

/** The analysed position after `ply` moves, if the analysis reached it. */
export function positionAt(analysis: Analysis | null, ply: number): AnalysedPosition | null {
  return analysis?.positions.find((p) => p.ply === ply) ?? null;
}

/** The boxes of the final score the move played from `p` gave away (null: not judged). */
export function costOf(p: AnalysedPosition): number | null {
  if (p.cost !== undefined && p.cost !== null) return p.cost;
  return p.loss === null ? null : Math.floor(p.loss / 2); // analyses kept from before `cost`
}

/** The judged moves of a game that gave boxes away, in move order, with how many boxes of
 * the final score (`loss`). */
export function mistakesOf(analysis: Analysis | null): Mistake[] {
  if (!analysis) return [];
  const out: Mistake[] = [];
  for (const p of analysis.positions) {
    const cost = costOf(p);
    if (p.mistake === true && cost !== null && cost > 0) out.push({ index: p.ply, loss: cost });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** How many of the analysed positions' moves were judged (exact), of how many analysed. */
export function judgedOf(analysis: Analysis | null): { judged: number; analysed: number } {
  const positions = analysis?.positions ?? [];
  return { judged: positions.filter((p) => costOf(p) !== null).length, analysed: positions.length };
}

/** One point of the evaluation graph: after `ply` moves, gold's expected lead in boxes. */
export interface EvalPoint {
  ply: number;
  value: number;
  exact: boolean;
}

/** The evaluation over the game, from gold's side (positive: gold ahead at the end). */
export function evalSeries(analysis: Analysis | null): EvalPoint[] {
  if (!analysis) return [];
  const pts: EvalPoint[] = [];
  for (const p of analysis.positions) if (typeof p.margin === "number") pts.push({ ply: p.ply, value: p.margin, exact: p.exact });
  return pts.sort((a, b) => a.ply - b.ply);
}

/** Where a ply and a value go in a width × height graph: zero across the middle, the
 * largest lead just inside the edge. */
export function evalScale(points: readonly EvalPoint[], plies: number, width: number, height: number) {
  const top = Math.max(1, ...points.map((p) => Math.abs(p.value)));
  return {
    x: (ply: number) => (plies <= 0 ? 0 : (ply / plies) * width),
    y: (v: number) => height / 2 - (v / top) * (height / 2 - EDGE),
  };
}

/** Room kept between the largest lead and the graph's edge. */
const EDGE = 4;

/** The SVG path of an evaluation series in a width × height box, zero in the middle;
 * with `exact` given, only the segments whose both ends are (true) or are not (false)
 * exact, so that estimates can be drawn apart from exact values. */
export function evalPath(points: readonly EvalPoint[], plies: number, width: number, height: number, exact?: boolean): string {
  if (points.length === 0) return "";
  const { x, y } = evalScale(points, plies, width, height);
  const at = (p: EvalPoint) => `${round(x(p.ply))} ${round(y(p.value))}`;
  if (exact === undefined) return points.map((p, i) => `${i === 0 ? "M" : "L"}${at(p)}`).join(" ");
  const parts: string[] = [];
  let open = false;
  points.forEach((p, i) => {
    const prev = points[i - 1];
    // a segment between an estimate and an exact value is drawn as an estimate
    const wanted = prev !== undefined && (prev.exact && p.exact) === exact;
    if (wanted && !open) parts.push(`M${at(prev)}`);
    if (wanted) parts.push(`L${at(p)}`);
    open = wanted;
  });
  return parts.join(" ");
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The largest swing of the evaluation, for a text summary of the graph. */
export function evalSummary(points: readonly EvalPoint[]): { first: number; last: number; min: EvalPoint; max: EvalPoint } | null {
  if (points.length === 0) return null;
  let min = points[0]!;
  let max = points[0]!;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  return { first: points[0]!.value, last: points[points.length - 1]!.value, min, max };
}

/** Dots: which move captured what, in order (the capture timeline). */
export interface CaptureEntry {
  index: number;
  player: Seat;
  move: string;
  /** Marks of the other player inside the new areas. */
  taken: number;
  areas: number;
}

export function captureTimeline(review: Review): CaptureEntry[] {
  if (review.game !== "dots" || review.start.game !== "dots") return [];
  const out: CaptureEntry[] = [];
  // who holds each point so far (marks never move): the marks a capture takes are there
  const owner = new Map<string, Seat>(review.start.marks.map(([x, y, o]) => [`${x},${y}`, o]));
  review.moves.forEach((m, i) => {
    const ev = m.change;
    if (ev.kind !== "move") return;
    if ("point" in ev.move) owner.set(`${ev.move.point[0]},${ev.move.point[1]}`, m.seat);
    const caps = ev.captures ?? [];
    if (caps.length === 0) return;
    const inside = new Set(caps.flatMap((a) => a.inside.map((p) => `${p[0]},${p[1]}`)));
    let taken = 0;
    for (const p of inside) if (owner.has(p) && owner.get(p) !== m.seat) taken += 1;
    out.push({ index: i, player: m.seat, move: m.notation, taken, areas: caps.length });
  });
  return out;
}

/** What a poll brought (`reply`, asked `since` the positions of `held`) added to what was
 * held: a reply with `since` 0 holds everything and replaces it. */
export function mergeAnalysis(held: Analysis | null, reply: Analysis): Analysis {
  if (!held || reply.since === 0 || held.id !== reply.id) return reply;
  const fresh = new Set(reply.positions.map((p) => p.ply));
  const positions = [...held.positions.filter((p) => !fresh.has(p.ply)), ...reply.positions].sort((a, b) => a.ply - b.ply);
  return { ...reply, positions, since: 0 };
}

/** Whether an analysis still has work to do (poll again). */
export function analysisRunning(a: Analysis | null): boolean {
  return a?.status === "running";
}

/** The board size as people read it, e.g. "5×5" (columns × rows). */
export function reviewSize(review: Pick<Review, "size">): string {
  return `${review.size[0]}×${review.size[1]}`;
}

/** A position with the values of its undrawn lines: an analysed position of the review, or
 * the line values a practice game against the computer asks for. */
export type ValuedPosition = Pick<AnalysedPosition, "exact" | "value" | "values">;

/** What each undrawn line of an exactly analysed position costs, in boxes of the final
 * score against best play (0: a best line), by the board's line key ("h:x:y"); empty where
 * the position was only estimated. */
export function lineCosts(position: ValuedPosition | null): Map<string, number> {
  const costs = new Map<string, number>();
  if (!position?.exact || position.value === null) return costs;
  for (const { move, value } of position.values ?? []) {
    if ("line" in move) costs.set(lineKey(move.line), (position.value - value) / 2);
  }
  return costs;
}

/** A note the board draws on an undrawn line. */
export interface LineNote {
  text: string;
  best: boolean;
  /** The boxes the line gives away (0: a best line), for the line's accessible name. */
  cost: number;
}

/** The notes the board draws on the undrawn lines of an exactly valued position: what each
 * line gives away ("−2"), "0" on the best ones (the review's and practice's line values). */
export function lineNotes(position: ValuedPosition | null): Map<string, LineNote> {
  const notes = new Map<string, LineNote>();
  for (const [key, cost] of lineCosts(position)) notes.set(key, { text: cost === 0 ? "0" : `−${cost}`, best: cost === 0, cost });
  return notes;
}
