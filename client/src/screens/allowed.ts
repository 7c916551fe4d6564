// What the person at this screen may do now, as the controls need it: read from the
// actions the server allows each seat (status.allowed), plus whether it is their turn.
// Components ask here; they never re-derive room rules.
import type { Action, RoomState, Seat } from "../net";

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
  /** Friend rooms: ask the other player to let me take my last move back. */
  offerTakeback: boolean;
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
  offerTakeback: false,
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

export function allowedActions(state: RoomState, seat: Seat | null, isPlayer: boolean, sending = false): Allowed {
  if (!isPlayer || seat === null) return NOTHING;
  // What the seat may ask for is the server's decision (status.allowed); this module only
  // says how the screen offers it.
  const may = new Set<Action>(state.allowed[seat] ?? []);
  const waiting = waitingForGuest(state);
  const over = state.is_over;
  const myRequest = state.requests.some((r) => r.seat === seat);
  const myTurn = state.mode === "local" || state.to_move === seat;
  return {
    move: !over && !state.thinking && !waiting && myTurn && !sending,
    undo: may.has("undo") && !sending,
    hint: may.has("hint") && !state.thinking && !sending,
    setLevel: may.has("set_level"),
    newGame: may.has("new_game"),
    newGameNeedsConfirm: may.has("new_game") && !over && state.move_count > 0,
    offerRestart: may.has("offer_restart") && !waiting,
    restartAlone: may.has("offer_restart") && waiting && state.move_count > 0,
    offerEnd: may.has("offer_end"),
    offerTakeback: may.has("offer_takeback") && !sending,
    resign: may.has("resign") && state.mode !== "local" && !waiting,
    answer: may.has("accept_restart") || may.has("accept_end") || may.has("accept_takeback"),
    withdraw: myRequest && (may.has("decline_restart") || may.has("decline_end") || may.has("decline_takeback")),
  };
}
