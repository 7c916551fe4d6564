// The room as the client holds it: a snapshot from the server, brought forward by the
// move-sized events that follow it, in version order. Pure functions: the connection
// (room.ts) decides when to apply what; the screens read the result.
import type {
  BoxesBoardView,
  BoxesBoardWire,
  DotsBoardView,
  DotsBoardWire,
  EventMessage,
  Move,
  ServerSnapshot,
  RoomState,
  Seat,
  SeatView,
  Status,
} from "./types";

type Pair = [number, number];
type Line = [Pair, Pair];

type PairLike = readonly [number, number];

const pair = (p: PairLike): Pair => [p[0], p[1]];
const lineOf = (l: readonly [PairLike, PairLike]): Line => [pair(l[0]), pair(l[1])];
const pointKey = (p: PairLike): string => `${p[0]},${p[1]}`;
const lineKey = (l: readonly [PairLike, PairLike]): string => {
  const [a, b] = [pointKey(l[0]), pointKey(l[1])];
  return a < b ? `${a}-${b}` : `${b}-${a}`;
};

/** Every line of a board of rows × cols boxes, horizontal lines first (as the server). */
function allLines(rows: number, cols: number): Line[] {
  const lines: Line[] = [];
  for (let y = 0; y <= rows; y++) for (let x = 0; x < cols; x++) lines.push([[x, y], [x + 1, y]]);
  for (let y = 0; y < rows; y++) for (let x = 0; x <= cols; x++) lines.push([[x, y], [x, y + 1]]);
  return lines;
}

function boxesBoard(wire: BoxesBoardWire, status: Status): BoxesBoardView {
  const lines = wire.lines.map((l) => ({ line: lineOf(l.line), player: l.player ?? null }));
  const drawn = new Set(lines.map((l) => lineKey(l.line)));
  const over = status.outcome != null;
  return {
    game: "boxes",
    rows: wire.rows,
    cols: wire.cols,
    lines,
    boxes: wire.boxes.map((b) => ({ box: pair(b.box), owner: b.owner })),
    last_move: wire.last_move ? lineOf(wire.last_move.line) : null,
    to_move: status.to_move,
    scores: [status.scores[0], status.scores[1]],
    outcome: status.outcome ?? null,
    legal_moves: over ? [] : allLines(wire.rows, wire.cols).filter((l) => !drawn.has(lineKey(l))),
  };
}

type DotsArea = DotsBoardView["areas"][number];
type DotsHouse = DotsBoardView["houses"][number];

/** The Dots board as drawn: a mark is captured when it lies inside an area of the other
 * player; an empty point inside any area is dead. */
function dotsView(
  base: Omit<DotsBoardView, "marks" | "to_move" | "scores" | "is_over" | "outcome">,
  marks: [number, number, Seat][],
  status: Status,
): DotsBoardView {
  const captor = new Map<string, Seat>();
  for (const area of base.areas) for (const p of area.inside) captor.set(pointKey(p), area.captor);
  return {
    ...base,
    marks: marks.map(([x, y, owner]) => {
      const by = captor.get(`${x},${y}`);
      return { point: [x, y] as Pair, owner, captured: by !== undefined && by !== owner };
    }),
    to_move: status.to_move,
    scores: [status.scores[0], status.scores[1]],
    is_over: status.outcome != null,
    outcome: status.outcome ?? null,
  };
}

function dotsBoard(wire: DotsBoardWire, status: Status, moveCount: number): DotsBoardView {
  const area = (a: DotsBoardWire["areas"][number]): DotsArea => ({
    key: pair(a.key),
    captor: a.captor,
    chain: a.chain.map(pair),
    inside: a.inside.map(pair),
  });
  const house = (h: DotsBoardWire["houses"][number]): DotsHouse => ({
    key: pair(h.key),
    owner: h.owner,
    chain: h.chain.map(pair),
    inside: h.inside.map(pair),
  });
  return dotsView(
    {
      game: "dots",
      width: wire.width,
      height: wire.height,
      start: wire.start,
      win_margin: wire.win_margin ?? null,
      grounding: wire.grounding,
      areas: wire.areas.map(area),
      houses: wire.houses.map(house),
      last_move: wire.last_move ? pair(wire.last_move.point) : null,
      move_count: moveCount,
      ungrounded: (wire.ungrounded ?? []).map(pair),
    },
    wire.marks.map(([x, y, owner]) => [x, y, owner as Seat]),
    status,
  );
}

function dotsLegal(board: DotsBoardView): Move[] {
  if (board.is_over) return [];
  const taken = new Set<string>();
  for (const m of board.marks) taken.add(pointKey(m.point));
  for (const a of board.areas) for (const p of a.inside) taken.add(pointKey(p));
  const legal: Move[] = [];
  for (let y = 0; y < board.height; y++)
    for (let x = 0; x < board.width; x++) if (!taken.has(`${x},${y}`)) legal.push({ point: [x, y] });
  return legal;
}

function legalOf(board: BoxesBoardView | DotsBoardView): Move[] {
  if (board.game === "boxes") return board.legal_moves.map((line) => ({ line }));
  return dotsLegal(board);
}

function lastMoveOf(board: BoxesBoardView | DotsBoardView): Move | null {
  if (board.game === "boxes") return board.last_move ? { line: board.last_move } : null;
  return board.last_move ? { point: board.last_move } : null;
}

function withStatus(state: Omit<RoomState, "legal_moves" | "last_move">): RoomState {
  return { ...state, legal_moves: legalOf(state.board), last_move: lastMoveOf(state.board) };
}

const NOTHING_ALLOWED: RoomState["allowed"] = [[], []];

/** The clocks of a status, stamped with the moment they arrived (they count down from there). */
function clocksOf(status: Status, now: number): RoomState["clock"] {
  const c = status.clock;
  return c ? { left_ms: [c.left_ms[0], c.left_ms[1]], running: c.running ?? null, received_at: now } : null;
}

function boardFrom(wire: ServerSnapshot["board"], status: Status, moveCount: number) {
  return wire.game === "boxes" ? boxesBoard(wire, status) : dotsBoard(wire, status, moveCount);
}

/** A room from a snapshot (welcome, resync, or a REST read). */
export function fromSnapshot(snap: ServerSnapshot, now: number = Date.now()): RoomState {
  const status = snap.status;
  return withStatus({
    id: snap.id,
    game: snap.game,
    mode: snap.mode,
    version: snap.version,
    game_number: snap.game_number,
    level: snap.level ?? null,
    daily: snap.daily ?? null,
    computer_seat: snap.computer_seat ?? null,
    seats: snap.seats,
    spectators: snap.spectators,
    requests: snap.requests.map((r) => ({ kind: r.kind, seat: r.seat })),
    to_move: status.to_move,
    scores: [status.scores[0], status.scores[1]],
    is_over: status.outcome != null,
    outcome: status.outcome ?? null,
    thinking: status.thinking ?? false,
    allowed: status.allowed ?? NOTHING_ALLOWED,
    move_count: snap.move_count,
    board: boardFrom(snap.board, status, snap.move_count),
    expires_in_seconds: snap.expires_in_seconds,
    time_control: snap.time_control ?? null,
    clock: clocksOf(status, now),
  });
}

/** Who is connected now (a presence message). */
export function withPresence(state: RoomState, seats: SeatView[], spectators: number): RoomState {
  return { ...state, seats, spectators };
}

/** The room after one event message; its version must be the next one. */
export function applyEvent(state: RoomState, msg: EventMessage, now: number = Date.now()): RoomState {
  if (msg.version !== state.version + 1) {
    throw new Error(`event ${msg.version} does not follow version ${state.version}`);
  }
  const status = msg.status;
  const ev = msg.event;
  let board = state.board;
  let next: Omit<RoomState, "legal_moves" | "last_move"> = { ...state };
  switch (ev.kind) {
    case "move": {
      next.move_count = state.move_count + 1;
      board = moved(board, ev, next.move_count, status);
      break;
    }
    case "joined":
      next.seats = state.seats.map((s) => (s.seat === ev.seat ? { ...s, taken: true } : s));
      break;
    case "requested":
      next.requests = [...state.requests, { kind: ev.request, seat: ev.seat }];
      break;
    case "declined":
      next.requests = state.requests.filter((r) => r.kind !== ev.request);
      break;
    case "restarted":
    case "undone": {
      const computer = ev.computer_seat ?? null;
      next = {
        ...next,
        game_number: ev.game_number,
        move_count: ev.move_count,
        computer_seat: computer,
        requests: [],
        seats:
          state.mode === "computer"
            ? state.seats.map((s) => ({ ...s, kind: s.seat === computer ? "computer" : "human", taken: true }))
            : state.seats,
      };
      board = boardFrom(ev.board, status, ev.move_count);
      break;
    }
    case "ended":
      next.requests = [];
      break;
    case "level":
      next.level = ev.level;
      break;
  }
  return withStatus({
    ...next,
    version: msg.version,
    to_move: status.to_move,
    scores: [status.scores[0], status.scores[1]],
    is_over: status.outcome != null,
    outcome: status.outcome ?? null,
    thinking: status.thinking ?? false,
    allowed: status.allowed ?? state.allowed,
    clock: clocksOf(status, now) ?? state.clock,
    board: restatus(board, status),
  });
}

type MoveEvent = Extract<EventMessage["event"], { kind: "move" }>;

function moved(
  board: BoxesBoardView | DotsBoardView,
  ev: MoveEvent,
  moveCount: number,
  status: Status,
): BoxesBoardView | DotsBoardView {
  if (board.game === "boxes" && "line" in ev.move) {
    const line = lineOf(ev.move.line);
    const closed = (ev.closed ?? []).map((b) => ({ box: pair(b), owner: ev.seat }));
    const key = lineKey(line);
    return {
      ...board,
      lines: [...board.lines, { line, player: ev.seat }],
      boxes: [...board.boxes, ...closed],
      last_move: line,
      legal_moves: board.legal_moves.filter((l) => lineKey(l) !== key),
    };
  }
  if (board.game === "dots" && "point" in ev.move) {
    const point = pair(ev.move.point);
    const areasGone = new Set((ev.areas_removed ?? []).map(pointKey));
    const housesGone = new Set((ev.houses_removed ?? []).map(([x, y, owner]) => `${x},${y},${owner}`));
    const areas = [
      ...board.areas.filter((a) => !areasGone.has(pointKey(a.key))),
      ...(ev.captures ?? []).map((a) => ({
        key: pair(a.key),
        captor: a.captor,
        chain: a.chain.map(pair),
        inside: a.inside.map(pair),
      })),
    ];
    const houses = [
      ...board.houses.filter((h) => !housesGone.has(`${pointKey(h.key)},${h.owner}`)),
      ...(ev.houses_added ?? []).map((h) => ({
        key: pair(h.key),
        owner: h.owner,
        chain: h.chain.map(pair),
        inside: h.inside.map(pair),
      })),
    ];
    const marks: [number, number, Seat][] = board.marks.map((m) => [m.point[0], m.point[1], m.owner]);
    marks.push([point[0], point[1], ev.seat]);
    return dotsView({ ...board, areas, houses, last_move: point, move_count: moveCount }, marks, status);
  }
  return board;
}

/** The board's copy of the status (scores, whose turn, the outcome). */
function restatus(board: BoxesBoardView | DotsBoardView, status: Status): BoxesBoardView | DotsBoardView {
  const scores: [number, number] = [status.scores[0], status.scores[1]];
  const outcome = status.outcome ?? null;
  if (board.game === "boxes") {
    return {
      ...board,
      to_move: status.to_move,
      scores,
      outcome,
      legal_moves: outcome ? [] : board.legal_moves,
    };
  }
  return { ...board, to_move: status.to_move, scores, outcome, is_over: outcome != null };
}
