// REST calls to the tetrad server. Every refusal becomes an ApiError with the server's
// stable code; a failed connection becomes the code "network".
import type {
  AcceptedChallenge,
  BotView,
  ChallengeView,
  CreateRoom,
  DailyBoard,
  DailyResults,
  ErrorBody,
  GameName,
  Ladder,
  LadderGame,
  NewChallenge,
  PostedChallenge,
  RoomStateResponse,
  SeatGrant,
  SizeClass,
} from "./types";
import type { Analysis, Review } from "../review/types";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 0,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export class ApiClient {
  constructor(
    private readonly base = "",
    private readonly fetchImpl: FetchLike = (i, init) => fetch(i, init),
  ) {}

  private async call<T>(method: string, path: string, opts: { token?: string | null; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        cache: "no-store",
      });
    } catch (e) {
      throw new ApiError("network", e instanceof Error ? e.message : String(e));
    }
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok) {
      const body = (data ?? {}) as Partial<ErrorBody> & { detail?: unknown };
      const code = typeof body.code === "string" ? body.code : res.status === 422 ? "bad_request" : `http_${res.status}`;
      const message = typeof body.message === "string" ? body.message : res.statusText;
      throw new ApiError(code, message, res.status, (body.details as Record<string, unknown>) ?? null);
    }
    return data as T;
  }

  createRoom(body: CreateRoom): Promise<SeatGrant> {
    return this.call("POST", "/api/rooms", { body });
  }

  /** Take the free seat with an invite code; with our own token it returns our seat. */
  joinRoom(roomId: string, inviteCode: string, token?: string | null, name?: string | null): Promise<SeatGrant> {
    const body = name ? { invite_code: inviteCode, name } : { invite_code: inviteCode };
    return this.call("POST", `/api/rooms/${enc(roomId)}/join`, { body, token: token ?? null });
  }

  /** The server's bots, connected ones first, with their ratings. */
  bots(): Promise<BotView[]> {
    return this.call("GET", "/api/bots");
  }

  /** The ladder of one game and board size class: bots and the computer's levels, by rating. */
  ladder(game: GameName, sizeClass: SizeClass): Promise<Ladder> {
    return this.call("GET", `/api/ladder/${game}/${sizeClass}`);
  }

  /** A ladder player's latest finished games. */
  ladderGames(player: string): Promise<LadderGame[]> {
    return this.call("GET", `/api/ladder/players/${enc(player)}/games`);
  }

  /** Open challenges anybody may take. */
  challenges(): Promise<ChallengeView[]> {
    return this.call("GET", "/api/challenges");
  }

  /** Post a challenge; the answer holds our seat token for the game it becomes. */
  postChallenge(body: NewChallenge): Promise<PostedChallenge> {
    return this.call("POST", "/api/challenges", { body });
  }

  /** A challenge as it is now (with our seat once accepted, given our token). */
  challenge(id: string, token?: string | null): Promise<ChallengeView> {
    return this.call("GET", `/api/challenges/${enc(id)}`, { token: token ?? null });
  }

  acceptChallenge(id: string, name?: string | null): Promise<AcceptedChallenge> {
    return this.call("POST", `/api/challenges/${enc(id)}/accept`, { body: name ? { name } : {} });
  }

  cancelChallenge(id: string, token: string): Promise<null> {
    return this.call("DELETE", `/api/challenges/${enc(id)}`, { token });
  }

  getRoom(roomId: string, token?: string | null): Promise<RoomStateResponse> {
    return this.call("GET", `/api/rooms/${enc(roomId)}`, { token: token ?? null });
  }

  /** A finished game, move by move, for the review page (no token needed). */
  review(gameId: string): Promise<Review> {
    return this.call("GET", `/api/games/${enc(gameId)}/review`);
  }

  /** The same for a record pasted or loaded by the player. */
  reviewRecord(record: string | Record<string, unknown>): Promise<Review> {
    return this.call("POST", "/api/records/review", { body: { record } });
  }

  /** A finished game's analysis as far as it went, if it was ever started. */
  gameAnalysis(gameId: string): Promise<Analysis> {
    return this.call("GET", `/api/games/${enc(gameId)}/analysis`);
  }

  /** Any analysis by its id, as far as it has gone; with `since` (the `done` of the last
   * reply) only the positions analysed after those (merge with `mergeAnalysis`). */
  analysis(analysisId: string, since = 0): Promise<Analysis> {
    return this.call("GET", `/api/analysis/${enc(analysisId)}${since > 0 ? `?since=${since}` : ""}`);
  }

  startAnalysis(gameId: string): Promise<Analysis> {
    return this.call("POST", `/api/games/${enc(gameId)}/analysis`);
  }

  /** Analyse a record that is not stored on the server (text notation or JSON). */
  analyseRecord(record: string | Record<string, unknown>): Promise<Analysis> {
    return this.call("POST", "/api/analysis", { body: { record } });
  }

  daily(): Promise<DailyBoard> {
    return this.call("GET", "/api/daily");
  }

  /** Everybody's results on one day's board (`date`: YYYY-MM-DD, UTC). */
  dailyResults(date: string): Promise<DailyResults> {
    return this.call("GET", `/api/daily/results?date=${enc(date)}`);
  }
}

const enc = encodeURIComponent;
