// Who sits where, in words: names, letters and colours of the two seats, and the line
// that says whose move it is.
import type { Gender, MessageKey, NameKey, Translator } from "../../i18n";
import type { RoomState, Seat } from "../../net";
import { isFriendRoom, waitingForGuest } from "../allowed";

export interface Person {
  name: string;
  /** A bot account holds the seat (shown with a BOT badge). */
  bot?: boolean;
  /** Shown in claimed boxes and on the player card. */
  letter: string;
  colour: string;
  /** For texts that agree with the name ("Ручка победила"). */
  gender: Gender;
}

export type People = [Person, Person];

export function describeSeats(state: RoomState, mySeat: Seat | null, isPlayer: boolean, tr: Translator): People {
  const { t } = tr;
  const named = (key: NameKey, letter: string, colour: string, params?: { n: number }): Person => ({
    name: t(key, params),
    letter,
    colour,
    gender: tr.gender(key),
  });
  const colourName = (s: Seat) =>
    state.game === "dots" ? t(s === 0 ? "dots.seat0" : "dots.seat1") : t(s === 0 ? "seat.gold" : "seat.coral");
  const out = ([0, 1] as Seat[]).map((s): Person => {
    const colour = colourName(s);
    const held = state.seats.find((x) => x.seat === s);
    if (held?.name && state.mode !== "local") {
      const mine = isPlayer && mySeat === s;
      const name = mine ? `${held.name} (${t("player.you")})` : held.name;
      return { name, letter: held.name.slice(0, 1).toUpperCase(), colour, bot: !!held.bot, gender: "other" };
    }
    if (state.mode === "computer") {
      return state.computer_seat === s
        ? named("player.computer", t("letter.computer"), colour)
        : named("player.you", t("letter.you"), colour);
    }
    const letter = String(s + 1);
    if (state.mode === "local") return named("player.n", letter, colour, { n: s + 1 });
    if (isPlayer && mySeat !== null) return named(s === mySeat ? "player.you" : "player.friend", letter, colour);
    if (state.game === "dots") return named(s === 0 ? "dots.player0" : "dots.player1", letter, colour);
    return named(s === 0 ? "player.gold" : "player.coral", letter, colour);
  });
  return [out[0]!, out[1]!];
}

/** Whether the side to move also drew the last line (it closed a box and moves again). */
export function movesAgain(state: RoomState): boolean {
  const lines = (state.board as { lines?: Array<{ player: number | null }> }).lines;
  if (state.game !== "boxes" || !Array.isArray(lines) || state.move_count === 0) return false;
  const last = lines[lines.length - 1];
  return !!last && last.player === state.to_move;
}

export function isMyTurn(state: RoomState, mySeat: Seat | null, isPlayer: boolean): boolean {
  if (!isPlayer || mySeat === null || state.is_over || waitingForGuest(state)) return false;
  return state.mode === "local" || (state.to_move === mySeat && !(state.mode === "computer" && state.thinking));
}

export function turnText(state: RoomState, mySeat: Seat | null, isPlayer: boolean, people: People, sending: boolean, tr: Translator): string {
  const { t } = tr;
  if (state.is_over) return t("over.title");
  if (sending) return t("turn.sending");
  if (isPlayer && waitingForGuest(state)) return t("room.waitingGuest");
  if (state.mode === "computer" && state.to_move === state.computer_seat) return t("turn.computer");
  const mover = people[state.to_move];
  const again = movesAgain(state);
  const other = t("turn.other", { name: mover.name, gender: mover.gender });
  if (state.mode === "local") return `${other}${again ? ` ${t("turn.again")}` : ""}`;
  if (isPlayer && state.to_move === mySeat) return again ? t("turn.again") : t("turn.yours");
  if (isPlayer && isFriendRoom(state)) return t("turn.waitFriend");
  return other;
}

/** The game's name and its mode, e.g. "Dots and Boxes · Against the computer". */
export function gameTitle(state: RoomState, tr: Translator): { game: string; mode: string } {
  return {
    game: tr.t(`game.${state.game}` as MessageKey),
    mode: tr.t(`mode.${state.daily ? "daily" : state.mode}` as MessageKey),
  };
}
