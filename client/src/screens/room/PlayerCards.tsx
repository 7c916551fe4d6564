// The two players: name, colour, presence, score, and a flag on whoever is to move.
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../../i18n";
import type { RoomState, Seat } from "../../net";
import { isFriendRoom, waitingForGuest } from "../allowed";
import type { People } from "./people";

export function PlayerCards({ state, people, mySeat }: { state: RoomState; people: People; mySeat: Seat | null }): JSX.Element {
  const { t } = useI18n();
  const friend = isFriendRoom(state);
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
