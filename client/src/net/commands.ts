// The commands a seat sends, each answered by exactly one `ack` or `error` carrying its
// `ref` (docs/api.md, "Commands and acks"). What happens to a command:
//
// * issued while the socket is not welcomed yet (first connect, a reconnect): it waits
//   and goes out after the welcome, in the order issued — never dropped;
// * sent, and the socket drops before its answer: a move goes again after the next
//   welcome with the same `move_id` (the server plays an id once and acks the resend as a
//   duplicate); any other command may or may not have been done, so it is refused
//   ("network") rather than done twice;
// * refused `rate_limited`: nothing is sent until its `retry_after` has passed, then it
//   goes again (the refusal means the server did not do it); so does a move refused
//   `unavailable` (storage was down: its `move_id` makes sending it again safe, while
//   another command might be done twice, so that refusal is the player's to see);
// * refused otherwise (`move_id_reused` included): its promise rejects with that refusal.
import { ApiError } from "./http";
import type { AckMessage, ClientMessage, ErrorMessage } from "./types";

/** A command: a client message that gets an ack (not hello, ping or sync). */
export type Command = Exclude<ClientMessage, { type: "hello" } | { type: "ping" } | { type: "sync" }>;

export interface CommandsOptions {
  /** Send on the welcomed socket; false when there is none. */
  send: (msg: Command) => boolean;
  /** Pause used when `rate_limited` comes without `retry_after`, in ms. */
  defaultRetryMs?: number;
}

interface Pending {
  message: Command;
  /** Sent on the current socket (else waiting to be sent). */
  sent: boolean;
  resolve: (ack: AckMessage) => void;
  reject: (e: ApiError) => void;
}

let counter = 0;
function uniqueId(prefix: string): string {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now().toString(36)}-${counter}-${rnd}`;
}

/** A move id of our own: the same id with the same move is played at most once. */
export function newMoveId(): string {
  return uniqueId("m");
}

export class Commands {
  private readonly sendNow: (msg: Command) => boolean;
  private readonly defaultRetryMs: number;
  /** In the order issued (a Map keeps insertion order). */
  private readonly pending = new Map<string, Pending>();
  private online = false;
  private pausedUntil = 0;
  private pauseTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(opts: CommandsOptions) {
    this.sendNow = opts.send;
    this.defaultRetryMs = opts.defaultRetryMs ?? 1_000;
  }

  /** Commands without an answer yet (sent or waiting). */
  get size(): number {
    return this.pending.size;
  }

  /** Send a command (now, or once the socket is welcomed) and wait for its answer. */
  send(message: Command): Promise<AckMessage> {
    const ref = message.ref ?? uniqueId("c");
    const withRef: Command = { ...message, ref };
    return new Promise<AckMessage>((resolve, reject) => {
      this.pending.set(ref, { message: withRef, sent: false, resolve, reject });
      this.flush();
    });
  }

  /** A welcome arrived: resend the moves still unanswered, refuse the other commands that
   * were sent on the old socket, then send what waited. */
  connected(): void {
    this.online = true;
    for (const [ref, p] of [...this.pending]) {
      if (!p.sent) continue;
      if (p.message.type === "move") {
        p.sent = false;
      } else {
        this.pending.delete(ref);
        p.reject(new ApiError("network", "the connection was lost; try again"));
      }
    }
    this.flush();
  }

  /** The socket went away; it reconnects, and the commands wait for its welcome. */
  disconnected(): void {
    this.online = false;
  }

  /** The connection ended for good: every command is refused with `err`. */
  fail(err: ApiError): void {
    this.online = false;
    this.clearPause();
    for (const [ref, p] of [...this.pending]) {
      this.pending.delete(ref);
      p.reject(err);
    }
  }

  /** An ack; false when it answers none of ours. */
  onAck(msg: AckMessage): boolean {
    const p = this.take(msg.ref);
    if (!p) return false;
    p.resolve(msg);
    return true;
  }

  /** An error; false when it answers none of ours (the caller shows it). */
  onError(msg: ErrorMessage): boolean {
    const waiting = msg.ref ? this.pending.get(msg.ref) : undefined;
    if (msg.code === "rate_limited" || (msg.code === "unavailable" && waiting?.message.type === "move")) {
      this.pause(msg.retry_after);
      if (!waiting) return false;
      waiting.sent = false; // it goes again after the pause
      return true;
    }
    const p = this.take(msg.ref);
    if (!p) return false;
    p.reject(new ApiError(msg.code, msg.message, 0, (msg.details as Record<string, unknown> | null | undefined) ?? null));
    return true;
  }

  private take(ref: string | null | undefined): Pending | undefined {
    if (!ref) return undefined;
    const p = this.pending.get(ref);
    if (p) this.pending.delete(ref);
    return p;
  }

  /** Send what waits, in order, unless offline or paused by `rate_limited`. */
  private flush(): void {
    if (!this.online || this.pauseTimer) return;
    for (const p of this.pending.values()) {
      if (p.sent) continue;
      if (!this.sendNow(p.message)) return;
      p.sent = true;
    }
  }

  private pause(retryAfterSeconds: number | null | undefined): void {
    const ms = retryAfterSeconds != null ? Math.max(0, retryAfterSeconds * 1000) : this.defaultRetryMs;
    const until = Date.now() + ms;
    if (this.pauseTimer && until <= this.pausedUntil) return;
    this.clearPause();
    this.pausedUntil = until;
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = null;
      this.flush();
    }, ms);
  }

  private clearPause(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = null;
  }
}
