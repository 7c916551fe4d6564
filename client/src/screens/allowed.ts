// The room rules the screen needs: what the person at this screen may do now. Kept in
// this one module on purpose: the server will send each seat's allowed actions, and this
// file is then replaced by reading them. Components ask here; they never re-derive rules.
import type { RoomState, Seat } from "../net";

export interface Allowed {
  /** Put a line or a mark on the board now. */
  move: boolean;
  /** Take back moves (or, right after a new game, bring the previous game back). */
  undo: boolean;
  hint: boolean;
  setLevel: boolean;
  /** Start a new game at once (computer and one-device rooms). */
  newGame: boolean;
  /** A new game asks first: the current one is under way. */
  newGameNeedsConfirm: boolean;
  /** Friend rooms: ask the other player for a new game. */
  offerRestart: boolean;
  /** Friend rooms before the guest came: start again alone. */
  restartAlone: boolean;
  /** Friend rooms: offer to end the game (a draw in Dots and Boxes). */
  offerEnd: boolean;
  resign: boolean;
  /** Answer the other player's pending offer. */
  answer: boolean;
  /** Withdraw my own pending offer. */
  withdraw: boolean;
}

const NOTHING: Allowed = {
  move: false,
  undo: false,
  hint: false,
  setLevel: false,
  newGame: false,
  newGameNeedsConfirm: false,
  offerRestart: false,
  restartAlone: false,
  offerEnd: false,
  resign: false,
  answer: false,
  withdraw: false,
};

export function isFriendRoom(state: RoomState): boolean {
  return state.mode === "live" || state.mode === "correspondence";
}

/** A friend room whose second seat nobody has taken yet. */
export function waitingForGuest(state: RoomState): boolean {
  return isFriendRoom(state) && state.seats.some((s) => s.kind === "human" && !s.taken);
}

/** How many moves of this game the seat made (lines drawn, marks placed). */
export function movesBy(state: RoomState, seat: Seat): number {
  if (state.game === "boxes") {
    const lines = (state.board as { lines?: Array<{ player: number | null }> }).lines ?? [];
    return lines.filter((l) => l.player === seat).length;
  }
  // Dots: turns alternate and the first seat moves first.
  const n = state.moves.length;
  return seat === 0 ? Math.ceil(n / 2) : Math.floor(n / 2);
}

export function allowedActions(state: RoomState, seat: Seat | null, isPlayer: boolean, sending = false): Allowed {
  if (!isPlayer || seat === null) return NOTHING;
  const friend = isFriendRoom(state);
  const waiting = waitingForGuest(state);
  const over = state.is_over;
  const solo = state.mode === "computer" || state.mode === "local";
  const practiceBoard = solo && !state.daily;
  const endedByHand = state.outcome?.reason === "resignation" || state.outcome?.reason === "agreement";
  const mine = state.mode === "local" ? state.moves.length : movesBy(state, seat);
  const myRequest = state.requests.some((r) => r.seat === seat);
  const theirRequest = state.requests.some((r) => r.seat !== seat);
  const myTurn = state.mode === "local" || state.to_move === seat;
  return {
    move: !over && !state.thinking && !waiting && myTurn && !sending,
    // Undo takes back my last move and the replies after it; with none of mine in this
    // game, it brings back the game a "New game" replaced.
    undo: practiceBoard && !endedByHand && !sending && (mine > 0 || state.game_number > 1),
    hint: practiceBoard && !over && !state.thinking && myTurn && !sending,
    setLevel: state.mode === "computer" && !state.daily,
    newGame: solo,
    newGameNeedsConfirm: solo && !over && state.moves.length > 0,
    offerRestart: friend && !waiting && !myRequest,
    restartAlone: friend && waiting && state.moves.length > 0,
    offerEnd: friend && !waiting && !over && !myRequest,
    resign: !over && state.mode !== "local" && !waiting,
    answer: friend && theirRequest,
    withdraw: friend && myRequest,
  };
}
