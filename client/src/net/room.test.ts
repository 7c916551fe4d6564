import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiClient, ApiError } from "./http";
import { RoomConnection, type WebSocketLike, type RoomSnapshot } from "./room";
import type { RoomState, VersionedEvent } from "./types";

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
  static last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1]!;
  }
}

function state(version: number, extra: Partial<RoomState> = {}): RoomState {
  return {
    id: "room1",
    game: "boxes",
    mode: "live",
    version,
    game_number: 1,
    level: null,
    daily: null,
    computer_seat: null,
    seats: [
      { seat: 0, kind: "human", taken: true, connected: true, colour: "gold" },
      { seat: 1, kind: "human", taken: true, connected: true, colour: "coral" },
    ],
    to_move: 0,
    scores: [0, 0],
    is_over: false,
    outcome: null,
    moves: [],
    last_move: null,
    legal_moves: [],
    requests: [],
    board: {},
    thinking: false,
    spectators: 0,
    expires_in_seconds: null,
    ...extra,
  } as RoomState;
}

function welcome(version: number, missed: VersionedEvent[] = [], complete = true) {
  return { protocol: 1, type: "welcome", room: "room1", version, seat: 0, role: "player", missed, complete, state: state(version) };
}

function moveEvent(version: number, moveId: string | null = null, seat: 0 | 1 = 1) {
  return {
    protocol: 1,
    type: "event",
    room: "room1",
    version,
    event: { kind: "move", seat, move: { line: [[0, 0], [1, 0]] }, move_id: moveId },
    state: state(version),
  };
}

type Route = (url: string, init?: RequestInit) => { status: number; body: unknown };

function fakeApi(route: Route) {
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  const fetchImpl = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, ...(init ? { init } : {}) });
    const r = route(url, init);
    return new Response(JSON.stringify(r.body), { status: r.status, headers: { "Content-Type": "application/json" } });
  });
  return { api: new ApiClient("", fetchImpl), calls, fetchImpl };
}

const live: RoomConnection[] = [];

function connect(route: Route = () => ({ status: 500, body: {} }), token: string | null = "tok") {
  const { api, calls } = fakeApi(route);
  const conn = new RoomConnection({
    roomId: "room1",
    token,
    api,
    wsUrl: "ws://test/api/rooms/room1/ws",
    createSocket: (url) => new FakeSocket(url),
    backoffBase: 100,
    backoffMax: 1000,
    random: () => 0.5,
    moveTimeout: 2000,
  });
  live.push(conn);
  const snaps: RoomSnapshot[] = [];
  const events: VersionedEvent[] = [];
  const errors: ApiError[] = [];
  conn.subscribe({ onChange: (s) => snaps.push(s), onEvent: (e) => events.push(e), onError: (e) => errors.push(e) });
  return { conn, calls, snaps, events, errors };
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
  it("says hello with the token and the last version, then applies the welcome", () => {
    const { conn } = connect();
    conn.seed(state(3), 0, "player");
    conn.start();
    const ws = FakeSocket.last();
    expect(ws.url).toBe("ws://test/api/rooms/room1/ws");
    ws.open();
    expect(ws.sent[0]).toEqual({ type: "hello", token: "tok", since: 3 });
    ws.receive(welcome(5, [{ version: 4, event: { kind: "joined", seat: 1 } }, { version: 5, event: { kind: "move", seat: 1, move: {}, move_id: null } }]));
    const s = conn.snapshot();
    expect(s.status).toBe("online");
    expect(s.version).toBe(5);
    expect(s.seat).toBe(0);
    conn.stop();
  });

  it("calls the first connection of a seeded room connecting, not reconnecting", () => {
    const { conn } = connect();
    conn.seed(state(3), 0, "player");
    conn.start();
    expect(conn.snapshot().status).toBe("connecting");
    FakeSocket.last().open();
    FakeSocket.last().receive(welcome(3));
    FakeSocket.last().drop(1006);
    expect(conn.snapshot().status).toBe("reconnecting");
    conn.stop();
  });

  it("drops duplicate events (version not above the one held)", () => {
    const { conn, events } = connect();
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(2));
    ws.receive(moveEvent(3));
    ws.receive(moveEvent(3));
    ws.receive(moveEvent(2));
    ws.receive(moveEvent(4));
    expect(events.map((e) => e.version)).toEqual([3, 4]);
    expect(conn.snapshot().version).toBe(4);
    conn.stop();
  });

  it("resyncs over REST when an event skips versions, then applies what was queued", async () => {
    const { conn, events, calls } = connect((url) => {
      expect(url).toContain("/api/rooms/room1/events?since=2");
      return {
        status: 200,
        body: {
          version: 4,
          complete: true,
          events: [
            { version: 3, event: { kind: "move", seat: 0, move: {}, move_id: null } },
            { version: 4, event: { kind: "move", seat: 1, move: {}, move_id: null } },
          ],
          state: state(4),
        },
      };
    });
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(2));
    ws.receive(moveEvent(5)); // 3 and 4 are missing
    expect(conn.snapshot().version).toBe(2);
    ws.receive(moveEvent(6)); // arrives while catching up: queued
    await vi.waitFor(() => expect(conn.snapshot().version).toBe(6));
    expect(events.map((e) => e.version)).toEqual([3, 4, 5, 6]);
    expect(calls).toHaveLength(1);
    conn.stop();
  });

  it("reconnects with growing backoff and sends the last version seen", () => {
    const { conn, snaps } = connect();
    conn.start();
    FakeSocket.last().open();
    FakeSocket.last().receive(welcome(7));
    FakeSocket.last().drop(1006);
    expect(conn.snapshot().status).toBe("reconnecting");
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(99);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1); // 100 ms: first retry
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.last().drop(1006); // the retry fails before opening
    vi.advanceTimersByTime(199);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1); // 200 ms: second retry
    expect(FakeSocket.all).toHaveLength(3);
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sent[0]).toEqual({ type: "hello", token: "tok", since: 7 });
    ws.receive(welcome(8));
    expect(conn.snapshot().status).toBe("online");
    expect(conn.snapshot().attempt).toBe(0);
    expect(snaps.some((s) => s.status === "reconnecting")).toBe(true);
    conn.stop();
  });

  it("caps the backoff", () => {
    const { conn } = connect();
    conn.start();
    for (let i = 0; i < 8; i++) {
      FakeSocket.last().drop(1006);
      vi.advanceTimersByTime(1000);
    }
    expect(FakeSocket.all).toHaveLength(9);
    conn.stop();
  });

  it("stops and says so when the seat is taken over; reclaim connects again", () => {
    const { conn } = connect();
    conn.start();
    FakeSocket.last().open();
    FakeSocket.last().receive(welcome(1));
    FakeSocket.last().drop(4001);
    expect(conn.snapshot().status).toBe("taken_over");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    conn.reclaim();
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.last().open();
    expect(FakeSocket.last().sent[0]).toMatchObject({ type: "hello", since: 1 });
    conn.stop();
  });

  it("reports a bad token and a room that is gone without reconnecting", () => {
    const a = connect();
    a.conn.start();
    FakeSocket.last().drop(4003);
    expect(a.conn.snapshot().status).toBe("bad_token");
    const b = connect();
    b.conn.start();
    FakeSocket.last().drop(4004);
    expect(b.conn.snapshot().status).toBe("gone");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("confirms a move by the event carrying its move id", async () => {
    const { conn } = connect();
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(4));
    const done = conn.move({ line: [[0, 0], [1, 0]] });
    const sent = ws.sent[1]!;
    expect(sent).toMatchObject({ type: "move", version: 4, move: { line: [[0, 0], [1, 0]] } });
    expect(sent.ref).toBe(sent.move_id);
    ws.receive(moveEvent(5, sent.move_id as string, 0));
    await expect(done).resolves.toBeUndefined();
  });

  it("rejects a refused move with the server's code", async () => {
    const { conn } = connect(() => ({ status: 200, body: { state: state(4), you: { seat: 0 } } }));
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(4));
    const done = conn.move({ line: [[0, 0], [1, 0]] });
    const ref = ws.sent[1]!.ref as string;
    ws.receive({ protocol: 1, type: "error", room: "room1", version: 4, ref, code: "opponent_offline", message: "seat 1 is offline" });
    await expect(done).rejects.toMatchObject({ code: "opponent_offline" });
  });

  it("sends a move over REST when the socket is down, and maps REST errors", async () => {
    const { conn, calls } = connect((url, init) => {
      expect(url).toBe("/api/rooms/room1/moves");
      expect((init!.headers as Record<string, string>).Authorization).toBe("Bearer tok");
      return { status: 409, body: { code: "not_your_turn", message: "seat 1 to move" } };
    });
    conn.seed(state(2), 0, "player");
    const err = await conn.move({ line: [[0, 0], [1, 0]] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("not_your_turn");
    expect(JSON.parse(String(calls[0]!.init!.body))).toMatchObject({ version: 2, move: { line: [[0, 0], [1, 0]] } });
  });

  it("retries an unanswered move over REST with the same move id", async () => {
    let body: Record<string, unknown> | null = null;
    const { conn } = connect((url, init) => {
      if (url.endsWith("/moves")) {
        body = JSON.parse(String(init!.body)) as Record<string, unknown>;
        return { status: 200, body: { version: 5, state: state(5), duplicate: true } };
      }
      return { status: 200, body: { state: state(5), you: { seat: 0 } } };
    });
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(4));
    const done = conn.move({ line: [[0, 0], [1, 0]] });
    const moveId = ws.sent[1]!.move_id;
    await vi.advanceTimersByTimeAsync(2000);
    await expect(done).resolves.toBeUndefined();
    expect(body!.move_id).toBe(moveId);
    expect(conn.snapshot().version).toBe(5);
  });

  it("takes an ack for a pending move as its confirmation, without a REST retry", async () => {
    const { conn, calls } = connect(() => ({ status: 500, body: {} }));
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(4));
    let settled = false;
    const done = conn.move({ line: [[0, 0], [1, 0]] }).then(() => (settled = true));
    const sent = ws.sent[1]!;
    ws.receive({ protocol: 1, type: "ack", room: "room1", version: 4, ref: sent.ref, move_id: sent.move_id, duplicate: true });
    await expect(done).resolves.toBe(true);
    expect(settled).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000); // past the move timeout: nothing more happens
    expect(calls).toHaveLength(0);
    expect(conn.snapshot().version).toBe(4);
  });

  it("resends an unanswered move after a reconnect; the ack confirms it and catches up", async () => {
    const { conn, calls } = connect((url) => {
      expect(url).toBe("/api/rooms/room1/events?since=4");
      return {
        status: 200,
        body: { version: 5, events: [{ version: 5, event: moveEvent(5, "x").event }], complete: true, state: state(5) },
      };
    });
    conn.start();
    const first = FakeSocket.last();
    first.open();
    first.receive(welcome(4));
    const done = conn.move({ line: [[0, 0], [1, 0]] });
    const moveId = first.sent[1]!.move_id as string;
    first.drop(); // the event of our move was lost with the socket
    await vi.advanceTimersByTimeAsync(150);
    const second = FakeSocket.last();
    expect(second).not.toBe(first);
    second.open();
    second.receive(welcome(4)); // the server had not sent anything newer yet
    const resent = second.sent.find((m) => m.type === "move")!;
    expect(resent).toMatchObject({ move_id: moveId, ref: moveId, version: 4 });
    // The move had been applied meanwhile: the server acks the retry.
    second.receive({ protocol: 1, type: "ack", room: "room1", version: 5, ref: moveId, move_id: moveId, duplicate: true });
    await expect(done).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.url)).toEqual(["/api/rooms/room1/events?since=4"]);
    expect(conn.snapshot().version).toBe(5);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.some((c) => c.url.endsWith("/moves"))).toBe(false);
  });

  it("ignores an ack for a move it is not waiting for", async () => {
    const { conn, calls, errors } = connect();
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(4));
    ws.receive({ protocol: 1, type: "ack", room: "room1", version: 4, ref: "other", move_id: "other", duplicate: true });
    expect(errors).toHaveLength(0);
    expect(calls).toHaveLength(0);
    expect(conn.snapshot().version).toBe(4);
  });

  it("network failures become the code 'network'", async () => {
    const api = new ApiClient("", () => Promise.reject(new TypeError("Failed to fetch")));
    await expect(api.getRoom("x")).rejects.toMatchObject({ code: "network" });
  });

  it("updates presence without touching the version", () => {
    const { conn } = connect();
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(3));
    ws.receive({
      protocol: 1,
      type: "presence",
      room: "room1",
      version: 3,
      seats: [
        { seat: 0, kind: "human", taken: true, connected: true, colour: "gold" },
        { seat: 1, kind: "human", taken: true, connected: false, colour: "coral" },
      ],
      spectators: 2,
    });
    expect(conn.snapshot().state!.seats[1]!.connected).toBe(false);
    expect(conn.snapshot().state!.spectators).toBe(2);
    expect(conn.snapshot().version).toBe(3);
    conn.stop();
  });

  it("pings while open and reconnects when the server goes silent", () => {
    const { api } = fakeApi(() => ({ status: 500, body: {} }));
    const conn = new RoomConnection({
      roomId: "room1",
      token: null,
      api,
      wsUrl: "ws://x",
      createSocket: (u) => new FakeSocket(u),
      pingEvery: 1000,
      deadAfter: 2500,
      backoffBase: 100,
      random: () => 0.5,
    });
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(welcome(1));
    vi.advanceTimersByTime(1000);
    expect(ws.sent.some((m) => m.type === "ping")).toBe(true);
    vi.advanceTimersByTime(2000); // silent for 3 s > 2.5 s
    expect(ws.closedWith).toBe(4000);
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(2);
    conn.stop();
  });
});

describe("RoomConnection and the browser's network state", () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    for (const c of live.splice(0)) c.stop();
    vi.useRealTimers();
  });

  it("drops the socket when the browser goes offline and retries when it is back", () => {
    const { conn } = connect();
    conn.start();
    FakeSocket.last().open();
    FakeSocket.last().receive(welcome(2));
    window.dispatchEvent(new Event("offline"));
    expect(FakeSocket.all[0]!.closedWith).toBe(4000);
    expect(conn.snapshot().status).toBe("reconnecting");
    window.dispatchEvent(new Event("online"));
    expect(FakeSocket.all).toHaveLength(2);
    conn.stop();
  });
});
