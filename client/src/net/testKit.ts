// Test doubles shared by the net module's unit tests: a fake websocket the test drives by
// hand, and small protocol messages of a 1×2 Dots and Boxes room. Not part of the app.
import type { WebSocketLike } from "./socket";
import type { ClockView, EventMessage, ServerSnapshot, Status } from "./types";

export class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  receive(msg: unknown) {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(msg) }));
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.(new CloseEvent("close", { code }));
  }
  sentOf(type: string) {
    return this.sent.filter((m) => m.type === type);
  }
  static last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1]!;
  }
}

export const SEATS = [
  { seat: 0 as const, kind: "human" as const, taken: true, connected: true, colour: "gold" as const },
  { seat: 1 as const, kind: "human" as const, taken: true, connected: true, colour: "coral" as const },
];

/** The five lines of a 1×2 board, in the order the tests play them. */
export const LINES: [number, number, number, number][] = [
  [0, 0, 1, 0],
  [1, 0, 2, 0],
  [0, 1, 1, 1],
  [1, 1, 2, 1],
  [0, 0, 0, 1],
];

export function snapshot(version: number, lines = 0, status: Partial<Status> = {}): ServerSnapshot {
  return {
    id: "room1",
    game: "boxes",
    mode: "live",
    version,
    game_number: 1,
    level: null,
    daily: null,
    computer_seat: null,
    seats: SEATS,
    spectators: 0,
    requests: [],
    move_count: lines,
    status: { to_move: 0, scores: [0, 0], outcome: null, thinking: false, allowed: [["resign"], ["resign"]], ...status },
    board: {
      game: "boxes",
      rows: 1,
      cols: 2,
      lines: LINES.slice(0, lines).map(([a, b, c, d], i) => ({ line: [[a, b], [c, d]], player: i % 2 === 0 ? 0 : 1 })),
      boxes: [],
      last_move: null,
    },
    expires_in_seconds: null,
  };
}

export function welcome(
  version: number,
  opts: { snapshot?: ServerSnapshot | null; events?: EventMessage[]; clock?: ClockView } = {},
) {
  return {
    protocol: 3,
    type: "welcome",
    room: "room1",
    version,
    seat: 0,
    role: "player",
    seats: SEATS,
    spectators: 0,
    events: opts.events ?? [],
    snapshot: opts.snapshot === undefined ? snapshot(version) : opts.snapshot,
    ...(opts.clock ? { clock: opts.clock } : {}),
  } as const;
}

/** The event of line `index` (of LINES) at `version`, with the status after it. */
export function moveEvent(version: number, index: number, status: Partial<Status> = {}): EventMessage {
  const [a, b, c, d] = LINES[index]!;
  return {
    protocol: 3,
    type: "event",
    room: "room1",
    version,
    event: { kind: "move", seat: index % 2 === 0 ? 0 : 1, move: { line: [[a, b], [c, d]] } },
    status: { to_move: index % 2 === 0 ? 1 : 0, scores: [0, 0], outcome: null, thinking: false, ...status },
  };
}

export function resync(version: number, opts: { events?: EventMessage[]; snapshot?: ServerSnapshot | null }) {
  return { protocol: 3, type: "resync", room: "room1", version, ref: null, events: opts.events ?? [], snapshot: opts.snapshot ?? null } as const;
}
