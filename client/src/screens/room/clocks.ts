// The players' clocks as the screen shows them: the server keeps the time and says, in
// every status, what each clock held when it wrote it and whose clock runs; the screen
// counts the running one down from the moment that status arrived. Pure functions.
import type { RoomClock as Clocks, Seat, TimeControl } from "../../net";

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/** What `seat`'s clock shows at `now` (ms, never below 0). */
export function timeLeft(clock: Clocks, seat: Seat, now: number): number {
  const told = clock.left_ms[seat];
  const spent = clock.running === seat ? Math.max(0, now - clock.received_at) : 0;
  return Math.max(0, told - spent);
}

/** Whole seconds up, so a clock reads 0:00 only once its time is really gone. */
const wholeSeconds = (ms: number) => Math.ceil(ms / SECOND);

const two = (n: number) => String(n).padStart(2, "0");

/**
 * A clock's face: m:ss (h:mm:ss from an hour); for correspondence, from a day up, days
 * and hours in the reader's language (2 d 5 h).
 */
export function clockFace(ms: number, lang: string): string {
  if (ms >= DAY) {
    const days = Math.floor(ms / DAY);
    const hours = Math.floor((ms % DAY) / HOUR);
    const unit = (n: number, u: "day" | "hour") => new Intl.NumberFormat(lang, { style: "unit", unit: u, unitDisplay: "narrow" }).format(n);
    return hours ? `${unit(days, "day")} ${unit(hours, "hour")}` : unit(days, "day");
  }
  const s = wholeSeconds(ms);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** Little time left: the face turns urgent (a tenth of the game, at most a minute; a correspondence move's last day). */
export function isLow(ms: number, control: TimeControl): boolean {
  if (control.per_move) return ms < DAY;
  return ms < Math.min(60 * SECOND, control.initial_seconds * 100);
}

/** The time control in words' parts: minutes and seconds per move, or days per move. */
export function controlParts(control: TimeControl): { minutes: number; increment: number } | { days: number } {
  if (control.per_move) return { days: Math.round(control.initial_seconds / 86400) };
  return { minutes: Math.round((control.initial_seconds / 60) * 10) / 10, increment: Math.round(control.increment_seconds) };
}

/** When the clock that runs now runs out (ms since the epoch), or null if none runs. */
export function deadlineOf(clock: Clocks | null): number | null {
  if (!clock || clock.running === null) return null;
  return clock.received_at + clock.left_ms[clock.running];
}

/** "5 minutes", "3 дня", "2 sekundy": a number with its unit, in the language's own plural (CLDR, through Intl). */
export function unitText(n: number, unit: "day" | "hour" | "minute" | "second", lang: string): string {
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(n);
}

/** A span of time in words, roughly: days and hours, hours and minutes, or minutes. */
export function spanText(ms: number, lang: string): string {
  const minutes = Math.max(0, Math.ceil(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return hours ? `${unitText(days, "day", lang)} ${unitText(hours, "hour", lang)}` : unitText(days, "day", lang);
  if (hours) return minutes % 60 ? `${unitText(hours, "hour", lang)} ${unitText(minutes % 60, "minute", lang)}` : unitText(hours, "hour", lang);
  return unitText(minutes, "minute", lang);
}

/** The room's time control in a sentence's parts, for the invitation and the room's note. */
export function controlWords(control: TimeControl, lang: string): { minutes: string; increment: string | null } | { days: string } {
  const parts = controlParts(control);
  if ("days" in parts) return { days: unitText(parts.days, "day", lang) };
  return { minutes: unitText(parts.minutes, "minute", lang), increment: parts.increment ? unitText(parts.increment, "second", lang) : null };
}
