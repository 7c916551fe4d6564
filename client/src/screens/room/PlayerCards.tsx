// The two players: name, colour, presence, score, a flag on whoever is to move, and in
// rooms with clocks the time each has left (the running one counts down here; the server
// keeps the time and corrects it with every status).
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../../i18n";
import type { RoomState, Seat } from "../../net";
import { isFriendRoom, waitingForGuest } from "../allowed";
import { clockFace, isLow, timeLeft } from "./clocks";
import type { People } from "./people";

/** The time now, renewed every `everyMs` while `running` (a running clock's tick). */
function useNow(running: boolean, everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!running) return;
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [running, everyMs]);
  return now;
}

export function PlayerCards({ state, people, mySeat }: { state: RoomState; people: People; mySeat: Seat | null }): JSX.Element {
  const { t, lang } = useI18n();
  const friend = isFriendRoom(state);
  const clock = state.time_control ? state.clock : null;
  const control = state.time_control;
  // Correspondence clocks read in days and hours: a tick a second is plenty.
  const now = useNow(!!clock && clock.running !== null && !state.is_over, control?.per_move ? 1000 : 250);
  return (
    <ol class="players">
      {([0, 1] as Seat[]).map((s) => {
        const seat = state.seats.find((x) => x.seat === s);
        const toMove = !state.is_over && !waitingForGuest(state) && state.to_move === s;
        const presence = !friend || !seat ? null : !seat.taken ? "free" : seat.connected ? "online" : "offline";
        return (
          <li
            key={s}
            class={`player seat${s}${toMove ? " to-move" : ""}${s === mySeat ? " me" : ""}`}
            data-seat={s}
            aria-current={toMove ? "step" : undefined}
          >
            <span class="chip" aria-hidden="true">
              {people[s].letter}
            </span>
            <span class="who">
              <span class="name">
                {people[s].name}
                {people[s].bot ? <span class="badge bot">{t("player.bot")}</span> : null}
              </span>
              <span class="meta">
                {people[s].colour}
                {presence ? (
                  <span class={`presence ${presence}`}>
                    {" · "}
                    {t(`presence.${presence}` as MessageKey)}
                  </span>
                ) : null}
              </span>
            </span>
            {clock && control ? (
              <span
                class={`clock${clock.running === s && !state.is_over ? " running" : ""}${isLow(timeLeft(clock, s, now), control) ? " low" : ""}`}
                role="timer"
                aria-label={t("clock.left", { time: clockFace(timeLeft(clock, s, now), lang) })}
                data-testid={`clock-${s}`}
              >
                {clockFace(timeLeft(clock, s, now), lang)}
              </span>
            ) : null}
            <span class="score" aria-label={`${t("player.score")}: ${state.scores[s]}`} data-testid={`score-${s}`}>
              {state.scores[s]}
            </span>
            {toMove ? <span class="sr-only">{t("player.toMove")}</span> : null}
            {toMove ? (
              <span class="turn-flag" aria-hidden="true">
                {t("player.toMove")}
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
