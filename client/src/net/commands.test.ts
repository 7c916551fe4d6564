import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Commands, newMoveId, type Command } from "./commands";
import { ApiError } from "./http";
import type { AckMessage, ErrorMessage } from "./types";

function wire(open = true) {
  const sent: Command[] = [];
  const link = { open };
  const commands = new Commands({ send: (msg) => (link.open ? (sent.push(msg), true) : false) });
  return { commands, sent, link };
}

const ack = (ref: string | null | undefined, extra: Partial<AckMessage> = {}): AckMessage => ({
  protocol: 3,
  type: "ack",
  room: "room1",
  version: 4,
  ref: ref ?? null,
  duplicate: false,
  ...extra,
});

const refusal = (ref: string | null | undefined, code: string, extra: Partial<ErrorMessage> = {}): ErrorMessage => ({
  protocol: 3,
  type: "error",
  room: "room1",
  version: 4,
  ref: ref ?? null,
  code,
  message: code,
  ...extra,
});

const MOVE: Extract<Command, { type: "move" }> = { type: "move", move: { line: [[0, 0], [1, 0]] }, version: 3 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Commands", () => {
  it("gives every move its own id", () => {
    expect(newMoveId()).not.toBe(newMoveId());
  });

  it("keeps commands issued before the welcome and sends them after it, in order", async () => {
    const { commands, sent } = wire();
    const move = commands.send({ ...MOVE, move_id: "m-1" });
    const offer = commands.send({ type: "offer", kind: "end" });
    expect(sent).toEqual([]);
    expect(commands.size).toBe(2);
    commands.connected();
    expect(sent.map((m) => m.type)).toEqual(["move", "offer"]);
    expect(sent[0]).toMatchObject({ move_id: "m-1", version: 3 });
    commands.onAck(ack(sent[0]!.ref));
    commands.onAck(ack(sent[1]!.ref));
    await expect(move).resolves.toMatchObject({ type: "ack" });
    await expect(offer).resolves.toMatchObject({ type: "ack" });
    expect(commands.size).toBe(0);
  });

  it("sends at once while connected, each with a ref of its own", () => {
    const { commands, sent } = wire();
    commands.connected();
    void commands.send({ type: "resign" });
    void commands.send({ type: "resign", ref: "mine" });
    expect(sent).toHaveLength(2);
    expect(sent[0]!.ref).toBeTruthy();
    expect(sent[1]!.ref).toBe("mine");
  });

  it("rejects with the refusal that names the command, details included", async () => {
    const { commands, sent } = wire();
    commands.connected();
    const move = commands.send({ ...MOVE, move_id: "m-1" });
    const ours = commands.onError(refusal(sent[0]!.ref, "move_id_reused", { details: { played: "a1-b1" } }));
    expect(ours).toBe(true);
    await expect(move).rejects.toMatchObject({ code: "move_id_reused", details: { played: "a1-b1" } });
    expect(commands.onError(refusal("unknown", "not_your_turn"))).toBe(false);
    expect(commands.onAck(ack("unknown"))).toBe(false);
  });

  it("resends an unanswered move with the same move id and ref after a reconnect", async () => {
    const { commands, sent, link } = wire();
    commands.connected();
    const move = commands.send({ ...MOVE, move_id: "m-7" });
    commands.disconnected();
    link.open = false;
    const later = commands.send({ type: "offer", kind: "restart" });
    link.open = true;
    commands.connected();
    expect(sent.map((m) => [m.type, m.ref])).toEqual([
      ["move", sent[0]!.ref],
      ["move", sent[0]!.ref],
      ["offer", sent[2]!.ref],
    ]);
    expect(sent[1]).toEqual(sent[0]);
    commands.onAck(ack(sent[1]!.ref, { move_id: "m-7", duplicate: true }));
    commands.onAck(ack(sent[2]!.ref));
    await expect(move).resolves.toMatchObject({ duplicate: true });
    await expect(later).resolves.toMatchObject({ type: "ack" });
  });

  it("refuses other commands that were sent on a socket that dropped, rather than do them twice", async () => {
    const { commands, sent } = wire();
    commands.connected();
    const undo = commands.send({ type: "undo" });
    commands.disconnected();
    commands.connected();
    await expect(undo).rejects.toMatchObject({ code: "network" });
    expect(sent.map((m) => m.type)).toEqual(["undo"]);
  });

  it("waits for retry_after after rate_limited, then sends the refused command again", async () => {
    const { commands, sent } = wire();
    commands.connected();
    const first = commands.send({ ...MOVE, move_id: "m-1" });
    const ref = sent[0]!.ref;
    expect(commands.onError(refusal(ref, "rate_limited", { retry_after: 0.5 }))).toBe(true);
    const second = commands.send({ type: "offer", kind: "end" });
    expect(sent).toHaveLength(1); // paused
    vi.advanceTimersByTime(499);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent.map((m) => [m.type, m.ref])).toEqual([
      ["move", ref],
      ["move", ref],
      ["offer", sent[2]!.ref],
    ]);
    commands.onAck(ack(ref));
    commands.onAck(ack(sent[2]!.ref));
    await expect(first).resolves.toMatchObject({ type: "ack" });
    await expect(second).resolves.toMatchObject({ type: "ack" });
  });

  it("sends a move again after storage was unavailable, but leaves another command's refusal to the player", async () => {
    const { commands, sent } = wire();
    commands.connected();
    const move = commands.send({ ...MOVE, move_id: "m-1" });
    const offer = commands.send({ type: "offer", kind: "end" });
    expect(commands.onError(refusal(sent[0]!.ref, "unavailable", { retry_after: 1 }))).toBe(true);
    expect(commands.onError(refusal(sent[1]!.ref, "unavailable", { retry_after: 1 }))).toBe(true);
    await expect(offer).rejects.toMatchObject({ code: "unavailable" });
    vi.advanceTimersByTime(1000);
    expect(sent.map((m) => m.type)).toEqual(["move", "offer", "move"]);
    expect(sent[2]).toEqual(sent[0]);
    commands.onAck(ack(sent[2]!.ref));
    await expect(move).resolves.toMatchObject({ type: "ack" });
  });

  it("pauses on a rate_limited that answers none of ours, and tells the caller", () => {
    const { commands, sent } = wire();
    commands.connected();
    expect(commands.onError(refusal(null, "rate_limited", { retry_after: 2 }))).toBe(false);
    void commands.send({ type: "resign" });
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(2000);
    expect(sent).toHaveLength(1);
  });

  it("refuses everything once the connection ended for good", async () => {
    const { commands, sent } = wire();
    const waiting = commands.send({ type: "resign" });
    commands.connected();
    const sentOne = commands.send({ ...MOVE, move_id: "m-1" });
    commands.fail(new ApiError("bad_token", "bad_token"));
    await expect(waiting).rejects.toMatchObject({ code: "bad_token" });
    await expect(sentOne).rejects.toMatchObject({ code: "bad_token" });
    expect(commands.size).toBe(0);
    expect(sent).toHaveLength(2);
  });
});
