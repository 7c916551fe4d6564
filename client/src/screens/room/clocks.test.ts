import { describe, expect, it } from "vitest";
import { clockFace, controlParts, deadlineOf, isLow, timeLeft } from "./clocks";

const live = { initial_seconds: 300, increment_seconds: 3, per_move: false };
const post = { initial_seconds: 3 * 86400, increment_seconds: 0, per_move: true };

describe("clocks", () => {
  it("count the running clock down from the status's arrival, and only that one", () => {
    const c = { left_ms: [60_000, 30_000] as [number, number], running: 1 as const, received_at: 1_000 };
    expect(timeLeft(c, 1, 6_000)).toBe(25_000);
    expect(timeLeft(c, 0, 6_000)).toBe(60_000);
    expect(timeLeft(c, 1, 100_000)).toBe(0);
    expect(timeLeft({ ...c, running: null }, 1, 100_000)).toBe(30_000);
    expect(deadlineOf(c)).toBe(31_000);
    expect(deadlineOf({ ...c, running: null })).toBeNull();
  });

  it("read m:ss, h:mm:ss, and days with hours for correspondence", () => {
    expect(clockFace(300_000, "en")).toBe("5:00");
    expect(clockFace(59_001, "en")).toBe("1:00");
    expect(clockFace(9_000, "en")).toBe("0:09");
    expect(clockFace(300, "en")).toBe("0:01");
    expect(clockFace(0, "en")).toBe("0:00");
    expect(clockFace(2 * 3600_000 + 61_000, "en")).toBe("2:01:01");
    expect(clockFace(2 * 86400_000 + 5 * 3600_000, "en")).toBe("2d 5h");
    expect(clockFace(86400_000, "en")).toBe("1d");
    expect(clockFace(2 * 86400_000, "ru")).toMatch(/^2\s?д/);
  });

  it("turn urgent near the end", () => {
    expect(isLow(20_000, live)).toBe(true);
    expect(isLow(40_000, live)).toBe(false);
    expect(isLow(90_000, live)).toBe(false);
    expect(isLow(10 * 3600_000, post)).toBe(true);
    expect(isLow(2 * 86400_000, post)).toBe(false);
    expect(controlParts(live)).toEqual({ minutes: 5, increment: 3 });
    expect(controlParts(post)).toEqual({ days: 3 });
  });
});
