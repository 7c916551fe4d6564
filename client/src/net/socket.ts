// One room's websocket: connect, say hello with the seat token and the version held, wait
// for the welcome, keep the line alive with pings, and reconnect with backoff when it
// drops — except after the close codes that say reconnecting cannot help (docs/api.md):
// taken over (4001), a token that holds no seat (4003), a room that is gone (4004, 4010).
// It knows nothing of rooms or commands: it hands every server message on.
import { CLOSE, type ClientMessage, type ServerMessage, type WelcomeMessage } from "./types";

export type ConnStatus =
  | "idle"
  | "connecting"
  | "online"
  | "reconnecting"
  | "taken_over"
  | "bad_token"
  | "gone"
  | "closed";

/** Statuses after which nothing reconnects by itself. */
export type FinalStatus = "taken_over" | "bad_token" | "gone" | "closed";

/** The part of the browser WebSocket that we use, so tests can inject a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

export type SocketFactory = (url: string) => WebSocketLike;

export interface RoomSocketOptions {
  /** Full websocket URL of the room. */
  url: string;
  token: string | null;
  createSocket?: SocketFactory;
  /** First reconnect delay and the cap, in ms. */
  backoffBase?: number;
  backoffMax?: number;
  /** Ping period and the silence after which the socket is considered dead, in ms. */
  pingEvery?: number;
  deadAfter?: number;
  random?: () => number;
}

export interface RoomSocketHandlers {
  /** The version to send in `hello` (null: none held). */
  since: () => number | null;
  onWelcome: (msg: WelcomeMessage) => void;
  /** Every other server message of the welcomed socket. */
  onMessage: (msg: Exclude<ServerMessage, WelcomeMessage>) => void;
  /** The socket went away (it will reconnect, or `status` says why not). */
  onDown: (status: ConnStatus) => void;
  onStatus: (status: ConnStatus) => void;
}

const OPEN = 1;

/** What each close code that ends the connection means to the player. */
const FINAL_CLOSES: Partial<Record<number, FinalStatus>> = {
  [CLOSE.takenOver]: "taken_over",
  [CLOSE.badToken]: "bad_token",
  [CLOSE.roomNotFound]: "gone",
  [CLOSE.roomGone]: "gone",
};

const browserSocket: SocketFactory = (url) => new WebSocket(url);

export function roomSocketUrl(roomId: string, loc: { protocol: string; host: string } = location): string {
  const proto = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${loc.host}/api/rooms/${encodeURIComponent(roomId)}/ws`;
}

export class RoomSocket {
  private readonly url: string;
  private readonly token: string | null;
  private readonly createSocket: SocketFactory;
  private readonly backoffBase: number;
  private readonly backoffMax: number;
  private readonly pingEvery: number;
  private readonly deadAfter: number;
  private readonly random: () => number;
  private readonly handlers: RoomSocketHandlers;

  private ws: WebSocketLike | null = null;
  private statusNow: ConnStatus = "idle";
  /** Reconnect attempts since the last welcome. */
  private attemptNow = 0;
  private welcomed = false;
  /** Whether any socket was ever welcomed: only then is a new one a reconnect. */
  private everWelcomed = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private detachWindow: (() => void) | null = null;

  constructor(opts: RoomSocketOptions, handlers: RoomSocketHandlers) {
    this.url = opts.url;
    this.token = opts.token;
    this.createSocket = opts.createSocket ?? browserSocket;
    this.backoffBase = opts.backoffBase ?? 300;
    this.backoffMax = opts.backoffMax ?? 10_000;
    this.pingEvery = opts.pingEvery ?? 5_000;
    this.deadAfter = opts.deadAfter ?? 16_000;
    this.random = opts.random ?? Math.random;
    this.handlers = handlers;
  }

  get status(): ConnStatus {
    return this.statusNow;
  }

  get attempt(): number {
    return this.attemptNow;
  }

  /** Welcomed and open: what is sent now reaches the room. */
  get online(): boolean {
    return this.welcomed && this.ws?.readyState === OPEN;
  }

  start(): void {
    this.stopped = false;
    this.connect();
    this.attachWindow();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.detachWindow?.();
    this.detachWindow = null;
    this.closeSocket(1000, "bye");
    this.setStatus("closed");
    this.handlers.onDown("closed");
  }

  /** After a takeover: connect again, which in turn takes the seat back here. */
  reclaim(): void {
    if (this.statusNow !== "taken_over") return;
    this.attemptNow = 0;
    this.stopped = false;
    this.connect();
  }

  /** Skip the backoff wait and reconnect at once (e.g. the browser came back online). */
  retryNow(): void {
    if (this.statusNow !== "reconnecting" || this.stopped || this.ws) return;
    this.connect();
  }

  /** Close the current socket ourselves and reconnect after the backoff. */
  dropSocket(reason: string): void {
    if (!this.ws || this.stopped) return;
    this.closeSocket(4000, reason);
    this.handlers.onDown("reconnecting");
    this.scheduleReconnect();
  }

  /** Send on the welcomed socket; false when there is none (nothing was sent). */
  send(msg: ClientMessage): boolean {
    if (!this.online) return false;
    return this.write(msg);
  }

  // -- the socket ------------------------------------------------------------------------

  private connect(): void {
    if (this.stopped) return;
    this.clearTimers();
    this.welcomed = false;
    this.setStatus(this.everWelcomed || this.attemptNow > 0 ? "reconnecting" : "connecting");
    let ws: WebSocketLike;
    try {
      ws = this.createSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      this.write({ type: "hello", token: this.token, since: this.handlers.since() });
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
      if (msg.type === "welcome") this.onWelcome(msg);
      else if (this.welcomed) this.handlers.onMessage(msg);
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
      const final = FINAL_CLOSES[ev.code];
      if (final) {
        this.setStatus(final);
        this.handlers.onDown(final);
        return;
      }
      this.handlers.onDown("reconnecting");
      this.scheduleReconnect();
    };
  }

  private onWelcome(msg: WelcomeMessage): void {
    this.welcomed = true;
    this.everWelcomed = true;
    this.attemptNow = 0;
    this.statusNow = "online";
    this.handlers.onWelcome(msg);
    this.handlers.onStatus("online");
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const exp = Math.min(this.backoffMax, this.backoffBase * 2 ** Math.min(this.attemptNow, 16));
    const delay = Math.round(exp * (0.8 + 0.4 * this.random()));
    this.attemptNow += 1;
    this.statusNow = "reconnecting";
    this.handlers.onStatus("reconnecting");
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private closeSocket(code: number, reason: string): void {
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    this.stopPing();
    if (!ws) return;
    ws.onclose = null;
    ws.onmessage = null;
    try {
      ws.close(code, reason);
    } catch {
      /* already closed */
    }
  }

  private write(msg: ClientMessage): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return false;
    try {
      ws.send(JSON.stringify(msg));
      return true;
    } catch {
      return false; // the close handler reconnects
    }
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
      this.write({ type: "ping" });
    }, this.pingEvery);
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
    if (this.detachWindow || typeof window === "undefined") return;
    const online = () => this.retryNow();
    // The browser knows the network is gone: do not wait for the socket to notice.
    const offline = () => this.dropSocket("offline");
    const visible = () => {
      if (document.visibilityState === "visible") this.retryNow();
    };
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    document.addEventListener("visibilitychange", visible);
    this.detachWindow = () => {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      document.removeEventListener("visibilitychange", visible);
    };
  }

  private setStatus(status: ConnStatus): void {
    if (this.statusNow === status) return;
    this.statusNow = status;
    this.handlers.onStatus(status);
  }
}
