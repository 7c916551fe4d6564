// Keeping seats: what happens in the browser after the server grants a seat.
import { fromSnapshot, type RoomState, type SeatGrant } from "../net";
import { storage } from "../storage";

export function sizeOf(state: Pick<RoomState, "game" | "board">): string {
  const b = state.board as { rows?: number; cols?: number; width?: number; height?: number };
  if (state.game === "boxes" && b.rows && b.cols) return `${b.cols}×${b.rows}`;
  if (b.width && b.height) return `${b.width}×${b.height}`;
  return "";
}

/** Store a granted seat; computer and hot-seat rooms become the game to continue. */
export function rememberGrant(grant: SeatGrant, size?: string): void {
  if (!grant.token || grant.seat === null) return;
  const st = fromSnapshot(grant.state);
  if (st.mode === "computer" || st.mode === "local") {
    // One local game per game kind: the previous one is forgotten.
    for (const old of storage.localGames()) {
      if (old.game === st.game && old.roomId !== grant.room_id) storage.forgetSeat(old.roomId);
    }
    storage.setLocalGame(st.game, grant.room_id);
  }
  storage.saveSeat({
    roomId: grant.room_id,
    token: grant.token,
    seat: grant.seat,
    game: st.game,
    mode: st.mode,
    size: size || sizeOf(st),
    inviteUrl: grant.invite_url,
    daily: st.daily ?? null,
    summary: {
      version: st.version,
      scores: [st.scores[0], st.scores[1]],
      toMove: st.to_move,
      isOver: st.is_over,
      level: st.level,
    },
  });
}
