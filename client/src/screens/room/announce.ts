// What a screen reader hears about a room event: the other side's moves, every capture,
// offers and the end of the game. Pure: the room screen feeds it events as they come.
import type { MessageKey, Translator } from "../../i18n";
import type { RoomState, Seat, AppliedEvent } from "../../net";
import type { People } from "./people";
import { squareName } from "../../notation";

export interface AnnounceContext {
  tr: Translator;
  people: People;
  /** The seat at this screen (null: a spectator); in one-device rooms both are "mine". */
  mySeat: Seat | null;
  mode: RoomState["mode"];
  game: RoomState["game"];
}

/** The score a seat gained with one change (captures, closed boxes). */
function gained(before: RoomState | null, after: RoomState | null, seat: Seat): number {
  if (!before || !after) return 0;
  return Math.max(0, after.scores[seat] - before.scores[seat]);
}

/** Where the move went, in the notation, as the texts that name a line or a point take it. */
function moveWhere(move: Record<string, unknown>): Record<string, string> {
  const line = move.line as [[number, number], [number, number]] | undefined;
  if (line) return { from: squareName(line[0][0], line[0][1]), to: squareName(line[1][0], line[1][1]) };
  const point = move.point as [number, number] | undefined;
  return point ? { point: squareName(point[0], point[1]) } : {};
}

export function announceEvent(ev: AppliedEvent, before: RoomState | null, after: RoomState | null, ctx: AnnounceContext): string | null {
  const { t, tn } = ctx.tr;
  const e = ev.event;
  const others = ctx.mode !== "local" && ctx.mySeat !== null;
  switch (e.kind) {
    case "move": {
      const { name, gender } = ctx.people[e.seat];
      const parts: string[] = [];
      const theirs = !others || e.seat !== ctx.mySeat;
      if (theirs && ctx.mode !== "local") {
        parts.push(t(ctx.game === "boxes" ? "announce.drew" : "announce.placed", { name, gender, ...moveWhere(e.move) }));
      }
      const n = gained(before, after, e.seat);
      if (n > 0) parts.push(tn(ctx.game === "boxes" ? "announceBoxes" : "announceCaptures", n, { name }));
      return parts.length ? parts.join(" ") : null;
    }
    case "ended":
      if (e.reason === "agreement") return t("over.agreed");
      if (e.reason === "time") return e.seat === null ? null : t("over.time", { name: ctx.people[e.seat].name, gender: ctx.people[e.seat].gender });
      return e.seat === null ? null : t("over.resigned", { name: ctx.people[e.seat].name, gender: ctx.people[e.seat].gender });
    case "undone":
      return t("announce.undone");
    case "restarted":
      return t("restart.done");
    case "level":
      return t("controls.levelChanged", { level: t(`level.${e.level}` as MessageKey) });
    case "joined":
      return e.seat === ctx.mySeat ? null : t("announce.joined", { name: ctx.people[e.seat].name, gender: ctx.people[e.seat].gender });
    case "requested": {
      if (e.seat === ctx.mySeat) return null;
      const key = e.request === "restart" ? "restart.theirs" : ctx.game === "dots" ? "dots.end.theirs" : "end.theirs";
      return t(key, { name: ctx.people[e.seat].name });
    }
    case "declined":
      if (e.seat === null || e.seat === ctx.mySeat) return null;
      return t(e.request === "restart" ? "restart.declined" : ctx.game === "dots" ? "dots.end.declined" : "end.declined");
    default:
      return null;
  }
}

/** The headline of a finished game for the person at this screen. */
export function resultHeadline(state: RoomState, people: People, mySeat: Seat | null, tr: Translator): string {
  const winner = state.outcome?.winner ?? null;
  if (winner === null) return tr.t("over.draw");
  if (mySeat !== null && state.mode !== "local") return winner === mySeat ? tr.t("over.youWin") : tr.t("over.youLose");
  return tr.t("over.won", { name: people[winner].name, gender: people[winner].gender });
}

export function finalScore(state: RoomState, people: People, tr: Translator): string {
  const scores = state.scores;
  return tr.t("over.score", { a: `${people[0].name} ${scores[0]}`, b: `${scores[1]} ${people[1].name}` });
}
