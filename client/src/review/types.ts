// The review and analysis data the client reads from the server (docs/api.md, "Game
// review"), under the names the review screens use.
import type { EventMessage, GameName, Level, Mode, Move, Seat, ServerSnapshot } from "../net/types";

type MoveChange = Extract<EventMessage["event"], { kind: "move" }>;

export interface ReviewMove {
  ply: number;
  /** The move in the record's notation, e.g. "a1-b1" or "c5". */
  notation: string;
  seat: Seat;
  /** The change the move made, as a websocket move event carries it. */
  change: MoveChange;
  /** The scores after the move. */
  scores: [number, number];
  to_move: Seat;
}

export interface ReviewSeat {
  seat: Seat;
  kind: "human" | "computer" | null;
  colour: "gold" | "coral";
}

export interface ReviewResult {
  winner: Seat | null;
  reason: string;
  scores: [number, number];
}

export interface Review {
  /** The finished game's id, or null for an imported record. */
  id: string | null;
  game: GameName;
  mode: Mode | null;
  level?: Level | null;
  size: [number, number];
  seats: ReviewSeat[];
  result: ReviewResult | null;
  finished_at: string | null;
  daily?: string | null;
  /** The record in the text notation. */
  notation: string;
  /** The record as JSON. */
  record: Record<string, unknown>;
  start: ServerSnapshot["board"];
  moves: ReviewMove[];
}

/** The computer's view of the position before move ply + 1. */
export interface AnalysedPosition {
  ply: number;
  to_move: Seat;
  exact: boolean;
  value: number | null;
  /** Dots and Boxes: the final score difference, gold minus coral, with best play from here. */
  margin: number | null;
  /** Exact: every best move; otherwise the hard level's choice (Dots: its suggestion). */
  best: Move[];
  played: Move | null;
  /** Boxes of margin the played move gave away against best play (exact only). */
  loss: number | null;
  mistake: boolean;
}

export interface Analysis {
  id: string;
  game: GameName;
  status: "running" | "done" | "failed";
  done: number;
  total: number;
  positions: AnalysedPosition[];
}
