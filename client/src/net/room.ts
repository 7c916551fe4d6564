// One room's live connection: the websocket with automatic reconnect and backoff, the
// version bookkeeping (duplicates dropped, gaps resynced), and the actions a seat can
// take. Screens subscribe to snapshots; they never see a socket.
import { ApiClient, ApiError } from "./http";
import {
  CLOSE,
  type AckMessage,
  type ActionResult,
  type ClientMessage,
  type EventMessage,
  type Move,
  type RoomAction,
  type RoomState,
  type Seat,
  type ServerMessage,
  type VersionedEvent,
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

export interface RoomListener {
  onChange?: (snap: RoomSnapshot) => void;
  /** Each room event exactly once, in version order (for notices and announcements). */
  onEvent?: (ev: VersionedEvent, state: RoomState | null) => void;
  /** A refusal that did not belong to a pending promise. */
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
  api: ApiClient;
  /** Full websocket URL of the room. */
  wsUrl: string;
  createSocket?: SocketFactory;
  /** First reconnect delay and the cap, in ms. */
  backoffBase?: number;
  backoffMax?: number;
  /** Ping period and the silence after which the socket is considered dead, in ms. */
  pingEvery?: number;
  deadAfter?: number;
  /** How long a move sent over the websocket may wait for its event before a REST retry. */
  moveTimeout?: number;
  random?: () => number;
}

const OPEN = 1;

interface PendingMove {
  resolve: () => void;
  reject: (e: ApiError) => void;
  timer: ReturnType<typeof setTimeout> | null;
  move: Move;
  version: number | null;
}

let counter = 0;
export function newMoveId(): string {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `m-${Date.now().toString(36)}-${counter}-${rnd}`;
}

export function roomSocketUrl(roomId: string, loc: { protocol: string; host: string } = location): string {
  const proto = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${loc.host}/api/rooms/${encodeURIComponent(roomId)}/ws`;
}

export class RoomConnection {
  readonly roomId: string;
  private token: string | null;
  private readonly api: ApiClient;
  private readonly wsUrl: string;
  private readonly createSocket: SocketFactory;
  private readonly backoffBase: number;
  private readonly backoffMax: number;
  private readonly pingEvery: number;
  private readonly deadAfter: number;
  private readonly moveTimeout: number;
  private readonly random: () => number;

  private ws: WebSocketLike | null = null;
  private status: ConnStatus = "idle";
  private state: RoomState | null = null;
  private version = -1;
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
  private resyncing = false;
  private queue: ServerMessage[] = [];
  private pending = new Map<string, PendingMove>();
  private listeners = new Set<RoomListener>();
  private refCounter = 0;
  private detach: (() => void) | null = null;

  constructor(opts: RoomConnectionOptions) {
    this.roomId = opts.roomId;
    this.token = opts.token;
    this.api = opts.api;
    this.wsUrl = opts.wsUrl;
    this.createSocket = opts.createSocket ?? ((url) => new WebSocket(url) as unknown as WebSocketLike);
    this.backoffBase = opts.backoffBase ?? 300;
    this.backoffMax = opts.backoffMax ?? 10_000;
    this.pingEvery = opts.pingEvery ?? 5_000;
    this.deadAfter = opts.deadAfter ?? 16_000;
    this.moveTimeout = opts.moveTimeout ?? 8_000;
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

  subscribe(listener: RoomListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Use a state read over REST before the socket is up (never goes back in versions). */
  seed(state: RoomState, seat: Seat | null = this.seat, role = this.role): void {
    this.seat = seat;
    this.role = role;
    this.applyState(state, state.version);
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
    this.rejectPending(new ApiError("closed", "connection closed"));
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

  /**
   * Make a move. Over the websocket when it is open (confirmed by the move event that
   * carries our move id, or by an `ack` if the server had already applied that id),
   * else over REST. A move still unanswered when the socket reconnects is sent again on
   * the new socket with the same move id; one that gets no answer in time is retried
   * over REST with that id. The server applies a move id at most once.
   */
  move(move: Move): Promise<void> {
    const token = this.requireToken();
    const moveId = newMoveId();
    const version = this.version >= 0 ? this.version : null;
    if (!this.ws || this.ws.readyState !== OPEN || !this.welcomed) {
      return this.restMove(token, move, version, moveId);
    }
    return new Promise<void>((resolve, reject) => {
      const p: PendingMove = { resolve, reject, timer: null, move, version };
      this.pending.set(moveId, p);
      this.sendPending(moveId, p);
    });
  }

  /** A room action over REST; the state it returns is applied at once. */
  async act(action: RoomAction): Promise<ActionResult> {
    const token = this.requireToken();
    try {
      const res = await this.api.action(this.roomId, token, action);
      this.applyState(res.state, res.version);
      return res;
    } catch (e) {
      throw this.handleRefusal(e);
    }
  }

  /** The move the computer would make here. */
  async hint(): Promise<Move | null> {
    const res = await this.act({ type: "hint" });
    const h = res.hint as Move | null | undefined;
    return h ?? null;
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
      switch (ev.code) {
        case CLOSE.takenOver:
          this.rejectPending(new ApiError("taken_over", "seat taken over"));
          this.setStatus("taken_over");
          return;
        case CLOSE.badToken:
          this.rejectPending(new ApiError("bad_token", "bad token"));
          this.setStatus("bad_token");
          return;
        case CLOSE.roomNotFound:
        case CLOSE.roomGone:
          this.rejectPending(new ApiError("room_not_found", "room not found"));
          this.setStatus("gone");
          return;
        default:
          this.scheduleReconnect();
      }
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
      const ws = this.ws;
      if (!ws) return;
      if (Date.now() - this.lastHeard > this.deadAfter) {
        // Silent for too long: treat the socket as dead and reconnect.
        this.dropSocket("silent");
        return;
      }
      this.refCounter += 1;
      this.send({ type: "ping", ref: `p${this.refCounter}` });
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
    if (this.resyncing && msg.type === "event") {
      this.queue.push(msg);
      return;
    }
    switch (msg.type) {
      case "welcome": {
        this.welcomed = true;
        this.everWelcomed = true;
        this.attempt = 0;
        this.seat = msg.seat;
        this.role = msg.role;
        if (msg.complete) {
          for (const ev of msg.missed) if (ev.version > this.version) this.deliver(ev, null);
        }
        this.applyState(msg.state, msg.version, true);
        this.setStatus("online");
        this.resendPending();
        return;
      }
      case "event":
        this.onEventMessage(msg);
        return;
      case "presence":
        if (this.state) {
          this.state = { ...this.state, seats: msg.seats, spectators: msg.spectators };
          this.emitChange();
        }
        return;
      case "ack":
        this.onAck(msg);
        return;
      case "error": {
        const err = new ApiError(msg.code, msg.message, 0, msg.details ?? null);
        const p = msg.ref ? this.pending.get(msg.ref) : undefined;
        if (p && msg.ref) {
          if (p.timer) clearTimeout(p.timer);
          this.pending.delete(msg.ref);
          p.reject(this.handleRefusal(err));
        } else {
          this.handleRefusal(err);
          for (const l of this.listeners) l.onError?.(err);
        }
        return;
      }
      default:
        return;
    }
  }

  /** The server had already applied this move id: the move is confirmed, not played twice. */
  private onAck(msg: AckMessage): void {
    const id = msg.move_id ?? msg.ref;
    const p = id ? this.pending.get(id) : undefined;
    if (p && id) {
      if (p.timer) clearTimeout(p.timer);
      this.pending.delete(id);
      p.resolve();
    }
    // The event of our move (and maybe more) has not reached us: catch up.
    if (msg.version > this.version && this.version >= 0) void this.resync();
  }

  private onEventMessage(msg: EventMessage): void {
    if (msg.version <= this.version) return; // a duplicate: already applied
    if (this.version >= 0 && msg.version > this.version + 1) {
      // Something was missed: catch up before applying anything newer.
      this.queue.push(msg);
      void this.resync();
      return;
    }
    this.deliver({ version: msg.version, event: msg.event }, msg.state);
    this.applyState(msg.state, msg.version);
  }

  /** Fetch what we missed (events since our version, and the state) over REST. */
  private async resync(): Promise<void> {
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      const page = await this.api.events(this.roomId, Math.max(0, this.version), this.token);
      if (page.complete) for (const ev of page.events) if (ev.version > this.version) this.deliver(ev, null);
      this.applyState(page.state, page.version, true);
      this.settleFromMoves();
    } catch {
      // Could not catch up over REST: reconnect; the welcome carries what we missed.
      this.resyncing = false;
      this.queue = [];
      this.dropSocket("resync");
      return;
    }
    this.resyncing = false;
    const queued = this.queue;
    this.queue = [];
    for (const m of queued) this.handle(m);
  }

  private deliver(ev: VersionedEvent, state: RoomState | null): void {
    if (ev.version <= this.version) return;
    const e = ev.event;
    if (e.kind === "move" && e.move_id) {
      const p = this.pending.get(e.move_id);
      if (p) {
        if (p.timer) clearTimeout(p.timer);
        this.pending.delete(e.move_id);
        p.resolve();
      }
    }
    for (const l of this.listeners) l.onEvent?.(ev, state);
  }

  /** After a snapshot: a pending move that the snapshot already contains is done. */
  private settleFromMoves(): void {
    if (!this.state || this.pending.size === 0) return;
    for (const [id, p] of this.pending) {
      if (p.version !== null && this.state.version > p.version + 1) {
        // Our move may or may not be in; let the REST retry with the same id decide.
        if (p.timer) clearTimeout(p.timer);
        this.pending.delete(id);
        const token = this.token;
        if (!token) continue;
        this.restMove(token, p.move, null, id).then(p.resolve, p.reject);
      }
    }
  }

  /**
   * After a reconnect: moves sent on the old socket and still unanswered go again on the
   * new one, with the same move id. The server answers with the move's event (applied
   * now), an `ack` (it was applied before) or an error.
   */
  private resendPending(): void {
    if (!this.state) return;
    for (const [id, p] of this.pending) {
      if (p.version !== null && this.state.version > p.version + 1) {
        // The room moved on past our move: it may or may not be in; the id decides.
        p.version = null;
      }
      this.sendPending(id, p);
    }
  }

  /** Send a pending move over the socket; without an answer in time, retry it over REST. */
  private sendPending(moveId: string, p: PendingMove): void {
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.pending.get(moveId) !== p) return;
      this.pending.delete(moveId);
      const token = this.token;
      if (!token) {
        p.reject(new ApiError("not_allowed", "spectators cannot act"));
        return;
      }
      this.restMove(token, p.move, p.version, moveId).then(p.resolve, p.reject);
    }, this.moveTimeout);
    this.send({ type: "move", move: p.move, version: p.version, move_id: moveId, ref: moveId });
  }

  private applyState(state: RoomState, version: number, force = false): void {
    if (version < this.version) return;
    if (version === this.version && !force && this.state) return;
    this.state = state;
    this.version = version;
    this.emitChange();
  }

  private async restMove(token: string, move: Move, version: number | null, moveId: string): Promise<void> {
    try {
      const res = await this.api.move(this.roomId, token, move, version, moveId);
      this.applyState(res.state, res.version);
    } catch (e) {
      throw this.handleRefusal(e);
    }
  }

  /** Side effects of a refusal: a stale or refused move means our picture may be old. */
  private handleRefusal(e: unknown): ApiError {
    const err = e instanceof ApiError ? e : new ApiError("internal_error", String(e));
    if (["stale_version", "not_your_turn", "illegal_move", "game_over", "busy"].includes(err.code)) {
      void this.refresh();
    }
    return err;
  }

  /** Read the current state over REST (used after a refusal and by the screens). */
  async refresh(): Promise<void> {
    try {
      const res = await this.api.getRoom(this.roomId, this.token);
      this.applyState(res.state, res.state.version, true);
    } catch {
      /* the socket will bring it */
    }
  }

  private requireToken(): string {
    if (!this.token) throw new ApiError("not_allowed", "spectators cannot act");
    return this.token;
  }

  private rejectPending(err: ApiError): void {
    for (const [, p] of this.pending) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
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
