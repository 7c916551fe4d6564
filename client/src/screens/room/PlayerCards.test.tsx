import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render } from "@testing-library/preact";
import { fromSnapshot, type ServerSnapshot } from "../../net";
import { PlayerCards } from "./PlayerCards";
import { InvitePanel } from "./InvitePanel";
import type { People } from "./people";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const people: People = [
  { name: "You", letter: "1", colour: "gold", gender: "you" },
  { name: "Friend", letter: "2", colour: "coral", gender: "neuter" },
];

function clocked(leftMs: [number, number], running: 0 | 1 | null): ServerSnapshot {
  return {
    id: "r",
    game: "boxes",
    mode: "live",
    version: 3,
    game_number: 1,
    level: null,
    daily: null,
    computer_seat: null,
    seats: [
      { seat: 0, kind: "human", taken: true, connected: true, colour: "gold" },
      { seat: 1, kind: "human", taken: true, connected: true, colour: "coral" },
    ],
    spectators: 0,
    requests: [],
    move_count: 1,
    status: { to_move: 1, scores: [0, 0], outcome: null, thinking: false, allowed: [[], []], clock: { left_ms: leftMs, running } },
    board: { game: "boxes", rows: 2, cols: 2, lines: [{ line: [[0, 0], [1, 0]], player: 0 }], boxes: [], last_move: { line: [[0, 0], [1, 0]] } },
    expires_in_seconds: null,
    time_control: { initial_seconds: 300, increment_seconds: 3, per_move: false },
  };
}

describe("the player cards' clocks", () => {
  it("count the running clock down on their own and take every status's word over it", () => {
    vi.useFakeTimers();
    vi.setSystemTime(100_000);
    const state = fromSnapshot(clocked([303_000, 300_000], 1), Date.now());
    const { getByTestId, rerender } = render(<PlayerCards state={state} people={people} mySeat={0} />);
    expect(getByTestId("clock-0").textContent).toBe("5:03");
    expect(getByTestId("clock-1").textContent).toBe("5:00");
    expect(getByTestId("clock-1").classList.contains("running")).toBe(true);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(getByTestId("clock-1").textContent).toBe("4:50");
    expect(getByTestId("clock-0").textContent).toBe("5:03");
    // The next status says what the server counted: the cards follow it.
    rerender(<PlayerCards state={fromSnapshot(clocked([303_000, 295_500], 0), Date.now())} people={people} mySeat={0} />);
    expect(getByTestId("clock-1").textContent).toBe("4:56");
    expect(getByTestId("clock-0").classList.contains("running")).toBe(true);
  });

  it("are not shown in a room without clocks", () => {
    const plain = { ...clocked([1, 1], null), time_control: null };
    plain.status = { ...plain.status, clock: null };
    const { queryByRole } = render(<PlayerCards state={fromSnapshot(plain, 0)} people={people} mySeat={0} />);
    expect(queryByRole("timer")).toBeNull();
  });
});

describe("the invitation", () => {
  it("says what the link does in each game, and that a Dots friend has arrived", () => {
    const boxes = render(<InvitePanel url="http://x/r/a#invite=b" expiry={null} game="boxes" friendHere={false} clocks={null} />);
    expect(boxes.getByTestId("invite").textContent).toContain("first person who opens it takes the second seat");
    cleanup();
    const dots = render(<InvitePanel url="http://x/r/a#invite=b" expiry={null} game="dots" friendHere={false} clocks="Clocks: 5 minutes" />);
    expect(dots.getByTestId("invite").textContent).toContain("press Join");
    expect(dots.getByTestId("invite").textContent).toContain("Clocks: 5 minutes");
    expect(dots.getByTestId("invite-waiting").textContent).toContain("Waiting for your friend");
    cleanup();
    const arrived = render(<InvitePanel url="http://x/r/a#invite=b" expiry={null} game="dots" friendHere clocks={null} />);
    expect(arrived.getByTestId("invite-waiting").textContent).toContain("Your friend has opened the link");
  });
});
