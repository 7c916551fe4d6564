import { describe, expect, it } from "vitest";
import { BrowserStorage, type KeyValue } from "./index";

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

  it("remembers the local game to continue and its latest summary", () => {
    const s = new BrowserStorage(mem());
    s.saveSeat(seat("c", "computer"));
    s.setLocalGame("boxes", "c");
    s.updateSummary("c", { version: 9, scores: [2, 1], toMove: 0, isOver: false });
    const [g] = s.localGames();
    expect(g!.roomId).toBe("c");
    expect(g!.summary!.scores).toEqual([2, 1]);
    expect(s.onlineGames()).toHaveLength(0);
    s.clearLocalGame("boxes", "other");
    expect(s.localGames()).toHaveLength(1);
    s.clearLocalGame("boxes", "c");
    expect(s.localGames()).toHaveLength(0);
  });

  it("keeps settings and survives garbage", () => {
    const kv = mem();
    const s = new BrowserStorage(kv);
    expect(s.settings()).toEqual({ lang: null, tapPreview: true });
    s.saveSettings({ lang: "cs" });
    expect(new BrowserStorage(kv).settings().lang).toBe("cs");
    kv.setItem("tetrad:v1:seats", "{not json");
    expect(s.listSeats()).toEqual([]);
    s.clearAll();
    expect(s.settings().lang).toBeNull();
  });
});
