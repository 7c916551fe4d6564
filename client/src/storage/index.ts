// Everything tetrad keeps in the browser: seat tokens per room, the local games to
// continue, and settings. Nothing else in the client touches localStorage.
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
  level?: string | null;
  guestJoined?: boolean;
}

export interface Settings {
  lang: Lang | null;
  tapPreview: boolean;
}

const DEFAULT_SETTINGS: Settings = { lang: null, tapPreview: true };

const PREFIX = "tetrad:v1:";
const SEATS = `${PREFIX}seats`;
const LOCAL = `${PREFIX}local`;
const SETTINGS = `${PREFIX}settings`;

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
    const local = this.localPointers();
    for (const [game, id] of Object.entries(local)) if (id === roomId) delete local[game as GameName];
    this.write(LOCAL, local);
  }

  // -- local games (computer and hot-seat rooms) ----------------------------------------

  private localPointers(): Partial<Record<GameName, string>> {
    return this.read<Partial<Record<GameName, string>>>(LOCAL, {});
  }

  /** Remember a computer or hot-seat room as the game to continue for its game kind. */
  setLocalGame(game: GameName, roomId: string): boolean {
    const local = this.localPointers();
    local[game] = roomId;
    return this.write(LOCAL, local);
  }

  clearLocalGame(game: GameName, roomId?: string): void {
    const local = this.localPointers();
    if (roomId === undefined || local[game] === roomId) {
      delete local[game];
      this.write(LOCAL, local);
    }
  }

  /** The saved local games that can be continued (with their seat records). */
  localGames(): SeatRecord[] {
    const out: SeatRecord[] = [];
    for (const id of Object.values(this.localPointers())) {
      const rec = id ? this.getSeat(id) : null;
      if (rec) out.push(rec);
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Rooms with friends this browser holds a seat in. */
  onlineGames(): SeatRecord[] {
    return this.listSeats().filter((s) => s.mode === "live" || s.mode === "correspondence");
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
    for (const key of [SEATS, LOCAL, SETTINGS]) {
      try {
        this.kv.removeItem(key);
      } catch {
        /* nothing to do */
      }
    }
  }
}

export const storage = new BrowserStorage();
