import { describe, expect, it } from "vitest";
import { applyEvent, fromSnapshot } from "./roomModel";
import type { DotsBoardView, EventMessage, ServerSnapshot } from "./types";

const SEATS = [
  { seat: 0 as const, kind: "human" as const, taken: true, connected: true, colour: "gold" as const },
  { seat: 1 as const, kind: "human" as const, taken: false, connected: false, colour: "coral" as const },
];

function dotsSnapshot(): ServerSnapshot {
  return {
    id: "r",
    game: "dots",
    mode: "correspondence",
    version: 5,
    game_number: 1,
    level: null,
    daily: null,
    computer_seat: null,
    seats: SEATS,
    spectators: 0,
    requests: [{ kind: "end", seat: 0 }],
    move_count: 3,
    status: { to_move: 0, scores: [0, 0], outcome: null, thinking: false, allowed: [["resign"], ["resign"]] },
    board: {
      game: "dots",
      width: 5,
      height: 5,
      start: "empty",
      win_margin: null,
      grounding: false,
      marks: [
        [2, 1, 0],
        [2, 2, 1],
        [1, 2, 0],
      ],
      areas: [],
      houses: [{ key: [4, 4], owner: 0, chain: [[4, 3], [3, 4]], inside: [[4, 4]] }],
      ungrounded: [],
      last_move: { point: [1, 2] },
    },
    expires_in_seconds: null,
  };
}

type StatusChange = Omit<EventMessage["status"], "outcome" | "thinking"> & Partial<EventMessage["status"]>;

/** An event message; the status names no outcome and no thinking computer unless given. */
function event(version: number, event: EventMessage["event"], status: StatusChange): EventMessage {
  return { protocol: 3, type: "event", room: "r", version, event, status: { outcome: null, thinking: false, ...status } };
}

describe("the room model", () => {
  it("derives playable points and captured marks from the areas an event brings", () => {
    let room = fromSnapshot(dotsSnapshot());
    expect(room.legal_moves).toHaveLength(22);
    room = applyEvent(room, event(6, { kind: "declined", request: "end", seat: null }, { to_move: 0, scores: [0, 0] }));
    expect(room.requests).toEqual([]);
    room = applyEvent(
      room,
      event(
        7,
        {
          kind: "move",
          seat: 0,
          move: { point: [3, 2] },
          captures: [{ key: [2, 2], captor: 0, chain: [[2, 1], [3, 2], [2, 3], [1, 2]], inside: [[2, 2]] }],
          houses_removed: [[4, 4, 0]],
        },
        { to_move: 1, scores: [1, 0], allowed: [["resign", "offer_end"], ["resign"]] },
      ),
    );
    const board = room.board as DotsBoardView;
    expect(board.marks.find((m) => m.point[0] === 2 && m.point[1] === 2)).toEqual({ point: [2, 2], owner: 1, captured: true });
    expect(board.houses).toEqual([]);
    expect(room.legal_moves).toHaveLength(21);
    expect(room.scores).toEqual([1, 0]);
    expect(room.allowed[0]).toContain("offer_end");
    expect(room.last_move).toEqual({ point: [3, 2] });
    expect(room.move_count).toBe(4);
  });

  it("refuses an event that does not follow the version it holds", () => {
    const room = fromSnapshot(dotsSnapshot());
    expect(() => applyEvent(room, event(7, { kind: "joined", seat: 1 }, { to_move: 0, scores: [0, 0] }))).toThrow();
    expect(applyEvent(room, event(6, { kind: "joined", seat: 1 }, { to_move: 0, scores: [0, 0] })).seats[1]!.taken).toBe(true);
  });

  it("ends the game with the outcome of the status", () => {
    const room = applyEvent(
      fromSnapshot(dotsSnapshot()),
      event(6, { kind: "ended", reason: "resignation", seat: 1 }, { to_move: 1, scores: [0, 0], outcome: { winner: 0, reason: "resignation" } }),
    );
    expect(room.is_over).toBe(true);
    expect(room.legal_moves).toEqual([]);
    expect(room.requests).toEqual([]);
  });

  it("keeps the clocks of a clocked room, stamped with when each status arrived", () => {
    const snap = { ...dotsSnapshot(), time_control: { initial_seconds: 300, increment_seconds: 3, per_move: false } };
    snap.status = { ...snap.status, clock: { left_ms: [300_000, 300_000], running: null } };
    let room = fromSnapshot(snap, 1_000);
    expect(room.time_control?.initial_seconds).toBe(300);
    expect(room.clock).toEqual({ left_ms: [300_000, 300_000], running: null, received_at: 1_000 });
    room = applyEvent(
      room,
      event(6, { kind: "move", seat: 0, move: { point: [3, 3] } }, { to_move: 1, scores: [0, 0], clock: { left_ms: [303_000, 300_000], running: 1 } }),
      9_000,
    );
    expect(room.clock).toEqual({ left_ms: [303_000, 300_000], running: 1, received_at: 9_000 });
    expect(fromSnapshot(dotsSnapshot()).clock).toBeNull();
  });
});
