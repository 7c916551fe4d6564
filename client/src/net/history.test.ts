import { describe, expect, it } from "vitest";
import { RoomHistory, type AppliedEvent } from "./history";
import { moveEvent, resync, SEATS, snapshot, welcome } from "./testKit";

function history(start: number | null = 3) {
  const syncs: Array<number | null> = [];
  const applied: AppliedEvent[] = [];
  const link = { open: true };
  let clock = 1000;
  const h = new RoomHistory({
    requestSync: (since) => {
      if (!link.open) return false;
      syncs.push(since);
      return true;
    },
    onApplied: (ev) => applied.push(ev),
    now: () => clock,
  });
  if (start !== null) h.welcome(welcome(start));
  return { h, syncs, applied, link, tick: (ms: number) => (clock += ms) };
}

describe("RoomHistory", () => {
  it("applies events in version order and ignores duplicates", () => {
    const { h, applied, syncs } = history(3);
    h.event(moveEvent(4, 0));
    h.event(moveEvent(4, 0));
    h.event(moveEvent(3, 0));
    h.event(moveEvent(5, 1));
    expect(applied.map((e) => e.version)).toEqual([4, 5]);
    expect(h.version).toBe(5);
    const state = h.state!;
    expect(state.game).toBe("boxes");
    if (state.game === "boxes") expect(state.board.lines).toHaveLength(2);
    expect(state.legal_moves).toHaveLength(5);
    expect(syncs).toEqual([]);
  });

  it("sends one sync on a gap, keeps later events, and applies them after the resync", () => {
    const { h, applied, syncs } = history(3);
    h.event(moveEvent(5, 1));
    h.event(moveEvent(6, 2));
    h.event(moveEvent(7, 3));
    expect(syncs).toEqual([3]);
    expect(h.version).toBe(3);
    h.resync(resync(6, { events: [moveEvent(4, 0), moveEvent(5, 1), moveEvent(6, 2)] }));
    expect(applied.map((e) => e.version)).toEqual([4, 5, 6, 7]);
    expect(h.version).toBe(7);
    expect(syncs).toEqual([3]);
  });

  it("skips the events of a resync it already holds", () => {
    const { h, applied } = history(3);
    h.event(moveEvent(4, 0));
    h.event(moveEvent(5, 1));
    h.resync(resync(6, { events: [moveEvent(4, 0), moveEvent(5, 1), moveEvent(6, 2)] }));
    expect(applied.map((e) => e.version)).toEqual([4, 5, 6]);
    expect(h.version).toBe(6);
  });

  it("takes the snapshot a resync brings when the kept events no longer cover the gap", () => {
    const { h, applied } = history(3);
    h.event(moveEvent(9, 1));
    h.resync(resync(9, { snapshot: snapshot(9, 4) }));
    expect(h.version).toBe(9);
    expect(h.state!.move_count).toBe(4);
    expect(applied).toEqual([]);
  });

  it("catches up from the events of a welcome after a reconnect", () => {
    const { h, applied } = history(3);
    h.welcome(welcome(5, { snapshot: null, events: [moveEvent(4, 0), moveEvent(5, 1)] }));
    expect(applied.map((e) => e.version)).toEqual([4, 5]);
    expect(h.version).toBe(5);
  });

  it("asks again on the next gap when a sync could not be sent, and forgets it on a new socket", () => {
    const { h, syncs, link } = history(3);
    link.open = false;
    h.event(moveEvent(5, 1));
    expect(syncs).toEqual([]);
    link.open = true;
    h.event(moveEvent(6, 2));
    expect(syncs).toEqual([3]);
    h.reset();
    h.event(moveEvent(7, 3));
    expect(syncs).toEqual([3, 3]);
  });

  it("takes a REST snapshot only when it is newer than what it holds", () => {
    const { h } = history(null);
    expect(h.version).toBeNull();
    h.seed(snapshot(5, 2));
    expect(h.version).toBe(5);
    h.seed(snapshot(4, 1));
    expect(h.state!.move_count).toBe(2);
  });

  it("keeps who is connected from presence messages", () => {
    const { h } = history(3);
    const away = SEATS.map((s) => (s.seat === 1 ? { ...s, connected: false } : s));
    h.presence({ protocol: 3, type: "presence", room: "room1", version: 3, seats: away, spectators: 2 });
    expect(h.state!.seats[1]!.connected).toBe(false);
    expect(h.state!.spectators).toBe(2);
  });

  describe("the status rule", () => {
    it("keeps `allowed` when an event leaves it out and takes it when sent", () => {
      const { h } = history(3);
      expect(h.state!.allowed).toEqual([["resign"], ["resign"]]);
      h.event(moveEvent(4, 0));
      expect(h.state!.allowed).toEqual([["resign"], ["resign"]]);
      h.event(moveEvent(5, 1, { allowed: [["offer_end", "resign"], []] }));
      expect(h.state!.allowed).toEqual([["offer_end", "resign"], []]);
    });

    it("replaces thinking and the outcome with every status", () => {
      const { h } = history(3);
      h.event(moveEvent(4, 0, { thinking: true }));
      expect(h.state!.thinking).toBe(true);
      h.event(moveEvent(5, 1, { thinking: false }));
      expect(h.state!.thinking).toBe(false);
      h.event(moveEvent(6, 2, { outcome: { winner: 1, reason: "resignation" } }));
      expect(h.state!.is_over).toBe(true);
      expect(h.state!.legal_moves).toEqual([]);
      h.event(moveEvent(7, 3, { outcome: null }));
      expect(h.state!.is_over).toBe(false);
      expect(h.state!.outcome).toBeNull();
    });

    it("carries the clocks of a clocked room with the time each status arrived", () => {
      const { h, tick } = history(null);
      h.welcome(welcome(3, { snapshot: snapshot(3, 0, { clock: { left_ms: [300_000, 300_000], running: null } }) }));
      expect(h.state!.clock).toEqual({ left_ms: [300_000, 300_000], running: null, received_at: 1000 });
      tick(2500);
      h.event(moveEvent(4, 0, { clock: { left_ms: [299_000, 300_000], running: 1 } }));
      expect(h.state!.clock).toEqual({ left_ms: [299_000, 300_000], running: 1, received_at: 3500 });
    });

    it("takes the clocks a welcome tells as they are now, not as its events' statuses were written", () => {
      const { h, tick } = history(null);
      h.welcome(welcome(3, { snapshot: snapshot(3, 0, { clock: { left_ms: [300_000, 300_000], running: null } }) }));
      tick(60_000); // offline for a minute; meanwhile a move was made and coral's clock ran
      const missed = moveEvent(4, 0, { clock: { left_ms: [299_000, 300_000], running: 1 } });
      h.welcome(welcome(4, { snapshot: null, events: [missed], clock: { left_ms: [299_000, 250_000], running: 1 } }));
      expect(h.state!.clock).toEqual({ left_ms: [299_000, 250_000], running: 1, received_at: 61_000 });
    });

    it("has no clock in a room without one", () => {
      const { h } = history(3);
      h.event(moveEvent(4, 0));
      expect(h.state!.clock).toBeNull();
      expect(h.state!.time_control).toBeNull();
    });
  });
});

describe("RoomHistory under any delivery", () => {
  // A small seeded generator, so a failing case can be run again by its seed.
  function generator(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it("applies each event exactly once and in order, whatever is lost, repeated or late", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = generator(seed);
      const start = 3;
      const count = 1 + Math.floor(random() * 5); // LINES has five
      const all = Array.from({ length: count }, (_, i) => moveEvent(start + 1 + i, i));
      const asked: Array<number | null> = [];
      const applied: number[] = [];
      const h = new RoomHistory({ requestSync: (since) => (asked.push(since), true), onApplied: (ev) => applied.push(ev.version) });
      h.welcome(welcome(start));
      // The socket delivers each event zero to two times, some of them late.
      const delivery: typeof all = [];
      for (const ev of all) {
        const times = Math.floor(random() * 3);
        for (let k = 0; k < times; k++) delivery.splice(delivery.length - Math.floor(random() * Math.min(2, delivery.length + 1)), 0, ev);
      }
      for (const ev of delivery) {
        h.event(ev);
        // The server answers a sync at some point with what came after the version named.
        if (asked.length && random() < 0.5) {
          const since = asked.shift()!;
          h.resync(resync(start + count, { events: all.filter((e) => since === null || e.version > since) }));
        }
      }
      for (let round = 0; asked.length && round < 20; round++) {
        const since = asked.shift()!;
        h.resync(resync(start + count, { events: all.filter((e) => since === null || e.version > since) }));
      }
      if (h.version !== start + count) {
        h.sync(); // still behind: what a client does when it learns the room moved on
        const since = asked.shift()!;
        h.resync(resync(start + count, { events: all.filter((e) => since === null || e.version > since) }));
      }
      const expected = all.map((e) => e.version);
      expect({ seed, applied }).toEqual({ seed, applied: expected });
      const state = h.state!;
      expect(state.game === "boxes" && state.board.lines.length).toBe(count);
      expect(state.move_count).toBe(count);
    }
  });
});
