// "My games": the finished games this browser played and the unfinished ones it holds a
// seat in, as one list, newest first. Pure: the screen reads storage and passes it in.
import type { RoomState } from "../net";
import type { GameName, Mode, Opponent, PlayedGame, SeatRecord } from "../storage";

export interface MyGameRow {
  key: string;
  /** The review of a finished game, or the room of an unfinished one. */
  href: string;
  finished: boolean;
  game: GameName;
  mode: Mode;
  size: string;
  seat: 0 | 1;
  scores: [number, number] | null;
  /** Who won and why, when known (undefined: remembered before this was kept). */
  winner?: 0 | 1 | null;
  reason?: string | null;
  level: string | null;
  daily: string | null;
  /** The other seat's holder by name (a bot account, or a person who gave a name). */
  opponent: Opponent | null;
  date: number;
}

export type Result = "won" | "lost" | "draw" | null;

/** The other seat's holder when it has a name (a bot account, or a person who gave one). */
export function opponentOf(state: Pick<RoomState, "seats">, mySeat: 0 | 1 | null): Opponent | null {
  if (mySeat === null) return null;
  const other = state.seats.find((s) => s.seat !== mySeat);
  return other?.name ? { name: other.name, bot: !!other.bot } : null;
}

/** The game id the server gives a room's n-th game. */
export const gameIdOf = (roomId: string, gameNumber: number): string => `${roomId}-${gameNumber}`;

export function myGames(seats: readonly SeatRecord[], played: readonly PlayedGame[]): MyGameRow[] {
  const rows: MyGameRow[] = played.map((g) => ({
    key: g.gameId,
    href: `/g/${g.gameId}`,
    finished: true,
    game: g.game,
    mode: g.mode,
    size: g.size,
    seat: g.seat,
    scores: g.scores,
    winner: g.winner,
    reason: g.reason ?? null,
    level: g.level ?? null,
    daily: g.daily ?? null,
    opponent: g.opponent ?? null,
    date: g.finishedAt,
  }));
  const known = new Set(rows.map((r) => r.key));
  for (const s of seats) {
    const over = !!s.summary?.isOver;
    const id = gameIdOf(s.roomId, s.summary?.gameNumber ?? 1);
    if (over && known.has(id)) continue;
    rows.push({
      key: over ? id : `room:${s.roomId}`,
      href: over ? `/g/${id}` : `/r/${s.roomId}`,
      finished: over,
      game: s.game,
      mode: s.mode,
      size: s.size,
      seat: s.seat,
      scores: s.summary ? s.summary.scores : null,
      winner: over ? s.summary?.winner : undefined,
      reason: over ? (s.summary?.reason ?? null) : null,
      level: s.summary?.level ?? null,
      daily: s.daily ?? null,
      opponent: s.summary?.opponent ?? null,
      date: s.updatedAt,
    });
  }
  return rows.sort((a, b) => b.date - a.date);
}

/** How a finished game went for this browser's seat (one-device games: nobody's): by its
 * winner when known (a resigned game is lost whatever its score), else by the score. */
export function resultOf(row: Pick<MyGameRow, "finished" | "mode" | "seat" | "scores" | "winner">): Result {
  if (!row.finished || row.mode === "local") return null;
  if (row.winner !== undefined) return row.winner === null ? "draw" : row.winner === row.seat ? "won" : "lost";
  if (!row.scores) return null;
  const [mine, theirs] = [row.scores[row.seat], row.scores[1 - row.seat]!];
  return mine > theirs ? "won" : mine < theirs ? "lost" : "draw";
}

/** The endings that are not played out, which My games names beside the result. */
export const EARLY_ENDINGS = ["resignation", "time", "agreement", "grounding"] as const;
