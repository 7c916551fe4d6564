import { describe, expect, it, vi } from "vitest";
import { BrowserStorage, soundOn, type KeyValue } from "./index";

function mem(): KeyValue {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

const seat = (roomId: string, mode: "computer" | "live" = "live") => ({
  roomId,
  token: `t-${roomId}`,
  seat: 0 as const,
  game: "boxes" as const,
  mode,
  size: "5×5",
});

describe("BrowserStorage", () => {
  it("keeps seat tokens per room", () => {
    const s = new BrowserStorage(mem());
    s.saveSeat(seat("a"));
    s.saveSeat(seat("b"));
    expect(s.getSeat("a")!.token).toBe("t-a");
    expect(s.getSeat("zzz")).toBeNull();
    expect(s.onlineGames().map((r) => r.roomId).sort()).toEqual(["a", "b"]);
    s.forgetSeat("a");
    expect(s.getSeat("a")).toBeNull();
  });

  it("keeps every unfinished local game until it is deleted or finished", () => {
    const s = new BrowserStorage(mem());
    let now = Date.UTC(2026, 10, 2, 12);
    vi.spyOn(Date, "now").mockImplementation(() => (now += 1000));
    s.saveSeat(seat("c", "computer"));
    s.saveSeat({ ...seat("d", "computer"), game: "dots" });
    s.saveSeat({ ...seat("e", "computer") });
    s.saveSeat(seat("online"));
    s.updateSummary("c", { version: 9, scores: [2, 1], toMove: 0, isOver: false });
    // Three games of two kinds, newest first; friend rooms are not among them.
    expect(s.localGames().map((g) => g.roomId)).toEqual(["c", "e", "d"]);
    expect(s.localGames()[0]!.summary!.scores).toEqual([2, 1]);
    expect(s.onlineGames().map((g) => g.roomId)).toEqual(["online"]);
    s.updateSummary("e", { version: 30, scores: [5, 4], toMove: 1, isOver: true });
    expect(s.localGames().map((g) => g.roomId)).toEqual(["c", "d"]);
    s.forgetSeat("d");
    expect(s.localGames().map((g) => g.roomId)).toEqual(["c"]);
  });

  it("keeps settings and survives garbage", () => {
    const kv = mem();
    const s = new BrowserStorage(kv);
    expect(s.settings()).toEqual({ lang: null, tapPreview: true, coordinates: false, sound: null, name: null, lineValues: false });
    s.saveSettings({ lang: "cs" });
    expect(new BrowserStorage(kv).settings().lang).toBe("cs");
    kv.setItem("tetrad:v1:seats", "{not json");
    expect(s.listSeats()).toEqual([]);
    s.clearAll();
    expect(s.settings().lang).toBeNull();
  });

  it("plays sounds when chosen, else only where the browser allows audio at once", () => {
    const base = { lang: null, tapPreview: true, coordinates: false };
    const allowed = { getAutoplayPolicy: () => "allowed" };
    const blocked = { getAutoplayPolicy: () => "allowed-muted" };
    expect(soundOn({ ...base, sound: null }, allowed)).toBe(true);
    expect(soundOn({ ...base, sound: null }, blocked)).toBe(false);
    expect(soundOn({ ...base, sound: null }, {})).toBe(false);
    expect(soundOn({ ...base, sound: true }, blocked)).toBe(true);
    expect(soundOn({ ...base, sound: false }, allowed)).toBe(false);
  });

  it("keeps finished games once each, newest first, and the imported record", () => {
    const s = new BrowserStorage(mem());
    const game = (n: number, finishedAt: number) => ({
      gameId: `r-${n}`,
      roomId: "r",
      gameNumber: n,
      game: "boxes" as const,
      mode: "computer" as const,
      size: "3×3",
      seat: 0 as const,
      scores: [5, 4] as [number, number],
      finishedAt,
    });
    expect(s.rememberPlayed(game(1, 10))).toBe(true);
    expect(s.rememberPlayed(game(2, 20))).toBe(true);
    expect(s.rememberPlayed({ ...game(1, 30), scores: [0, 9] })).toBe(false);
    expect(s.playedGames().map((g) => [g.gameId, g.scores[0]])).toEqual([
      ["r-2", 5],
      ["r-1", 5],
    ]);
    s.forgetPlayed("r-2");
    expect(s.playedGames()).toHaveLength(1);
    expect(s.reviewRecord()).toBeNull();
    s.saveReviewRecord("boxes 1x1; a1-b1");
    expect(s.reviewRecord()).toBe("boxes 1x1; a1-b1");
    s.clearAll();
    expect(s.playedGames()).toEqual([]);
    expect(s.reviewRecord()).toBeNull();
  });
});
