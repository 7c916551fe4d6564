import { describe, expect, it } from "vitest";
import { myGames, opponentOf, resultOf } from "./myGames";
import type { PlayedGame, SeatRecord } from "../storage";

const seat = (roomId: string, updatedAt: number, over: boolean, gameNumber = 1): SeatRecord => ({
  roomId,
  token: "t",
  seat: 0,
  game: "boxes",
  mode: "computer",
  size: "3×3",
  createdAt: 0,
  updatedAt,
  summary: { version: 3, scores: [2, 1], toMove: 0, isOver: over, level: "easy", gameNumber },
});

const played = (roomId: string, gameNumber: number, finishedAt: number): PlayedGame => ({
  gameId: `${roomId}-${gameNumber}`,
  roomId,
  gameNumber,
  game: "dots",
  mode: "live",
  size: "15×15",
  seat: 1,
  scores: [3, 5],
  finishedAt,
});

describe("my games", () => {
  it("lists finished and unfinished games newest first, each once", () => {
    const rows = myGames([seat("open", 30, false), seat("done", 10, true, 2), seat("kept", 5, true)], [played("old", 1, 1), played("kept", 1, 20)]);
    expect(rows.map((r) => [r.href, r.finished])).toEqual([
      ["/r/open", false],
      ["/g/kept-1", true],
      ["/g/done-2", true],
      ["/g/old-1", true],
    ]);
  });

  it("says who won from this browser's seat", () => {
    const [row] = myGames([], [played("a", 1, 1)]);
    expect(resultOf(row!)).toBe("won");
    expect(resultOf({ ...row!, seat: 0 })).toBe("lost");
    expect(resultOf({ ...row!, mode: "local" })).toBeNull();
    expect(resultOf({ ...row!, finished: false })).toBeNull();
    expect(resultOf({ ...row!, scores: [4, 4] })).toBe("draw");
  });

  it("counts a resigned game as lost whatever its score", () => {
    const [row] = myGames([], [{ ...played("r", 1, 1), seat: 0, scores: [1, 0], winner: 1, reason: "resignation" }]);
    expect(row!.reason).toBe("resignation");
    expect(resultOf(row!)).toBe("lost");
    expect(resultOf({ ...row!, seat: 1 })).toBe("won");
    expect(resultOf({ ...row!, winner: null })).toBe("draw");
  });

  it("names the other seat's holder when it has a name, with whether it is a bot", () => {
    const seats = [
      { seat: 0 as const, colour: "gold" as const, kind: "human" as const, taken: true, connected: true, name: "Ann" },
      { seat: 1 as const, colour: "coral" as const, kind: "human" as const, taken: true, connected: true, name: "Greedy", bot: true },
    ];
    expect(opponentOf({ seats }, 0)).toEqual({ name: "Greedy", bot: true });
    expect(opponentOf({ seats }, 1)).toEqual({ name: "Ann", bot: false });
    expect(opponentOf({ seats }, null)).toBeNull();
    expect(opponentOf({ seats: [seats[0]!, { ...seats[1]!, name: null, bot: false }] }, 0)).toBeNull();
    const [row] = myGames([], [{ ...played("b", 1, 1), opponent: { name: "Greedy", bot: true } }]);
    expect(row!.opponent).toEqual({ name: "Greedy", bot: true });
    const [open] = myGames([{ ...seat("o", 1, false), summary: { ...seat("o", 1, false).summary!, opponent: { name: "Ann", bot: false } } }], []);
    expect(open!.opponent).toEqual({ name: "Ann", bot: false });
  });
});
