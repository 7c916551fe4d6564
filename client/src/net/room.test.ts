import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiError } from "./http";
import type { AppliedEvent } from "./history";
import { RoomConnection, type RoomSnapshot } from "./room";
import { FakeSocket, moveEvent, snapshot, welcome } from "./testKit";

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

const LINE = { line: [[0, 0], [1, 0]] } as { line: [[number, number], [number, number]] };

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => {
  for (const c of live.splice(0)) c.stop();
  vi.useRealTimers();
});

describe("RoomConnection", () => {
  it("starts from a REST snapshot, says hello with its version and goes online on welcome", () => {
    const { conn } = connect();
    conn.seed(snapshot(3), 0, "player");
    expect(conn.snapshot()).toMatchObject({ status: "idle", version: 3, seat: 0, role: "player" });
    conn.start();
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sent[0]).toEqual({ type: "hello", token: "tok", since: 3 });
    ws.receive(welcome(3, { snapshot: null }));
    expect(conn.snapshot()).toMatchObject({ status: "online", version: 3 });
  });

  it("sends a move made before the welcome once welcomed, instead of losing it", async () => {
    const { conn, snaps } = connect();
    conn.seed(snapshot(3), 0, "player");
    conn.start();
    const done = conn.move(LINE);
    expect(conn.snapshot().unanswered).toBe(1);
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sentOf("move")).toHaveLength(0);
    ws.receive(welcome(3, { snapshot: null }));
    const sent = ws.sentOf("move")[0]!;
    expect(sent).toMatchObject({ move: LINE, version: 3 });
    ws.receive(moveEvent(4, 0));
    ws.receive({ protocol: 3, type: "ack", room: "room1", version: 4, ref: sent.ref, move_id: sent.move_id, duplicate: false });
    await expect(done).resolves.toBeUndefined();
    expect(conn.snapshot()).toMatchObject({ version: 4, unanswered: 0 });
    expect(snaps.at(-1)!.unanswered).toBe(0);
  });

  it("applies events in order and syncs once on a gap", () => {
    const { conn, ws, events } = started(3);
    ws.receive(moveEvent(4, 0));
    ws.receive(moveEvent(6, 2));
    ws.receive(moveEvent(7, 3));
    expect(ws.sentOf("sync")).toEqual([{ type: "sync", since: 4 }]);
    ws.receive({ protocol: 3, type: "resync", room: "room1", version: 6, ref: null, events: [moveEvent(5, 1), moveEvent(6, 2)], snapshot: null });
    expect(events.map((e) => e.version)).toEqual([4, 5, 6, 7]);
    expect(conn.snapshot().version).toBe(7);
  });

  it("resends an unacked move with the same id after a reconnect and takes the duplicate's ack", async () => {
    const { conn, ws } = started(3);
    const done = conn.move(LINE);
    const sent = ws.sentOf("move")[0]!;
    ws.drop(1006);
    expect(conn.snapshot().status).toBe("reconnecting");
    vi.advanceTimersByTime(200);
    const again = FakeSocket.last();
    again.open();
    expect(again.sent[0]).toEqual({ type: "hello", token: "tok", since: 3 });
    again.receive(welcome(4, { snapshot: null, events: [moveEvent(4, 0)] }));
    const resent = again.sentOf("move")[0]!;
    expect(resent).toEqual(sent);
    again.receive({ protocol: 3, type: "ack", room: "room1", version: 4, ref: resent.ref, move_id: sent.move_id, duplicate: true });
    await expect(done).resolves.toBeUndefined();
    expect(conn.snapshot().version).toBe(4);
  });

  it("rejects a refused command and asks for what it missed when its picture may be old", async () => {
    const { conn, ws, errors } = started(3);
    const moved = conn.move(LINE);
    const ref = ws.sentOf("move")[0]!.ref;
    ws.receive({ protocol: 3, type: "error", room: "room1", version: 5, ref, code: "stale_version", message: "old", details: { version: 5 } });
    await expect(moved).rejects.toMatchObject({ code: "stale_version", details: { version: 5 } });
    expect(ws.sentOf("sync")).toEqual([{ type: "sync", since: 3 }]);
    expect(errors).toEqual([]);
  });

  it("tells listeners about refusals that answer none of its commands", () => {
    const { ws, errors } = started(3);
    ws.receive({ protocol: 3, type: "error", room: "room1", version: 3, ref: null, code: "unavailable", message: "down" });
    expect(errors.map((e) => e.code)).toEqual(["unavailable"]);
  });

  it("hands back the hint that comes with the ack", async () => {
    const { conn, ws } = started(3);
    const hint = conn.hint();
    const ref = ws.sentOf("hint")[0]!.ref;
    ws.receive({ protocol: 3, type: "ack", room: "room1", version: 3, ref, duplicate: false, hint: { move: LINE, reason: "sacrifice_to_keep_control", count: 2 } });
    await expect(hint).resolves.toEqual({ move: LINE, reason: "sacrifice_to_keep_control", count: 2 });
  });

  it("refuses waiting commands when the token holds no seat (close 4003) and stays closed", async () => {
    const { conn } = connect();
    conn.start();
    const done = conn.act({ type: "resign" });
    const ws = FakeSocket.last();
    ws.open();
    ws.drop(4003);
    await expect(done).rejects.toMatchObject({ code: "bad_token" });
    expect(conn.snapshot().status).toBe("bad_token");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it("refuses what is unanswered when stopped", async () => {
    const { conn } = started(3);
    const done = conn.act({ type: "resign" });
    conn.stop();
    await expect(done).rejects.toMatchObject({ code: "closed" });
    expect(conn.snapshot().status).toBe("closed");
  });

  it("does not let spectators send commands", async () => {
    const { conn } = connect(null);
    await expect(conn.act({ type: "resign" })).rejects.toMatchObject({ code: "not_allowed" });
    await expect(conn.move(LINE)).rejects.toMatchObject({ code: "not_allowed" });
  });
});
