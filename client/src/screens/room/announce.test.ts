import { describe, expect, it } from "vitest";
import { makeTranslator } from "../../i18n";
import type { RoomState, AppliedEvent } from "../../net";
import { announceEvent, type AnnounceContext } from "./announce";

const tr = makeTranslator("en");
const people: AnnounceContext["people"] = [
  { name: "You", letter: "Y", colour: "gold" },
  { name: "Computer", letter: "C", colour: "coral" },
];
const ctx: AnnounceContext = { tr, people, mySeat: 0, mode: "computer", game: "boxes" };

function state(scores: [number, number]): RoomState {
  return { scores } as unknown as RoomState;
}

function move(seat: 0 | 1, line: [[number, number], [number, number]]): AppliedEvent {
  return { version: 5, event: { kind: "move", seat, move: { line } } } as AppliedEvent;
}

describe("announcements", () => {
  it("says the other side's line, and the boxes it closed", () => {
    expect(announceEvent(move(1, [[0, 0], [1, 0]]), state([0, 0]), state([0, 0]), ctx)).toBe("Computer drew line from 0,0 to 1,0.");
    expect(announceEvent(move(1, [[0, 1], [1, 1]]), state([0, 0]), state([0, 2]), ctx)).toBe(
      "Computer drew line from 0,1 to 1,1. Computer: 2 boxes closed.",
    );
  });

  it("keeps quiet about my own line unless it closed a box", () => {
    expect(announceEvent(move(0, [[0, 0], [1, 0]]), state([0, 0]), state([0, 0]), ctx)).toBeNull();
    expect(announceEvent(move(0, [[0, 0], [1, 0]]), state([0, 0]), state([1, 0]), ctx)).toBe("You: one box closed.");
  });

  it("tells Dots captures, offers and the end by agreement", () => {
    const dots: AnnounceContext = { ...ctx, game: "dots", mode: "live", people: [people[0], { name: "Friend", letter: "2", colour: "pencil" }] };
    const placed = { version: 3, event: { kind: "move", seat: 1, move: { point: [4, 5] } } } as AppliedEvent;
    expect(announceEvent(placed, state([0, 0]), state([0, 3]), dots)).toBe("Friend put a mark on point 4, 5. Friend: 3 marks captured.");
    const offer = { version: 4, event: { kind: "requested", request: "end", seat: 1 } } as AppliedEvent;
    expect(announceEvent(offer, null, null, dots)).toBe("Friend offers to end the game here; the score decides.");
    const ended = { version: 5, event: { kind: "ended", reason: "agreement", seat: null } } as AppliedEvent;
    expect(announceEvent(ended, null, null, dots)).toBe("Ended by agreement.");
  });
});
