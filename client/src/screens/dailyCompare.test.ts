import { describe, expect, it } from "vitest";
import { makeTranslator } from "../i18n";
import type { DailyResults } from "../net";
import { compareDaily, dailyCompareText, loadDailyComparison, mayIncludeMe } from "./dailyCompare";

function results(distribution: Array<[boxes: number, players: number]>): DailyResults {
  const players = distribution.reduce((n, [, p]) => n + p, 0);
  return {
    date: "2025-01-31",
    boxes_total: 25,
    players,
    wins: 0,
    draws: 0,
    losses: players,
    distribution: distribution.map(([boxes, p]) => ({ boxes, players: p })),
  };
}

describe("daily comparison", () => {
  it("counts the other players below, level with and above the result", () => {
    // 37 results, ours (14 boxes) among them: 22 of the 36 others took fewer.
    const day = results([
      [8, 10],
      [12, 12],
      [14, 4],
      [17, 11],
    ]);
    const c = compareDaily(day, 14, true);
    expect(c).toEqual({ boxes: 14, players: 37, fewer: 22, same: 3, more: 11, percent: 61 });
  });

  it("adds the player when the results do not hold their game yet", () => {
    const c = compareDaily(results([[10, 1], [20, 1]]), 13, false);
    expect(c).toMatchObject({ players: 3, fewer: 1, same: 0, more: 1, percent: 50 });
  });

  it("rounds down, so only beating everybody says 100%", () => {
    expect(compareDaily(results([[5, 199], [9, 1]]), 9, true).percent).toBe(100);
    expect(compareDaily(results([[5, 198], [9, 1], [10, 1]]), 9, true).percent).toBe(99);
    expect(compareDaily(results([[9, 3]]), 9, true).percent).toBe(0);
  });

  it("knows when the results may already hold the player's game", () => {
    expect(mayIncludeMe(results([[14, 1]]), 14)).toBe(true);
    expect(mayIncludeMe(results([[13, 2]]), 14)).toBe(false);
    expect(mayIncludeMe(results([]), 0)).toBe(false);
  });

  it("says it in every language: the place, and the share beaten once there are enough players", () => {
    const c = compareDaily(results([[8, 22], [14, 4], [17, 11]]), 14, true);
    expect(dailyCompareText(c, makeTranslator("en"))).toBe(
      "Your place among today's players: 12 of 37, shared with 3 other players. 61% of today's other players took fewer boxes.",
    );
    expect(dailyCompareText(c, makeTranslator("ru"))).toBe(
      "Ваше место среди сегодняшних игроков: 12 из 37; вы делите его с 3 игроками. 61% остальных игроков взяли сегодня меньше квадратов.",
    );
    expect(dailyCompareText(c, makeTranslator("cs"))).toBe(
      "Vaše pořadí mezi dnešními hráči: 12. z 37, o které se dělíte s 3 dalšími hráči. 61 % ostatních dnešních hráčů získalo méně čtverečků.",
    );
    const two = compareDaily(results([[3, 1], [14, 1]]), 14, true);
    expect(dailyCompareText(two, makeTranslator("en"))).toBe("Your place among today's players: 1 of 2.");
    expect(dailyCompareText(two, makeTranslator("ru"))).toBe("Ваше место среди сегодняшних игроков: 1 из 2.");
    const tie = compareDaily(results([[14, 2]]), 14, true);
    expect(dailyCompareText(tie, makeTranslator("ru"))).toBe("Ваше место среди сегодняшних игроков: 1 из 2; вы делите его с 1 игроком.");
  });

  it("says so when the player is the first of the day", () => {
    const alone = compareDaily(results([[14, 1]]), 14, true);
    expect(alone.players).toBe(1);
    expect(dailyCompareText(alone, makeTranslator("en"))).toBe("You are the first to finish today's board.");
  });

  it("asks again while the player's own game is not recorded, then compares", async () => {
    const answers = [results([[10, 2]]), results([[10, 2]]), results([[10, 2], [14, 1]])];
    const asked: string[] = [];
    const waits: number[] = [];
    const c = await loadDailyComparison(
      async (date) => {
        asked.push(date);
        return answers[Math.min(asked.length - 1, answers.length - 1)]!;
      },
      "2025-01-31",
      14,
      { delay: 100, sleep: async (ms) => void waits.push(ms) },
    );
    expect(asked).toEqual(["2025-01-31", "2025-01-31", "2025-01-31"]);
    expect(waits).toEqual([100, 200]);
    expect(c).toMatchObject({ players: 3, fewer: 2, percent: 100 });
  });

  it("gives up asking after a few tries and counts the player in", async () => {
    let asked = 0;
    const c = await loadDailyComparison(
      async () => {
        asked += 1;
        return results([[10, 2]]);
      },
      "2025-01-31",
      14,
      { retries: 2, sleep: async () => undefined },
    );
    expect(asked).toBe(3);
    expect(c).toMatchObject({ players: 3, fewer: 2, same: 0, percent: 100 });
  });
});
