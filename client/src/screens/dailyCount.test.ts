import { describe, expect, it } from "vitest";
import { BrowserStorage, type KeyValue } from "../storage";
import { dailyStanding, dayText } from "./dailyCount";

function mem(): KeyValue {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

describe("board of the day counting", () => {
  it("counts the first finished game of a day and marks every later one as practice", () => {
    const s = new BrowserStorage(mem());
    const day = "2026-11-02";
    const first = { roomId: "r1", gameNumber: 1 };
    expect(dailyStanding(s.dailyRecord(day), first)).toBe("open");
    s.countDaily(day, { ...first, boxes: 14, total: 25 });
    expect(dailyStanding(s.dailyRecord(day), first)).toBe("counted");
    // Play again in the same room, or a new room the same day: practice.
    expect(dailyStanding(s.dailyRecord(day), { roomId: "r1", gameNumber: 2 })).toBe("practice");
    expect(dailyStanding(s.dailyRecord(day), { roomId: "r2", gameNumber: 1 })).toBe("practice");
    // A better replay never replaces the counted result.
    const kept = s.countDaily(day, { roomId: "r2", gameNumber: 1, boxes: 20, total: 25 });
    expect(kept.boxes).toBe(14);
    expect(s.dailyRecord(day)!.roomId).toBe("r1");
    // The next day starts open again.
    expect(dailyStanding(s.dailyRecord("2026-11-03"), { roomId: "r3", gameNumber: 1 })).toBe("open");
  });

  it("keeps one player id of 128 random bits per browser", () => {
    const kv = mem();
    const id = new BrowserStorage(kv).dailyPlayer();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new BrowserStorage(kv).dailyPlayer()).toBe(id);
    expect(new BrowserStorage(mem()).dailyPlayer()).not.toBe(id);
  });

  it("forgets days long past", () => {
    const s = new BrowserStorage(mem());
    for (let d = 1; d <= 45; d++) {
      const date = `2026-01-${String(d).padStart(2, "0")}`;
      s.countDaily(date, { roomId: `r${d}`, gameNumber: 1, boxes: d % 25, total: 25 });
    }
    expect(s.dailyRecord("2026-01-01")).toBeNull();
    expect(s.dailyRecord("2026-01-45")!.roomId).toBe("r45");
    expect(s.dailyRecord("2026-01-06")!.roomId).toBe("r6");
  });

  it("writes the day as each language does", () => {
    expect(dayText("2026-12-01", "en")).toBe("December 1, 2026");
    expect(dayText("2026-12-01", "ru")).toBe("1 декабря 2026 г.");
    expect(dayText("2026-12-01", "cs")).toBe("1. prosince 2026");
  });
});
