// Everything tetrad keeps in the browser: seat tokens per room (and with them the local
// games to continue), the board-of-the-day player id and counted results, and settings.
// Nothing else in the client touches localStorage.
import type { Lang } from "../i18n";

export type GameName = "boxes" | "dots";
export type Mode = "computer" | "local" | "live" | "correspondence";

/** A seat this browser holds in a room. The token is the only key to the seat. */
export interface SeatRecord {
  roomId: string;
  token: string;
  seat: 0 | 1;
  game: GameName;
  mode: Mode;
  /** Board size as shown to people, e.g. "5×5". */
  size: string;
  inviteUrl?: string | null;
  daily?: string | null;
  createdAt: number;
  updatedAt: number;
  /** Last state seen, enough for the start screen. */
  summary?: GameSummary;
}

export interface GameSummary {
  version: number;
  scores: [number, number];
  toMove: 0 | 1;
  isOver: boolean;
  /** How the game ended, once it has (as in PlayedGame). */
  winner?: 0 | 1 | null;
  reason?: string;
  level?: string | null;
  guestJoined?: boolean;
  /** When the server deletes the room if nothing happens before (ms since the epoch). */
  expiresAt?: number | null;
  /** Which game of the room this is (1, 2, … after restarts). */
  gameNumber?: number;
  /** Moves made in the game so far: tells two saved games of the same kind apart. */
  moves?: number;
  /** The other seat's holder, when it has a name (a bot account, or a person who gave one). */
  opponent?: Opponent | null;
}

/** Who held the other seat, by name: a bot account (shown with a BOT badge) or a person. */
export interface Opponent {
  name: string;
  bot: boolean;
}

/** A finished game this browser played in: enough for "My games" and its review link. */
export interface PlayedGame {
  /** The server's id of the finished game: `{roomId}-{gameNumber}`. */
  gameId: string;
  roomId: string;
  gameNumber: number;
  game: GameName;
  mode: Mode;
  size: string;
  seat: 0 | 1;
  scores: [number, number];
  /** Who won (null: a draw) and why (`resignation`, `time`, …): a resigned game is lost
   * whatever its score. Absent in games remembered before it was kept. */
  winner?: 0 | 1 | null;
  reason?: string;
  level?: string | null;
  daily?: string | null;
  opponent?: Opponent | null;
  finishedAt: number;
}

/** The board-of-the-day game of one day that counts: the first this browser finished. */
export interface DailyRecord {
  roomId: string;
  gameNumber: number;
  boxes: number;
  total: number;
}

export interface Settings {
  lang: Lang | null;
  tapPreview: boolean;
  /** Letters and numbers beside the boards while playing (the review always shows them). */
  coordinates: boolean;
  /** Move, capture, turn and game-over sounds; null: never chosen (see soundOn). */
  sound: boolean | null;
  /** The name shown on this person's seats (friend rooms, challenges); null: none. */
  name?: string | null;
  /** Practice against the computer (Dots and Boxes): every undrawn line shows its value. */
  lineValues?: boolean;
}

const DEFAULT_SETTINGS: Settings = { lang: null, tapPreview: true, coordinates: false, sound: null, name: null, lineValues: false };

/** Firefox tells whether audio may start before a click; other browsers do not say. */
interface AutoplayInfo {
  getAutoplayPolicy?: (kind: string) => string;
}

/**
 * Whether sounds play: the player's choice, else on only where the browser lets a page
 * play audio before any click (elsewhere the first sounds would be lost anyway).
 */
export function soundOn(settings: Settings, nav: AutoplayInfo = (globalThis.navigator ?? {}) as AutoplayInfo): boolean {
  if (settings.sound !== null) return settings.sound;
  try {
    return nav.getAutoplayPolicy?.("audiocontext") === "allowed";
  } catch {
    return false;
  }
}

/** Days of board-of-the-day results kept in the browser. */
const DAILY_KEEP_DAYS = 40;

const PREFIX = "tetrad:v1:";
const SEATS = `${PREFIX}seats`;
/** The one-game-per-kind pointers of earlier versions; only ever removed now. */
const OLD_LOCAL = `${PREFIX}local`;
const SETTINGS = `${PREFIX}settings`;
const DAILY_PLAYER = `${PREFIX}daily-player`;
const DAILY = `${PREFIX}daily`;
const PLAYED = `${PREFIX}played`;
const REVIEW = `${PREFIX}review-record`;
/** Finished games kept for "My games"; the oldest go first. */
const PLAYED_KEEP = 200;

/** The part of the Web Storage API we need, so tests and private windows can swap it. */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

class MemoryStore implements KeyValue {
  private map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

function defaultBackend(): { kv: KeyValue; persistent: boolean } {
  try {
    const ls = globalThis.localStorage;
    const probe = `${PREFIX}probe`;
    ls.setItem(probe, "1");
    ls.removeItem(probe);
    return { kv: ls, persistent: true };
  } catch {
    return { kv: new MemoryStore(), persistent: false };
  }
}

export class BrowserStorage {
  readonly persistent: boolean;
  private kv: KeyValue;

  constructor(kv?: KeyValue) {
    if (kv) {
      this.kv = kv;
      this.persistent = true;
    } else {
      const b = defaultBackend();
      this.kv = b.kv;
      this.persistent = b.persistent;
    }
  }

  private read<T>(key: string, fallback: T): T {
    try {
      const raw = this.kv.getItem(key);
      return raw ? (JSON.parse(raw) as T) : fallback;
    } catch {
      return fallback;
    }
  }

  private write(key: string, value: unknown): boolean {
    try {
      this.kv.setItem(key, JSON.stringify(value));
      return true;
    } catch {
      return false;
    }
  }

  // -- seats ---------------------------------------------------------------------------

  private seats(): Record<string, SeatRecord> {
    const all = this.read<Record<string, SeatRecord>>(SEATS, {});
    return all && typeof all === "object" ? all : {};
  }

  getSeat(roomId: string): SeatRecord | null {
    const rec = this.seats()[roomId];
    return rec && typeof rec.token === "string" ? rec : null;
  }

  listSeats(): SeatRecord[] {
    return Object.values(this.seats()).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  saveSeat(rec: Omit<SeatRecord, "createdAt" | "updatedAt"> & Partial<SeatRecord>): boolean {
    const all = this.seats();
    const now = Date.now();
    const old = all[rec.roomId];
    all[rec.roomId] = { ...old, ...rec, createdAt: old?.createdAt ?? rec.createdAt ?? now, updatedAt: now };
    return this.write(SEATS, all);
  }

  /** Record the latest state of a room this browser holds a seat in (after every move). */
  updateSummary(roomId: string, summary: GameSummary): boolean {
    const all = this.seats();
    const rec = all[roomId];
    if (!rec) return false;
    all[roomId] = { ...rec, summary, updatedAt: Date.now() };
    return this.write(SEATS, all);
  }

  forgetSeat(roomId: string): void {
    const all = this.seats();
    delete all[roomId];
    this.write(SEATS, all);
  }

  // -- local games (computer and hot-seat rooms) ----------------------------------------

  /** Every unfinished computer or hot-seat game, newest first: kept until deleted or finished. */
  localGames(): SeatRecord[] {
    return this.listSeats().filter((s) => (s.mode === "computer" || s.mode === "local") && !s.summary?.isOver);
  }

  /** Rooms with friends this browser holds a seat in. */
  onlineGames(): SeatRecord[] {
    return this.listSeats().filter((s) => s.mode === "live" || s.mode === "correspondence");
  }

  // -- finished games ("My games") -----------------------------------------------------

  /** Every finished game this browser played, newest first. */
  playedGames(): PlayedGame[] {
    const all = this.read<PlayedGame[]>(PLAYED, []);
    return (Array.isArray(all) ? all : []).filter((g) => g && typeof g.gameId === "string").sort((a, b) => b.finishedAt - a.finishedAt);
  }

  /** Keep a finished game (once per game id; the first record stays). */
  rememberPlayed(game: PlayedGame): boolean {
    const all = this.playedGames();
    if (all.some((g) => g.gameId === game.gameId)) return false;
    return this.write(PLAYED, [game, ...all].slice(0, PLAYED_KEEP));
  }

  forgetPlayed(gameId: string): void {
    this.write(
      PLAYED,
      this.playedGames().filter((g) => g.gameId !== gameId),
    );
  }

  /** The record last imported for review (text notation or JSON), kept across reloads. */
  reviewRecord(): string | null {
    const rec = this.read<string | null>(REVIEW, null);
    return typeof rec === "string" ? rec : null;
  }

  saveReviewRecord(record: string): boolean {
    return this.write(REVIEW, record);
  }

  // -- board of the day ----------------------------------------------------------------

  /** This browser's anonymous board-of-the-day id (128 random bits), made once. */
  dailyPlayer(): string {
    const known = this.read<string | null>(DAILY_PLAYER, null);
    if (typeof known === "string" && /^[0-9a-f]{32}$/.test(known)) return known;
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    this.write(DAILY_PLAYER, id);
    return id;
  }

  private dailyRecords(): Record<string, DailyRecord> {
    const all = this.read<Record<string, DailyRecord>>(DAILY, {});
    return all && typeof all === "object" ? all : {};
  }

  /** The counted game of a day (YYYY-MM-DD), if this browser finished one. */
  dailyRecord(date: string): DailyRecord | null {
    const rec = this.dailyRecords()[date];
    return rec && typeof rec.roomId === "string" ? rec : null;
  }

  /** Keep a day's first finished game as its counted one; later games never replace it. */
  countDaily(date: string, rec: DailyRecord): DailyRecord {
    const all = this.dailyRecords();
    const kept = all[date];
    if (kept) return kept;
    all[date] = rec;
    const days = Object.keys(all).sort();
    for (const old of days.slice(0, Math.max(0, days.length - DAILY_KEEP_DAYS))) delete all[old];
    this.write(DAILY, all);
    return rec;
  }

  // -- settings ------------------------------------------------------------------------

  settings(): Settings {
    return { ...DEFAULT_SETTINGS, ...this.read<Partial<Settings>>(SETTINGS, {}) };
  }

  saveSettings(patch: Partial<Settings>): Settings {
    const next = { ...this.settings(), ...patch };
    this.write(SETTINGS, next);
    return next;
  }

  /** Forget everything tetrad keeps in this browser. */
  clearAll(): void {
    for (const key of [SEATS, OLD_LOCAL, SETTINGS, DAILY_PLAYER, DAILY, PLAYED, REVIEW]) {
      try {
        this.kv.removeItem(key);
      } catch {
        /* nothing to do */
      }
    }
  }
}

export const storage = new BrowserStorage();
