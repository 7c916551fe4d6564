// Pending offers in a friend room: the other player's (accept or decline) and my own
// (withdraw). Shown next to the board, never below it.
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import type { RequestKind, RoomAction, RoomState, Seat } from "../../net";
import type { People } from "./people";

export function Offers(props: { state: RoomState; people: People; mySeat: Seat | null; onAct: (a: RoomAction) => void }): JSX.Element | null {
  const { t } = useI18n();
  const { state, people, mySeat, onAct } = props;
  const mine = state.requests.find((r) => r.seat === mySeat);
  const theirs = state.requests.find((r) => r.seat !== mySeat);
  if (!mine && !theirs) return null;
  const dots = state.game === "dots";
  const theirText = (kind: RequestKind, seat: Seat) =>
    t(kind === "restart" ? "restart.theirs" : kind === "takeback" ? "takeback.theirs" : dots ? "dots.end.theirs" : "end.theirs", {
      name: people[seat].name,
    });
  const myText = (kind: RequestKind) =>
    t(kind === "restart" ? "restart.mine" : kind === "takeback" ? "takeback.mine" : dots ? "dots.end.mine" : "end.mine");
  return (
    <section class="offers" aria-label={t("offers.label")} data-testid="offers">
      {theirs ? (
        <div class="offer theirs">
          <p>{theirText(theirs.kind, theirs.seat)}</p>
          <div class="actions">
            <button type="button" class="btn primary" onClick={() => onAct({ type: "accept", kind: theirs.kind })}>
              {t("restart.accept")}
            </button>
            <button type="button" class="btn" onClick={() => onAct({ type: "decline", kind: theirs.kind })}>
              {t("restart.decline")}
            </button>
          </div>
        </div>
      ) : null}
      {mine ? (
        <div class="offer mine">
          <p>{myText(mine.kind)}</p>
          <div class="actions">
            <button type="button" class="btn" onClick={() => onAct({ type: "decline", kind: mine.kind })}>
              {t("restart.withdraw")}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
