// One room's live connection, put together from three parts: the socket (socket.ts:
// hello, welcome, reconnect), the room history (history.ts: events in version order,
// sync on a gap) and the commands (commands.ts: refs, acks, resends). Screens subscribe
// to snapshots; they never see a socket.
import { Commands, newMoveId, type Command } from "./commands";
import { RoomHistory, type AppliedEvent } from "./history";
import { ApiError } from "./http";
import { RoomSocket, type ConnStatus, type RoomSocketOptions } from "./socket";
import type { AckMessage, ErrorMessage, Hint, LineValues, Move, RoomAction, RoomState, Seat, ServerMessage, ServerSnapshot, WelcomeMessage } from "./types";

export interface RoomSnapshot {
  status: ConnStatus;
  state: RoomState | null;
  /** The last room version applied (-1: none yet). */
  version: number;
  seat: Seat | null;
  role: "player" | "spectator" | null;
  /** Reconnect attempts since the last successful welcome. */
  attempt: number;
  /** Commands sent or waiting to be sent that have no answer yet. */
  unanswered: number;
}

export interface RoomListener {
  onChange?: (snap: RoomSnapshot) => void;
  /** Each room event exactly once, in version order, with the room after it. */
  onEvent?: (ev: AppliedEvent, state: RoomState) => void;
  /** A refusal that did not belong to a command of ours. */
  onError?: (err: ApiError) => void;
}

export interface RoomConnectionOptions extends Omit<RoomSocketOptions, "url"> {
  roomId: string;
  /** Full websocket URL of the room. */
  wsUrl: string;
}

/** Refusals after which our picture of the room may be old: ask for what we missed. */
const STALE_PICTURE = new Set(["stale_version", "not_your_turn", "illegal_move", "game_over", "move_id_reused"]);

/** Why commands cannot be answered once the connection ended for good. */
const FINAL_REFUSAL: Record<string, string> = {
  taken_over: "taken_over",
  bad_token: "bad_token",
  gone: "room_not_found",
  closed: "closed",
};

export class RoomConnection {
  readonly roomId: string;
  private readonly token: string | null;
  private readonly socket: RoomSocket;
  private readonly history: RoomHistory;
  private readonly commands: Commands;
  private readonly listeners = new Set<RoomListener>();
  private seat: Seat | null = null;
  private role: "player" | "spectator" | null = null;

  constructor(opts: RoomConnectionOptions) {
    this.roomId = opts.roomId;
    this.token = opts.token;
    const { roomId: _roomId, wsUrl, ...socketOptions } = opts;
    this.socket = new RoomSocket(
      { ...socketOptions, url: wsUrl },
      {
        since: () => this.history.version,
        onWelcome: (msg) => this.onWelcome(msg),
        onMessage: (msg) => this.onMessage(msg),
        onDown: (status) => this.onDown(status),
        onStatus: () => this.emitChange(),
      },
    );
    this.history = new RoomHistory({
      requestSync: (since) => this.socket.send({ type: "sync", since }),
      onApplied: (ev, state) => {
        for (const l of this.listeners) l.onEvent?.(ev, state);
      },
    });
    this.commands = new Commands({ send: (msg) => this.socket.send(msg) });
  }

  // -- public ---------------------------------------------------------------------------

  snapshot(): RoomSnapshot {
    return {
      status: this.socket.status,
      state: this.history.state,
      version: this.history.version ?? -1,
      seat: this.seat,
      role: this.role,
      attempt: this.socket.attempt,
      unanswered: this.commands.size,
    };
  }

  subscribe(listener: RoomListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Start from a snapshot read over REST before the socket is up. */
  seed(snapshot: ServerSnapshot, seat: Seat | null = this.seat, role = this.role): void {
    this.seat = seat;
    this.role = role;
    this.history.seed(snapshot);
    this.emitChange();
  }

  start(): void {
    this.socket.start();
  }

  stop(): void {
    this.socket.stop();
  }

  /** After a takeover: connect again, which in turn takes the seat back here. */
  reclaim(): void {
    this.socket.reclaim();
  }

  /** Skip the backoff wait and reconnect at once (e.g. the browser came back online). */
  retryNow(): void {
    this.socket.retryNow();
  }

  /** Close the current socket ourselves and reconnect after the backoff. */
  dropSocket(reason: string): void {
    this.socket.dropSocket(reason);
  }

  /** Make a move against the room as held now; resolves once the server has it (ack),
   * rejects with its refusal. Made before the socket is welcomed, it waits for it. */
  async move(move: Move): Promise<void> {
    this.requireToken();
    await this.command({ type: "move", move, version: this.history.version, move_id: newMoveId() });
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
    return { move: ack.hint.move, reason: ack.hint.reason ?? null, count: ack.hint.count ?? 0 };
  }

  /** What every undrawn line of the position is worth, and the room version it is for
   * (practice against the computer, on this seat's turn). */
  async lineValues(): Promise<{ version: number; values: LineValues } | null> {
    this.requireToken();
    const ack = await this.command({ type: "line_values" });
    return ack.line_values ? { version: ack.version, values: ack.line_values } : null;
  }

  /** Ask the server to bring this client up to date (a `sync`). */
  refresh(): void {
    this.history.sync();
  }

  // -- parts ----------------------------------------------------------------------------

  private command(message: Command): Promise<AckMessage> {
    const answer = this.commands.send(message);
    this.emitChange();
    return answer.finally(() => this.emitChange());
  }

  private requireToken(): void {
    if (!this.token) throw new ApiError("not_allowed", "spectators cannot act");
  }

  private onWelcome(msg: WelcomeMessage): void {
    this.seat = msg.seat ?? null;
    this.role = msg.role;
    this.history.welcome(msg);
    this.commands.connected();
    this.emitChange();
  }

  private onDown(status: ConnStatus): void {
    this.history.reset();
    const refusal = FINAL_REFUSAL[status];
    if (refusal) this.commands.fail(new ApiError(refusal, refusal));
    else this.commands.disconnected();
    this.emitChange();
  }

  private onMessage(msg: Exclude<ServerMessage, WelcomeMessage>): void {
    switch (msg.type) {
      case "event":
        this.history.event(msg);
        break;
      case "resync":
        this.history.resync(msg);
        break;
      case "presence":
        this.history.presence(msg);
        break;
      case "ack":
        this.commands.onAck(msg);
        break;
      case "error":
        this.onRefusal(msg);
        break;
      case "pong":
        return;
    }
    this.emitChange();
  }

  private onRefusal(msg: ErrorMessage): void {
    if (!this.commands.onError(msg)) {
      const err = new ApiError(msg.code, msg.message, 0, (msg.details as Record<string, unknown> | null | undefined) ?? null);
      for (const l of this.listeners) l.onError?.(err);
    }
    if (STALE_PICTURE.has(msg.code)) this.history.sync();
  }

  private emitChange(): void {
    const snap = this.snapshot();
    for (const l of this.listeners) l.onChange?.(snap);
  }
}
