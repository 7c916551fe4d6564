import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, waitFor } from "@testing-library/preact";
import { ApiError, fromSnapshot, type LineValues, type RoomState, type ServerSnapshot } from "../../net";
import { LineValuesNote, notesOf, offersLineValues, useLineValues, type LineValuesState } from "./LineValues";

afterEach(cleanup);

type P = [number, number];
const line = (a: P, b: P) => ({ line: [a, b] as [P, P] });

function room(over: Partial<ServerSnapshot> = {}, version = 1): RoomState {
  return fromSnapshot({
    id: "r",
    game: "boxes",
    mode: "computer",
    version,
    game_number: 1,
    level: "easy",
    daily: null,
    computer_seat: 1,
    seats: [
      { seat: 0, kind: "human", taken: true, connected: true, colour: "gold" },
      { seat: 1, kind: "computer", taken: true, connected: true, colour: "coral" },
    ],
    spectators: 0,
    requests: [],
    move_count: 0,
    status: { to_move: 0, scores: [0, 0], outcome: null, thinking: false, allowed: [["hint"], []] },
    board: { game: "boxes", rows: 1, cols: 1, lines: [], boxes: [], last_move: null },
    expires_in_seconds: null,
    ...over,
  });
}

// On a single box, gold to move: every line gives the box away except none — here the
// top line is valued best (0) and the left one gives away one box.
const exact: LineValues = {
  to_move: 0,
  exact: true,
  value: 1,
  complete: true,
  best: [line([0, 0], [1, 0])],
  values: [
    { move: line([0, 0], [1, 0]), value: 1 },
    { move: line([0, 0], [0, 1]), value: -1 },
  ],
};

function Probe(props: { conn: { lineValues: () => Promise<{ version: number; values: LineValues } | null> }; state: RoomState; myTurn: boolean; on: boolean; seen: (s: LineValuesState) => void }) {
  props.seen(useLineValues(props.conn, props.state, props.myTurn, props.on));
  return null;
}

describe("line values in practice", () => {
  it("are offered only in Dots and Boxes against the computer, never on the daily board", () => {
    expect(offersLineValues(room())).toBe(true);
    expect(offersLineValues(room({ daily: "2026-12-01" }))).toBe(false);
    expect(offersLineValues(room({ mode: "live" }))).toBe(false);
    expect(offersLineValues({ ...room(), game: "dots" } as unknown as RoomState)).toBe(false);
  });

  it("are asked once per position on the player's turn, only while on, and never shown for another position", async () => {
    const lineValues = vi.fn(async () => ({ version: 1, values: exact }));
    const conn = { lineValues };
    let last: LineValuesState | null = null;
    const seen = (s: LineValuesState) => (last = s);
    const view = render(<Probe conn={conn} state={room()} myTurn={true} on={false} seen={seen} />);
    expect(lineValues).not.toHaveBeenCalled();
    view.rerender(<Probe conn={conn} state={room()} myTurn={true} on={true} seen={seen} />);
    await waitFor(() => expect(last!.values).toEqual(exact));
    expect(lineValues).toHaveBeenCalledTimes(1);
    expect([...notesOf(last!)!]).toEqual([
      ["h:0:0", { text: "0", best: true, cost: 0 }],
      ["v:0:0", { text: "−1", best: false, cost: 1 }],
    ]);
    // The computer's turn: nothing asked, nothing shown.
    view.rerender(<Probe conn={conn} state={room({}, 2)} myTurn={false} on={true} seen={seen} />);
    expect(last!.values).toBeNull();
    expect(lineValues).toHaveBeenCalledTimes(1);
    // A new position on the player's turn is asked again; the old values stay hidden.
    lineValues.mockImplementation(async () => ({ version: 3, values: { ...exact, exact: false, values: [] } }));
    view.rerender(<Probe conn={conn} state={room({}, 3)} myTurn={true} on={true} seen={seen} />);
    await waitFor(() => expect(last!.values?.exact).toBe(false));
    expect(lineValues).toHaveBeenCalledTimes(2);
    expect(notesOf(last!)!.size).toBe(0);
  });

  it("say what the notes mean, why there are none, or what the server refused", () => {
    const note = (found: Partial<LineValuesState>, myTurn = true) => {
      const view = render(<LineValuesNote found={{ values: null, waiting: false, error: null, ...found }} myTurn={myTurn} />);
      const text = view.getByTestId("line-values").textContent;
      view.unmount();
      return text;
    };
    expect(note({ values: exact })).toContain("Each undrawn line shows the boxes it gives away");
    expect(note({ values: { ...exact, exact: false, values: [] } })).toContain("Too many lines are left");
    expect(note({ waiting: true })).toContain("Valuing the lines");
    expect(note({}, false)).toContain("come back on your turn");
    expect(note({ error: new ApiError("rate_limited", "wait") })).not.toContain("Valuing");
  });
});
