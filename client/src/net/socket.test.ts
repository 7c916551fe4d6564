import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RoomSocket, roomSocketUrl, type ConnStatus } from "./socket";
import { FakeSocket, moveEvent, welcome } from "./testKit";
import type { ServerMessage } from "./types";

const live: RoomSocket[] = [];

function socket(opts: { token?: string | null; since?: number | null } = {}) {
  const welcomes: number[] = [];
  const messages: ServerMessage[] = [];
  const downs: ConnStatus[] = [];
  const statuses: ConnStatus[] = [];
  const sock = new RoomSocket(
    {
      url: "ws://test/api/rooms/room1/ws",
      token: opts.token === undefined ? "tok" : opts.token,
      createSocket: (url) => new FakeSocket(url),
      backoffBase: 100,
      backoffMax: 1000,
      random: () => 0.5,
    },
    {
      since: () => opts.since ?? null,
      onWelcome: (msg) => welcomes.push(msg.version),
      onMessage: (msg) => messages.push(msg),
      onDown: (s) => downs.push(s),
      onStatus: (s) => statuses.push(s),
    },
  );
  live.push(sock);
  return { sock, welcomes, messages, downs, statuses };
}

function online(opts: { since?: number | null } = {}) {
  const s = socket(opts);
  s.sock.start();
  const ws = FakeSocket.last();
  ws.open();
  ws.receive(welcome(3));
  return { ...s, ws };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => {
  for (const s of live.splice(0)) s.stop();
  vi.useRealTimers();
});

describe("RoomSocket", () => {
  it("builds the room's websocket address from the page's", () => {
    expect(roomSocketUrl("a b", { protocol: "https:", host: "example.org" })).toBe("wss://example.org/api/rooms/a%20b/ws");
    expect(roomSocketUrl("r1", { protocol: "http:", host: "localhost:8000" })).toBe("ws://localhost:8000/api/rooms/r1/ws");
  });

  it("says hello first with the token and the version held, and is online only after the welcome", () => {
    const { sock, welcomes, statuses } = socket({ since: 7 });
    sock.start();
    expect(sock.status).toBe("connecting");
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sent).toEqual([{ type: "hello", token: "tok", since: 7 }]);
    expect(sock.online).toBe(false);
    expect(sock.send({ type: "ping" })).toBe(false);
    ws.receive(welcome(7, { snapshot: null }));
    expect(welcomes).toEqual([7]);
    expect(sock.online).toBe(true);
    expect(statuses.at(-1)).toBe("online");
    expect(sock.send({ type: "ping" })).toBe(true);
  });

  it("hands on the messages of a welcomed socket only", () => {
    const { sock, messages } = socket();
    sock.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.receive({ protocol: 3, type: "error", room: "room1", version: 0, ref: null, code: "bad_token", message: "no seat" });
    expect(messages).toEqual([]);
    ws.receive(welcome(3));
    ws.receive(moveEvent(4, 0));
    expect(messages.map((m) => m.type)).toEqual(["event"]);
  });

  it("reconnects with growing backoff until a welcome, then starts counting again", () => {
    const { sock, ws, downs } = online();
    ws.drop(1006);
    expect(downs).toEqual(["reconnecting"]);
    expect(sock.status).toBe("reconnecting");
    vi.advanceTimersByTime(99);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(2);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.last().drop(1006); // never opened
    expect(sock.attempt).toBe(2);
    vi.advanceTimersByTime(199);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(2);
    const third = FakeSocket.last();
    third.open();
    third.receive(welcome(3, { snapshot: null }));
    expect(sock.attempt).toBe(0);
    expect(sock.status).toBe("online");
  });

  it.each([
    [4001, "taken_over"],
    [4003, "bad_token"],
    [4004, "gone"],
    [4010, "gone"],
  ] as const)("stops for good on close %i (%s)", (code, status) => {
    const { sock, ws, downs } = online();
    ws.drop(code);
    expect(sock.status).toBe(status);
    expect(downs).toEqual([status]);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it("does not reconnect after a bad token even before any welcome", () => {
    const { sock } = socket({ token: "wrong" });
    sock.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.drop(4003);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(sock.status).toBe("bad_token");
  });

  it.each([4008, 4009, 1009, 1013, 1006])("reconnects after close %i", (code) => {
    const { ws } = online();
    ws.drop(code);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("takes a seat back after a takeover only when asked", () => {
    const { sock, ws } = online();
    ws.drop(4001);
    sock.retryNow();
    expect(FakeSocket.all).toHaveLength(1);
    sock.reclaim();
    expect(FakeSocket.all).toHaveLength(2);
    expect(sock.status).toBe("reconnecting");
  });

  it("skips the backoff wait when asked to retry now", () => {
    const { sock, ws } = online();
    ws.drop(1006);
    sock.retryNow();
    expect(FakeSocket.all).toHaveLength(2);
    sock.retryNow(); // a socket is already on its way
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("pings, and treats a silent socket as dead", () => {
    const { ws, downs } = online();
    vi.advanceTimersByTime(5_000);
    expect(ws.sentOf("ping")).toHaveLength(1);
    vi.advanceTimersByTime(15_000);
    expect(ws.closedWith).toBe(4000);
    expect(downs).toEqual(["reconnecting"]);
  });

  it("closes cleanly when stopped and never reconnects", () => {
    const { sock, ws, downs } = online();
    sock.stop();
    expect(ws.closedWith).toBe(1000);
    expect(sock.status).toBe("closed");
    expect(downs).toEqual(["closed"]);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
