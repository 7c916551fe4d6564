// Which board-of-the-day game counts. The server counts one result per browser and day
// (the first finished game of its `daily_player`); the browser knows the same from its
// storage, so replays are allowed and shown as practice.
import type { DailyRecord } from "../storage";

/** open: nothing counted today yet, this game will count if it finishes first. */
export type DailyStanding = "open" | "counted" | "practice";

export interface DailyGame {
  roomId: string;
  gameNumber: number;
}

export function dailyStanding(counted: DailyRecord | null, game: DailyGame): DailyStanding {
  if (!counted) return "open";
  return counted.roomId === game.roomId && counted.gameNumber === game.gameNumber ? "counted" : "practice";
}

/**
 * The server accepts `daily_player` in `POST /api/rooms` (one counted result per browser
 * and day). Until the server of this checkout knows the field it refuses it, so the
 * client sends it only when this says so.
 */
export const SERVER_COUNTS_DAILY_PLAYERS = true;

/** The body that starts today's board for this browser. */
export function dailyRoomBody(player: string): { game: "boxes"; daily: true; daily_player?: string } {
  return SERVER_COUNTS_DAILY_PLAYERS ? { game: "boxes", daily: true, daily_player: player } : { game: "boxes", daily: true };
}

/** A board of the day's date ("2026-12-01") as the language writes it: "1. prosince 2026". */
export function dayText(day: string, lang: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" }).format(date);
}
