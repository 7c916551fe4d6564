// One room's live connection (protocol 2): the websocket with reconnect and backoff, the
// room model brought forward event by event in version order, and the commands a seat
// sends. Screens subscribe to snapshots; they never see a socket.
//
// One sync path: events apply in version order; a version that does not follow the one
// held sends exactly one `sync`, whose `resync` reply (events or a snapshot) catches up.
// Every command carries a ref and waits for its `ack` (or `error`); a move still unacked
// when the socket drops is sent again, with the same move id, on the next one.
import { ApiError } from "./http";
import { applyEvent, fromSnapshot, withPresence } from "./roomModel";
import {
  CLOSE,
  type AckMessage,
  type ClientMessage,
  type EventMessage,
  type Hint,
  type Move,
  type ResyncMessage,
  type RoomAction,
  type RoomEvent,
  type RoomState,
  type Seat,
  type ServerMessage,
  type ServerSnapshot,
  type WelcomeMessage,
} from "./types";

export type ConnStatus =
  | "idle"
  | "connecting"
  | "online"
  | "reconnecting"
  | "taken_over"
  | "bad_token"
  | "gone"
  | "closed";

export interface RoomSnapshot {
  status: ConnStatus;
  state: RoomState | null;
  /** The last room version applied. */
  version: number;
  seat: Seat | null;
  role: "player" | "spectator" | null;
  /** Reconnect attempts since the last successful welcome. */
  attempt: number;
}

/** A room event as it was applied: its version and what happened. */
export interface AppliedEvent {
  version: number;
  event: RoomEvent;
}

export interface RoomListener {
  onChange?: (snap: RoomSnapshot) => void;
  /** Each room event exactly once, in version order, with the room after it. */
  onEvent?: (ev: AppliedEvent, state: RoomState) => void;
  /** A refusal that did not belong to a command of ours. */
  onError?: (err: ApiError) => void;
}

/** The part of the browser WebSocket that we use, so tests can inject a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export type SocketFactory = (url: string) => WebSocketLike;

export interface RoomConnectionOptions {
  roomId: string;
  token: string | null;
  /** Full websocket URL of the room. */
  wsUrl: string;
  createSocket?: SocketFactory;
  /** First reconnect delay and the cap, in ms. */
  backoffBase?: number;
  backoffMax?: number;
  /** Ping period and the silence after which the socket is considered dead, in ms. */
  pingEvery?: number;
  deadAfter?: number;
  random?: () => number;
}

const OPEN = 1;

type Command = Exclude<ClientMessage, { type: "hello" } | { type: "ping" } | { type: "sync" }>;

interface Pending {
  message: Command;
  resolve: (ack: AckMessage) => void;
  reject: (e: ApiError) => void;
}

let counter = 0;
function uniqueId(prefix: string): string {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now().toString(36)}-${counter}-${rnd}`;
}

export function newMoveId(): string {
  return uniqueId("m");
}

export function roomSocketUrl(roomId: string, loc: { protocol: string; host: string } = location): string {
  const proto = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${loc.host}/api/rooms/${encodeURIComponent(roomId)}/ws`;
}

export class RoomConnection {
  readonly roomId: string;
  private token: string | null;
  private readonly wsUrl: string;
  private readonly createSocket: SocketFactory;
  private readonly backoffBase: number;
  private readonly backoffMax: number;
  private readonly pingEvery: number;
  private readonly deadAfter: number;
  private readonly random: () => number;

  private ws: WebSocketLike | null = null;
  private status: ConnStatus = "idle";
  private state: RoomState | null = null;
  private seat: Seat | null = null;
  private role: "player" | "spectator" | null = null;
  private attempt = 0;
  private welcomed = false;
  /** Whether any socket of this connection was ever welcomed: only then is a new one a reconnect. */
  private everWelcomed = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  /** A sync is on its way: events that arrive meanwhile wait here. */
  private syncing = false;
  private held: EventMessage[] = [];
  private pending = new Map<string, Pending>();
  private listeners = new Set<RoomListener>();
  private detach: (() => void) | null = null;

  constructor(opts: RoomConnectionOptions) {
    this.roomId = opts.roomId;
    this.token = opts.token;
    this.wsUrl = opts.wsUrl;
    this.createSocket = opts.createSocket ?? ((url) => new WebSocket(url) as unknown as WebSocketLike);
    this.backoffBase = opts.backoffBase ?? 300;
    this.backoffMax = opts.backoffMax ?? 10_000;
    this.pingEvery = opts.pingEvery ?? 5_000;
    this.deadAfter = opts.deadAfter ?? 16_000;
    this.random = opts.random ?? Math.random;
  }

  // -- public ---------------------------------------------------------------------------

  snapshot(): RoomSnapshot {
    return {
      status: this.status,
      state: this.state,
      version: this.version,
      seat: this.seat,
      role: this.role,
      attempt: this.attempt,
    };
  }

  private get version(): number {
    return this.state?.version ?? -1;
  }

  subscribe(listener: RoomListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Start from a snapshot read over REST before the socket is up. */
  seed(snapshot: ServerSnapshot, seat: Seat | null = this.seat, role = this.role): void {
    this.seat = seat;
    this.role = role;
    if (snapshot.version > this.version) this.replace(snapshot);
  }

  start(): void {
    this.stopped = false;
    this.connect();
    this.attachWindow();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.detach?.();
    this.detach = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      try {
        ws.close(1000, "bye");
      } catch {
        /* already closed */
      }
    }
    this.rejectPending(new ApiError("closed", "connection closed"), () => true);
    this.setStatus("closed");
  }

  /** After a takeover: connect again, which in turn takes the seat back here. */
  reclaim(): void {
    if (this.status !== "taken_over") return;
    this.attempt = 0;
    this.stopped = false;
    this.connect();
  }

  /** Skip the backoff wait and reconnect at once (e.g. the browser came back online). */
  retryNow(): void {
    if (this.status !== "reconnecting" || this.stopped) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  /** Make a move; resolves once the server has it (ack), rejects with its refusal. */
  async move(move: Move): Promise<void> {
    this.requireToken();
    const version = this.version >= 0 ? this.version : null;
    await this.command({ type: "move", move, version, move_id: newMoveId() });
  }

  /** A room action (offer, accept, decline, resign, undo, new game, level). */
  async act(action: RoomAction): Promise<void> {
    this.requireToken();
    await this.command(action);
  }

  /** The move the computer (hard) would make here, with the reason for it if it has one. */
  async hint(): Promise<Hint | null> {
    this.requireToken();
    const ack = await this.command({ type: "hint" });
    if (!ack.hint) return null;
    return { move: ack.hint.move as Move, reason: ack.hint.reason ?? null, count: ack.hint.count ?? 0 };
  }

  /** Ask the server to bring this client up to date (a `sync`). */
  refresh(): void {
    this.requestSync();
  }

  // -- commands -------------------------------------------------------------------------

  /** Send a command and wait for its ack. Refused at once while there is no connection:
   * the player should know the server cannot hear them, not wait. */
  private command(message: Command): Promise<AckMessage> {
    if (!this.welcomed || this.ws?.readyState !== OPEN) {
      return Promise.reject(new ApiError("network", "the server cannot be reached right now"));
    }
    const ref = message.ref ?? uniqueId("c");
    const withRef = { ...message, ref } as Command;
    return new Promise<AckMessage>((resolve, reject) => {
      this.pending.set(ref, { message: withRef, resolve, reject });
      this.send(withRef);
    });
  }

  /** After a reconnect: moves not acked yet go again with the same move id (the server
   * applies an id once); other commands are refused, since they may or may not be done. */
  private resendPending(): void {
    this.rejectPending(
      new ApiError("network", "the connection was lost; try again"),
      (p) => p.message.type !== "move",
    );
    for (const p of this.pending.values()) this.send(p.message);
  }

  private settle(ref: string | null | undefined, outcome: AckMessage | ApiError): boolean {
    const p = ref ? this.pending.get(ref) : undefined;
    if (!p || !ref) return false;
    this.pending.delete(ref);
    if (outcome instanceof ApiError) p.reject(outcome);
    else p.resolve(outcome);
    return true;
  }

  private requireToken(): void {
    if (!this.token) throw new ApiError("not_allowed", "spectators cannot act");
  }

  private rejectPending(err: ApiError, which: (p: Pending) => boolean): void {
    for (const [ref, p] of [...this.pending]) {
      if (!which(p)) continue;
      this.pending.delete(ref);
      p.reject(err);
    }
  }

  // -- connection -----------------------------------------------------------------------

  private connect(): void {
    if (this.stopped) return;
    this.clearTimers();
    this.welcomed = false;
    this.setStatus(this.everWelcomed || this.attempt > 0 ? "reconnecting" : "connecting");
    let ws: WebSocketLike;
    try {
      ws = this.createSocket(this.wsUrl);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      this.syncing = false;
      this.held = [];
      this.send({ type: "hello", token: this.token, since: this.version >= 0 ? this.version : null });
      this.startPing();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onerror = () => {
      /* the close event follows and decides */
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      this.stopPing();
      if (this.stopped) return;
      const final: Partial<Record<number, [ConnStatus, string]>> = {
        [CLOSE.takenOver]: ["taken_over", "taken_over"],
        [CLOSE.badToken]: ["bad_token", "bad_token"],
        [CLOSE.roomNotFound]: ["gone", "room_not_found"],
        [CLOSE.roomGone]: ["gone", "room_not_found"],
      };
      const ending = final[ev.code];
      if (!ending) {
        this.scheduleReconnect();
        return;
      }
      this.rejectPending(new ApiError(ending[1], ending[1]), () => true);
      this.setStatus(ending[0]);
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.setStatus("reconnecting");
    const exp = Math.min(this.backoffMax, this.backoffBase * 2 ** Math.min(this.attempt, 16));
    const delay = Math.round(exp * (0.8 + 0.4 * this.random()));
    this.attempt += 1;
    this.emitChange();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.ws) return;
      if (Date.now() - this.lastHeard > this.deadAfter) {
        // Silent for too long: treat the socket as dead and reconnect.
        this.dropSocket("silent");
        return;
      }
      this.send({ type: "ping" });
    }, this.pingEvery);
  }

  /** Close the current socket ourselves and reconnect after the backoff. */
  dropSocket(reason: string): void {
    const ws = this.ws;
    if (!ws || this.stopped) return;
    this.ws = null;
    this.welcomed = false;
    this.stopPing();
    ws.onclose = null;
    ws.onmessage = null;
    try {
      ws.close(4000, reason);
    } catch {
      /* ignore */
    }
    this.scheduleReconnect();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.stopPing();
  }

  private attachWindow(): void {
    if (this.detach || typeof window === "undefined") return;
    const online = () => this.retryNow();
    // The browser knows the network is gone: do not wait for the socket to notice.
    const offline = () => this.dropSocket("offline");
    const visible = () => {
      if (document.visibilityState === "visible") this.retryNow();
    };
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    document.addEventListener("visibilitychange", visible);
    this.detach = () => {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      document.removeEventListener("visibilitychange", visible);
    };
  }

  private send(msg: ClientMessage): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return;
    try {
      ws.send(JSON.stringify(msg));
    } catch {
      /* the close handler reconnects */
    }
  }

  // -- messages -------------------------------------------------------------------------

  private handle(msg: ServerMessage): void {
    switch (msg.type) {
      case "welcome":
        this.onWelcome(msg);
        return;
      case "resync":
        this.onResync(msg);
        return;
      case "event":
        this.onEvent(msg);
        return;
      case "presence":
        if (this.state) {
          this.state = withPresence(this.state, msg.seats, msg.spectators);
          this.emitChange();
        }
        return;
      case "ack":
        this.settle(msg.ref, msg);
        return;
      case "error": {
        const err = new ApiError(msg.code, msg.message, 0, (msg.details as Record<string, unknown>) ?? null);
        if (!this.settle(msg.ref, err)) for (const l of this.listeners) l.onError?.(err);
        if (["stale_version", "not_your_turn", "illegal_move", "game_over"].includes(err.code)) {
          this.requestSync(); // our picture may be old
        }
        return;
      }
      default:
        return;
    }
  }

  private onWelcome(msg: WelcomeMessage): void {
    this.welcomed = true;
    this.everWelcomed = true;
    this.attempt = 0;
    this.seat = msg.seat ?? null;
    this.role = msg.role;
    this.catchUp(msg);
    if (this.state) this.state = withPresence(this.state, msg.seats, msg.spectators);
    this.setStatus("online");
    this.emitChange();
    this.resendPending();
  }

  private onResync(msg: ResyncMessage): void {
    this.syncing = false;
    this.catchUp(msg);
    const held = this.held;
    this.held = [];
    for (const ev of held) this.onEvent(ev);
    this.emitChange();
  }

  /** A welcome or resync: a snapshot to start from, or the events to apply. */
  private catchUp(msg: WelcomeMessage | ResyncMessage): void {
    if (msg.snapshot) this.replace(msg.snapshot);
    for (const ev of msg.events) this.apply(ev);
  }

  private onEvent(msg: EventMessage): void {
    if (this.syncing) {
      this.held.push(msg);
      return;
    }
    if (msg.version <= this.version) return; // already applied
    if (!this.state || msg.version !== this.version + 1) {
      this.held.push(msg);
      this.requestSync();
      return;
    }
    this.apply(msg);
    this.emitChange();
  }

  private apply(msg: EventMessage): void {
    if (!this.state || msg.version !== this.state.version + 1) return;
    this.state = applyEvent(this.state, msg);
    const applied = { version: msg.version, event: msg.event };
    for (const l of this.listeners) l.onEvent?.(applied, this.state);
  }

  private replace(snapshot: ServerSnapshot): void {
    this.state = fromSnapshot(snapshot);
    this.emitChange();
  }

  /** Exactly one sync at a time: its resync reply settles what was missed. */
  private requestSync(): void {
    if (this.syncing || !this.welcomed) return;
    this.syncing = true;
    this.send({ type: "sync", since: this.version >= 0 ? this.version : null });
  }

  private setStatus(status: ConnStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.emitChange();
  }

  private emitChange(): void {
    const snap = this.snapshot();
    for (const l of this.listeners) l.onChange?.(snap);
  }
}
