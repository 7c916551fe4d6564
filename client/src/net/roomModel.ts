// The room as the client holds it: a snapshot from the server, brought forward by the
// move-sized events that follow it, in version order. Pure functions: the room history
// (history.ts) decides when to apply what; the screens read the result.
//
// Each game has one board type (BoxesBoardView, DotsBoardView) and one room type that
// holds it (types.ts): a Dots and Boxes move event changes a Dots and Boxes board only.
import type {
  ClockView,
  BoxesBoardView,
  BoxesBoardWire,
  BoxesRoomState,
  DotsBoardView,
  DotsBoardWire,
  DotsRoomState,
  EventMessage,
  PointMove,
  RoomState,
  Seat,
  SeatView,
  ServerSnapshot,
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

type RoomEvent = EventMessage["event"];
type MoveEvent = Extract<RoomEvent, { kind: "move" }>;

const NOTHING_ALLOWED: RoomState["allowed"] = [[], []];

// -- status ----------------------------------------------------------------------------

/** The part of a room that every `status` sets. */
type StatusFields = Pick<RoomState, "to_move" | "scores" | "is_over" | "outcome" | "thinking" | "allowed" | "clock">;

/** The status rule (docs/api.md): a status replaces the one held, field by field — the
 * outcome, `thinking` and, in clocked rooms, the clock are always sent — except `allowed`,
 * sent only when it changed: absent, the one held stays. */
export function mergeStatus(held: Pick<RoomState, "allowed"> | null, status: Status, receivedAt: number): StatusFields {
  return {
    to_move: status.to_move,
    scores: [status.scores[0], status.scores[1]],
    is_over: status.outcome != null,
    outcome: status.outcome ?? null,
    thinking: status.thinking ?? false,
    allowed: status.allowed ?? held?.allowed ?? NOTHING_ALLOWED,
    clock: status.clock ? { left_ms: [status.clock.left_ms[0], status.clock.left_ms[1]], running: status.clock.running, received_at: receivedAt } : null,
  };
}

// -- Dots and Boxes --------------------------------------------------------------------

/** Every line of a board of rows × cols boxes, horizontal lines first (as the server). */
function allLines(rows: number, cols: number): Line[] {
  const lines: Line[] = [];
  for (let y = 0; y <= rows; y++) for (let x = 0; x < cols; x++) lines.push([[x, y], [x + 1, y]]);
  for (let y = 0; y < rows; y++) for (let x = 0; x <= cols; x++) lines.push([[x, y], [x, y + 1]]);
  return lines;
}

function boxesBoard(wire: BoxesBoardWire, status: StatusFields): BoxesBoardView {
  const lines = wire.lines.map((l) => ({ line: lineOf(l.line), player: l.player ?? null }));
  const drawn = new Set(lines.map((l) => lineKey(l.line)));
  return boxesStatus(
    {
      game: "boxes",
      rows: wire.rows,
      cols: wire.cols,
      lines,
      boxes: wire.boxes.map((b) => ({ box: pair(b.box), owner: b.owner })),
      last_move: wire.last_move ? lineOf(wire.last_move.line) : null,
      legal_moves: allLines(wire.rows, wire.cols).filter((l) => !drawn.has(lineKey(l))),
    },
    status,
  );
}

/** The board's copy of the status; no line is drawable once the game is over. */
function boxesStatus(board: Omit<BoxesBoardView, "to_move" | "scores" | "outcome">, status: StatusFields): BoxesBoardView {
  return {
    ...board,
    to_move: status.to_move,
    scores: [status.scores[0], status.scores[1]],
    outcome: status.outcome,
    legal_moves: status.is_over ? [] : board.legal_moves,
  };
}

function boxesMoved(board: BoxesBoardView, ev: MoveEvent): BoxesBoardView {
  if (!("line" in ev.move)) throw new Error("a Dots and Boxes room got a point move");
  const line = lineOf(ev.move.line);
  const key = lineKey(line);
  return {
    ...board,
    lines: [...board.lines, { line, player: ev.seat }],
    boxes: [...board.boxes, ...(ev.closed ?? []).map((b) => ({ box: pair(b), owner: ev.seat }))],
    last_move: line,
    legal_moves: board.legal_moves.filter((l) => lineKey(l) !== key),
  };
}

function boxesRoom(common: RoomCommonFields, board: BoxesBoardView): BoxesRoomState {
  return {
    ...common,
    game: "boxes",
    board,
    last_move: board.last_move ? { line: board.last_move } : null,
    legal_moves: board.legal_moves.map((line) => ({ line })),
  };
}

// -- Dots ------------------------------------------------------------------------------

type DotsArea = DotsBoardView["areas"][number];
type DotsHouse = DotsBoardView["houses"][number];
type DotsBoardBase = Omit<DotsBoardView, "marks" | "to_move" | "scores" | "is_over" | "outcome">;

const areaOf = (a: DotsBoardWire["areas"][number]): DotsArea => ({
  key: pair(a.key),
  captor: a.captor,
  chain: a.chain.map(pair),
  inside: a.inside.map(pair),
});
const houseOf = (h: DotsBoardWire["houses"][number]): DotsHouse => ({
  key: pair(h.key),
  owner: h.owner,
  chain: h.chain.map(pair),
  inside: h.inside.map(pair),
});

/** The Dots board as drawn: a mark is captured when it lies inside an area of the other
 * player; an empty point inside any area is dead. */
function dotsView(base: DotsBoardBase, marks: [number, number, Seat][], status: StatusFields): DotsBoardView {
  const captor = new Map<string, Seat>();
  for (const area of base.areas) for (const p of area.inside) captor.set(pointKey(p), area.captor);
  return dotsStatus(
    {
      ...base,
      marks: marks.map(([x, y, owner]) => {
        const by = captor.get(`${x},${y}`);
        return { point: [x, y] as Pair, owner, captured: by !== undefined && by !== owner };
      }),
    },
    status,
  );
}

function dotsStatus(board: Omit<DotsBoardView, "to_move" | "scores" | "is_over" | "outcome">, status: StatusFields): DotsBoardView {
  return { ...board, to_move: status.to_move, scores: [status.scores[0], status.scores[1]], is_over: status.is_over, outcome: status.outcome };
}

function dotsBoard(wire: DotsBoardWire, status: StatusFields, moveCount: number): DotsBoardView {
  return dotsView(
    {
      game: "dots",
      width: wire.width,
      height: wire.height,
      start: wire.start,
      win_margin: wire.win_margin ?? null,
      grounding: wire.grounding,
      areas: wire.areas.map(areaOf),
      houses: wire.houses.map(houseOf),
      last_move: wire.last_move ? pair(wire.last_move.point) : null,
      move_count: moveCount,
      ungrounded: (wire.ungrounded ?? []).map(pair),
    },
    wire.marks.map(([x, y, owner]) => [x, y, owner]),
    status,
  );
}

function dotsMoved(board: DotsBoardView, ev: MoveEvent, moveCount: number, status: StatusFields): DotsBoardView {
  if (!("point" in ev.move)) throw new Error("a Dots room got a line move");
  const point = pair(ev.move.point);
  const areasGone = new Set((ev.areas_removed ?? []).map(pointKey));
  const housesGone = new Set((ev.houses_removed ?? []).map(([x, y, owner]) => `${x},${y},${owner}`));
  const areas = [...board.areas.filter((a) => !areasGone.has(pointKey(a.key))), ...(ev.captures ?? []).map(areaOf)];
  const houses = [
    ...board.houses.filter((h) => !housesGone.has(`${pointKey(h.key)},${h.owner}`)),
    ...(ev.houses_added ?? []).map(houseOf),
  ];
  const marks: [number, number, Seat][] = board.marks.map((m) => [m.point[0], m.point[1], m.owner]);
  marks.push([point[0], point[1], ev.seat]);
  return dotsView({ ...board, areas, houses, last_move: point, move_count: moveCount }, marks, status);
}

/** Every point with no mark that lies inside no area. */
function dotsLegal(board: DotsBoardView): PointMove[] {
  if (board.is_over) return [];
  const taken = new Set<string>();
  for (const m of board.marks) taken.add(pointKey(m.point));
  for (const a of board.areas) for (const p of a.inside) taken.add(pointKey(p));
  const legal: PointMove[] = [];
  for (let y = 0; y < board.height; y++)
    for (let x = 0; x < board.width; x++) if (!taken.has(`${x},${y}`)) legal.push({ point: [x, y] });
  return legal;
}

function dotsRoom(common: RoomCommonFields, board: DotsBoardView): DotsRoomState {
  return {
    ...common,
    game: "dots",
    board,
    last_move: board.last_move ? { point: board.last_move } : null,
    legal_moves: dotsLegal(board),
  };
}

// -- the room --------------------------------------------------------------------------

type RoomCommonFields = Omit<RoomState, "game" | "board" | "last_move" | "legal_moves">;

/** A room from a snapshot (welcome, resync, or a REST read), received at `receivedAt`
 * (`Date.now()` ms; what a clock counts down from). */
export function fromSnapshot(snap: ServerSnapshot, receivedAt = 0): RoomState {
  const status = mergeStatus(null, snap.status, receivedAt);
  const common: RoomCommonFields = {
    id: snap.id,
    mode: snap.mode,
    version: snap.version,
    game_number: snap.game_number,
    level: snap.level ?? null,
    daily: snap.daily ?? null,
    computer_seat: snap.computer_seat ?? null,
    seats: snap.seats,
    spectators: snap.spectators,
    requests: snap.requests.map((r) => ({ kind: r.kind, seat: r.seat })),
    ...status,
    time_control: snap.time_control ?? null,
    move_count: snap.move_count,
    expires_in_seconds: snap.expires_in_seconds,
  };
  const board = snap.board;
  return board.game === "boxes" ? boxesRoom(common, boxesBoard(board, status)) : dotsRoom(common, dotsBoard(board, status, snap.move_count));
}

/** Who is connected now (a presence message). */
export function withPresence(state: RoomState, seats: SeatView[], spectators: number): RoomState {
  return { ...state, seats, spectators };
}

/** The room with its clocks as a welcome tells them now (the statuses of the events it
 * brought tell them as they were when written), counted down from `receivedAt`. */
export function withClock(state: RoomState, clock: ClockView, receivedAt: number): RoomState {
  return { ...state, clock: { left_ms: [clock.left_ms[0], clock.left_ms[1]], running: clock.running, received_at: receivedAt } };
}

/** The room after one event message; its version must be the next one. */
export function applyEvent(state: RoomState, msg: EventMessage, receivedAt = 0): RoomState {
  if (msg.version !== state.version + 1) {
    throw new Error(`event ${msg.version} does not follow version ${state.version}`);
  }
  const status = mergeStatus(state, msg.status, receivedAt);
  const common = { ...roomFields(state, msg.event), ...status, version: msg.version };
  const ev = msg.event;
  if (state.game === "boxes") {
    let board = state.board;
    if (ev.kind === "move") board = boxesMoved(board, ev);
    else if ((ev.kind === "restarted" || ev.kind === "undone") && ev.board.game === "boxes") board = boxesBoard(ev.board, status);
    return boxesRoom(common, boxesStatus(board, status));
  }
  let board = state.board;
  if (ev.kind === "move") board = dotsMoved(board, ev, common.move_count, status);
  else if ((ev.kind === "restarted" || ev.kind === "undone") && ev.board.game === "dots") board = dotsBoard(ev.board, status, ev.move_count);
  return dotsRoom(common, dotsStatus(board, status));
}

/** What an event changes in the room besides its board and status. */
function roomFields(state: RoomState, ev: RoomEvent): RoomCommonFields {
  const { game: _game, board: _board, last_move: _last, legal_moves: _legal, ...room } = state;
  switch (ev.kind) {
    case "move":
      return { ...room, move_count: state.move_count + 1 };
    case "joined":
      return {
        ...room,
        seats: state.seats.map((s) => (s.seat === ev.seat ? { ...s, taken: true, name: ev.name ?? null, bot: !!ev.bot } : s)),
      };
    case "requested":
      return { ...room, requests: [...state.requests, { kind: ev.request, seat: ev.seat }] };
    case "declined":
      return { ...room, requests: state.requests.filter((r) => r.kind !== ev.request) };
    case "restarted":
    case "undone": {
      const computer = ev.computer_seat ?? null;
      return {
        ...room,
        game_number: ev.game_number,
        move_count: ev.move_count,
        computer_seat: computer,
        requests: [],
        seats:
          state.mode === "computer"
            ? state.seats.map((s) => ({ ...s, kind: s.seat === computer ? "computer" : "human", taken: true }))
            : state.seats,
      };
    }
    case "ended":
      return { ...room, requests: [] };
    case "level":
      return { ...room, level: ev.level };
  }
}
