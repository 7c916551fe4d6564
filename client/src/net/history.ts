// The room brought forward in version order (docs/api.md, "The sync rule"): an event one
// version ahead is applied, one not newer is a duplicate and ignored; one further ahead
// means something was missed, so exactly one `sync` goes out and later events wait until
// its `resync` (events or a snapshot) catches up. A welcome catches up the same way.
import { applyEvent, fromSnapshot, withClock, withPresence } from "./roomModel";
import type {
  EventMessage,
  PresenceMessage,
  ResyncMessage,
  RoomEvent,
  RoomState,
  ServerSnapshot,
  WelcomeMessage,
} from "./types";

/** A room event as it was applied: its version and what happened. */
export interface AppliedEvent {
  version: number;
  event: RoomEvent;
}

export interface RoomHistoryOptions {
  /** Ask the server for what came after `since` (a `sync`); false when it cannot be sent. */
  requestSync: (since: number | null) => boolean;
  /** Each event exactly once, in version order, with the room after it. */
  onApplied?: (ev: AppliedEvent, state: RoomState) => void;
  /** The time a message arrived (ms), what a clock counts down from. */
  now?: () => number;
}

export class RoomHistory {
  private stateNow: RoomState | null = null;
  /** A sync is on its way: events that arrive meanwhile wait here. */
  private syncing = false;
  private held: EventMessage[] = [];
  private readonly requestSyncNow: (since: number | null) => boolean;
  private readonly onApplied: (ev: AppliedEvent, state: RoomState) => void;
  private readonly now: () => number;

  constructor(opts: RoomHistoryOptions) {
    this.requestSyncNow = opts.requestSync;
    this.onApplied = opts.onApplied ?? (() => {});
    this.now = opts.now ?? Date.now;
  }

  get state(): RoomState | null {
    return this.stateNow;
  }

  /** The last version applied, or null before any. */
  get version(): number | null {
    return this.stateNow?.version ?? null;
  }

  /** A snapshot read over REST: taken only if newer than what is held. */
  seed(snapshot: ServerSnapshot): void {
    if (this.version === null || snapshot.version > this.version) this.stateNow = fromSnapshot(snapshot, this.now());
  }

  /** A new socket: what the old one was waiting for will not come. */
  reset(): void {
    this.syncing = false;
    this.held = [];
  }

  welcome(msg: WelcomeMessage): void {
    this.reset();
    this.catchUp(msg);
    if (this.stateNow) this.stateNow = withPresence(this.stateNow, msg.seats, msg.spectators);
    if (this.stateNow && msg.clock) this.stateNow = withClock(this.stateNow, msg.clock, this.now());
    // A welcome always brings a snapshot or events, unless we were up to date already.
  }

  resync(msg: ResyncMessage): void {
    this.syncing = false;
    this.catchUp(msg);
    const held = this.held;
    this.held = [];
    for (const ev of held) this.event(ev);
  }

  /** One event message: applied, ignored as a duplicate, or kept while a sync catches up. */
  event(msg: EventMessage): void {
    if (this.syncing) {
      this.held.push(msg);
      return;
    }
    const version = this.version;
    if (version !== null && msg.version <= version) return; // already applied
    if (version === null || msg.version !== version + 1) {
      this.held.push(msg);
      this.sync();
      return;
    }
    this.apply(msg);
  }

  presence(msg: PresenceMessage): void {
    if (this.stateNow) this.stateNow = withPresence(this.stateNow, msg.seats, msg.spectators);
  }

  /** Ask for what was missed (one sync at a time). */
  sync(): void {
    if (this.syncing) return;
    this.syncing = this.requestSyncNow(this.version);
  }

  /** A welcome or resync: a snapshot to start from, then the events to apply. */
  private catchUp(msg: WelcomeMessage | ResyncMessage): void {
    if (msg.snapshot) this.stateNow = fromSnapshot(msg.snapshot, this.now());
    for (const ev of msg.events) {
      if (this.version !== null && ev.version === this.version + 1) this.apply(ev);
    }
  }

  private apply(msg: EventMessage): void {
    const state = applyEvent(this.stateNow!, msg, this.now());
    this.stateNow = state;
    this.onApplied({ version: msg.version, event: msg.event }, state);
  }
}
