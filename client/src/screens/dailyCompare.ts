// Where a player's daily-board result stands among everybody's that day.
// Pure: the numbers come from GET /api/daily/results through the net module.
import type { DailyResults } from "../net";
import type { Translator } from "../i18n";

export interface DailyComparison {
  /** Boxes the player took. */
  boxes: number;
  /** Players with a result that day, the player included. */
  players: number;
  /** Other players that took fewer boxes, the same number, more. */
  fewer: number;
  same: number;
  more: number;
  /** Share of the other players this result beats, in whole percent (rounded down). */
  percent: number;
}

/**
 * Compare `boxes` with the day's results. `includesMe` says whether the results already
 * count this player's game (it is recorded a moment after the game ends); if they do not,
 * the player is added.
 */
export function compareDaily(results: DailyResults, boxes: number, includesMe: boolean): DailyComparison {
  let fewer = 0;
  let same = 0;
  let more = 0;
  for (const entry of results.distribution) {
    if (entry.boxes < boxes) fewer += entry.players;
    else if (entry.boxes === boxes) same += entry.players;
    else more += entry.players;
  }
  if (includesMe) same = Math.max(0, same - 1);
  const others = fewer + same + more;
  const percent = others === 0 ? 0 : Math.floor((100 * fewer) / others);
  return { boxes, players: others + 1, fewer, same, more, percent };
}

/** Whether the results can hold this player's game: someone took exactly that many boxes. */
export function mayIncludeMe(results: DailyResults, boxes: number): boolean {
  return results.distribution.some((entry) => entry.boxes === boxes && entry.players > 0);
}

/** Below this many other players a share in percent says little ("100% of 1"). */
const PERCENT_FROM = 10;

/**
 * The comparison line of the game-over summary: the player's place among the day's
 * players (ties share a place), and with enough players the share they beat.
 */
export function dailyCompareText(c: DailyComparison, tr: Translator): string {
  const others = c.players - 1;
  if (others === 0) return tr.t("over.dailyFirst");
  const place = { rank: c.more + 1, players: c.players, same: c.same };
  const rank = tr.t(c.same > 0 ? "over.dailyRankShared" : "over.dailyRank", place);
  return others >= PERCENT_FROM ? `${rank} ${tr.t("over.dailyBeats", { percent: c.percent })}` : rank;
}

export interface LoadOptions {
  /** How many times to ask again while the player's own game is not in the results yet. */
  retries?: number;
  /** Wait before asking again (ms), doubled each time. */
  delay?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Fetch the day's results and compare. The player's game is stored just after it ends,
 * so while no result with the same box count shows up, ask again a few times; after
 * that, count the player in by hand.
 */
export async function loadDailyComparison(
  fetchResults: (date: string) => Promise<DailyResults>,
  date: string,
  boxes: number,
  opts: LoadOptions = {},
): Promise<DailyComparison> {
  const retries = opts.retries ?? 3;
  let delay = opts.delay ?? 400;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let results = await fetchResults(date);
  for (let attempt = 0; attempt < retries && !mayIncludeMe(results, boxes); attempt += 1) {
    await sleep(delay);
    delay *= 2;
    results = await fetchResults(date);
  }
  return compareDaily(results, boxes, mayIncludeMe(results, boxes));
}
