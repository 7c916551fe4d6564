import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./http";
import { RoomConnection, type AppliedEvent, type RoomSnapshot, type WebSocketLike } from "./room";
import type { EventMessage, ServerSnapshot } from "./types";

class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
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
  // test helpers
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  sentOf(type: string) {
    return this.sent.filter((m) => m.type === type);
  }
  static last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1]!;
  }
}

const SEATS = [
  { seat: 0 as const, kind: "human" as const, taken: true, connected: true, colour: "gold" as const },
  { seat: 1 as const, kind: "human" as const, taken: true, connected: true, colour: "coral" as const },
];

function snapshot(version: number, lines: [number, number, number, number][] = []): ServerSnapshot {
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
    move_count: lines.length,
    status: { to_move: 0, scores: [0, 0], outcome: null, thinking: false, allowed: [["resign"], ["resign"]] },
    board: {
      game: "boxes",
      rows: 1,
      cols: 2,
      lines: lines.map(([a, b, c, d], i) => ({ line: [[a, b], [c, d]], player: i % 2 === 0 ? 0 : 1 })),
      boxes: [],
      last_move: null,
    },
    expires_in_seconds: null,
  };
}

function welcome(version: number, opts: { snapshot?: ServerSnapshot | null; events?: EventMessage[] } = {}) {
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
  };
}

const LINES: [number, number, number, number][] = [
  [0, 0, 1, 0],
  [1, 0, 2, 0],
  [0, 1, 1, 1],
  [1, 1, 2, 1],
  [0, 0, 0, 1],
];

function moveEvent(version: number, index: number, moveId: string | null = null): EventMessage {
  const [a, b, c, d] = LINES[index]!;
  return {
    protocol: 3,
    type: "event",
    room: "room1",
    version,
    event: { kind: "move", seat: index % 2 === 0 ? 0 : 1, move: { line: [[a, b], [c, d]] }, ...(moveId ? { move_id: moveId } : {}) },
    status: { to_move: index % 2 === 0 ? 1 : 0, scores: [0, 0], outcome: null, thinking: false },
  } as EventMessage;
}

const live: RoomConnection[] = [];

function connect(token: string | null = "tok") {
  const conn = new RoomConnection({
    roomId: "room1",
    token,
    wsUrl: "ws://test/api/rooms/room1/ws",
    createSocket: (url) => new FakeSocket(url),
    backoffBase: 100,
    backoffMax: 1000,
    random: () => 0.5,
  });
  live.push(conn);
  const snaps: RoomSnapshot[] = [];
  const events: AppliedEvent[] = [];
  const errors: ApiError[] = [];
  conn.subscribe({ onChange: (s) => snaps.push(s), onEvent: (e) => events.push(e), onError: (e) => errors.push(e) });
  return { conn, snaps, events, errors };
}

function started(version = 3) {
  const c = connect();
  c.conn.start();
  const ws = FakeSocket.last();
  ws.open();
  ws.receive(welcome(version));
  return { ...c, ws };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => {
  for (const c of live.splice(0)) c.stop();
  vi.useRealTimers();
});

describe("RoomConnection", () => {
  it("says hello with the token and the version it holds, and goes online on welcome", () => {
    const { conn } = connect();
    conn.seed(snapshot(3), 0, "player");
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sent[0]).toEqual({ type: "hello", token: "tok", since: 3 });
    ws.receive(welcome(3, { snapshot: null }));
    expect(conn.snapshot().status).toBe("online");
    expect(conn.snapshot().version).toBe(3);
  });

  it("applies events in version order and drops duplicates", () => {
    const { conn, ws, events } = started(3);
    ws.receive(moveEvent(4, 0));
    ws.receive(moveEvent(4, 0));
    ws.receive(moveEvent(5, 1));
    expect(events.map((e) => e.version)).toEqual([4, 5]);
    const state = conn.snapshot().state!;
    expect(state.version).toBe(5);
    expect(state.board.game === "boxes" && state.board.lines.length).toBe(2);
    expect(state.legal_moves).toHaveLength(5);
    expect(ws.sentOf("sync")).toHaveLength(0);
  });

  it("sends exactly one sync on a gap and applies what the resync brings", () => {
    const { conn, ws, events } = started(3);
    ws.receive(moveEvent(5, 1));
    ws.receive(moveEvent(6, 2));
    ws.receive(moveEvent(7, 3));
    expect(ws.sentOf("sync")).toEqual([{ type: "sync", since: 3 }]);
    expect(conn.snapshot().version).toBe(3);
    ws.receive({ protocol: 3, type: "resync", room: "room1", version: 6, events: [moveEvent(4, 0), moveEvent(5, 1), moveEvent(6, 2)], snapshot: null });
    expect(events.map((e) => e.version)).toEqual([4, 5, 6, 7]);
    expect(conn.snapshot().version).toBe(7);
    expect(ws.sentOf("sync")).toHaveLength(1);
  });

  it("takes a snapshot from a resync when the history no longer covers the gap", () => {
    const { conn, ws } = started(3);
    ws.receive(moveEvent(9, 1));
    ws.receive({ protocol: 3, type: "resync", room: "room1", version: 9, events: [], snapshot: snapshot(9, LINES.slice(0, 4)) });
    const state = conn.snapshot().state!;
    expect(state.version).toBe(9);
    expect(state.move_count).toBe(4);
    expect(ws.sentOf("sync")).toHaveLength(1);
  });

  it("resolves a move on its ack and resends an unacked move with the same id after a reconnect", async () => {
    const { conn, ws } = started(3);
    const done = conn.move({ line: [[0, 0], [1, 0]] });
    const sent = ws.sentOf("move")[0]!;
    expect(sent.move_id).toBeTruthy();
    expect(sent.ref).toBeTruthy();
    expect(sent.version).toBe(3);
    ws.drop(1006);
    vi.advanceTimersByTime(200);
    const again = FakeSocket.last();
    expect(again).not.toBe(ws);
    again.open();
    again.receive(welcome(3, { snapshot: null }));
    const resent = again.sentOf("move")[0]!;
    expect(resent.move_id).toBe(sent.move_id);
    expect(resent.ref).toBe(sent.ref);
    again.receive({ protocol: 3, type: "ack", room: "room1", version: 4, ref: resent.ref, move_id: sent.move_id, duplicate: true });
    await expect(done).resolves.toBeUndefined();
  });

  it("refuses other unacked commands after a reconnect instead of doing them twice", async () => {
    const { conn, ws } = started(3);
    const undo = conn.act({ type: "undo" });
    ws.drop(1006);
    vi.advanceTimersByTime(200);
    const again = FakeSocket.last();
    again.open();
    again.receive(welcome(3, { snapshot: null }));
    await expect(undo).rejects.toMatchObject({ code: "network" });
    expect(again.sentOf("undo")).toHaveLength(0);
  });

  it("rejects a command with the error that carries its ref; other errors go to listeners", async () => {
    const { conn, ws, errors } = started(3);
    const moved = conn.move({ line: [[0, 0], [1, 0]] });
    const ref = ws.sentOf("move")[0]!.ref;
    ws.receive({ protocol: 3, type: "error", room: "room1", version: 3, ref, code: "opponent_offline", message: "offline" });
    await expect(moved).rejects.toMatchObject({ code: "opponent_offline" });
    ws.receive({ protocol: 3, type: "error", room: "room1", version: 3, ref: null, code: "rate_limited", message: "slow" });
    expect(errors.map((e) => e.code)).toEqual(["rate_limited"]);
  });

  it("hands back the hint that comes with the ack", async () => {
    const { conn, ws } = started(3);
    const hint = conn.hint();
    const ref = ws.sentOf("hint")[0]!.ref;
    ws.receive({ protocol: 3, type: "ack", room: "room1", version: 3, ref, duplicate: false, hint: { move: { line: [[0, 0], [1, 0]] }, reason: "sacrifice_to_keep_control", count: 2 } });
    await expect(hint).resolves.toEqual({ move: { line: [[0, 0], [1, 0]] }, reason: "sacrifice_to_keep_control", count: 2 });
  });

  it("stops for good when the seat is taken over elsewhere, and reclaims on request", () => {
    const { conn, ws } = started(3);
    ws.drop(4001);
    expect(conn.snapshot().status).toBe("taken_over");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    conn.reclaim();
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("reconnects with backoff and says which version it holds", () => {
    const { conn, ws } = started(3);
    ws.receive(moveEvent(4, 0));
    ws.drop(1006);
    expect(conn.snapshot().status).toBe("reconnecting");
    vi.advanceTimersByTime(99);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(2);
    const again = FakeSocket.last();
    again.open();
    expect(again.sent[0]).toEqual({ type: "hello", token: "tok", since: 4 });
  });

  it("treats a silent socket as dead", () => {
    const { ws } = started(3);
    vi.advanceTimersByTime(20_000);
    expect(ws.closedWith).toBe(4000);
  });

  it("refuses a command at once while there is no connection", async () => {
    const { conn, ws } = started(3);
    ws.drop(1006);
    await expect(conn.move({ line: [[0, 0], [1, 0]] })).rejects.toMatchObject({ code: "network" });
  });

  it("does not let spectators send commands", async () => {
    const { conn } = connect(null);
    await expect(conn.act({ type: "resign" })).rejects.toBeInstanceOf(ApiError);
  });

  it("keeps presence from presence messages", () => {
    const { conn, ws } = started(3);
    const away = SEATS.map((s) => (s.seat === 1 ? { ...s, connected: false } : s));
    ws.receive({ protocol: 3, type: "presence", room: "room1", version: 3, seats: away, spectators: 2 });
    expect(conn.snapshot().state!.seats[1]!.connected).toBe(false);
    expect(conn.snapshot().state!.spectators).toBe(2);
  });
});
