// Keeping seats: what happens in the browser after the server grants a seat, and
// starting a room from the screens.
import { api, fromSnapshot, type CreateRoom, type RoomState, type SeatGrant } from "../net";
import { storage, type SeatRecord } from "../storage";
import { navigate } from "../router";
import { dailyRoomBody } from "./dailyCount";

export function sizeOf(state: Pick<RoomState, "game" | "board">): string {
  const b = state.board as { rows?: number; cols?: number; width?: number; height?: number };
  if (state.game === "boxes" && b.rows && b.cols) return `${b.cols}×${b.rows}`;
  if (b.width && b.height) return `${b.width}×${b.height}`;
  return "";
}

/** Store a granted seat; computer and hot-seat rooms join the games to continue. */
export function rememberGrant(grant: SeatGrant, size?: string): void {
  if (!grant.token || grant.seat === null) return;
  const st = fromSnapshot(grant.state);
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
      gameNumber: st.game_number,
    },
  });
}

/** Create a room, keep its seat and open it. */
export async function startRoom(body: CreateRoom, size?: string): Promise<void> {
  const name = storage.settings().name;
  const friend = body.mode === "live" || body.mode === "correspondence";
  const grant = await api.createRoom(friend && name ? { ...body, name } : body);
  rememberGrant(grant, size);
  navigate(`/r/${grant.room_id}`);
}

/** Keep the seat a challenge gave us (``token`` from posting or taking it) and open the room. */
export async function enterChallengeRoom(roomId: string, token: string, seat: 0 | 1): Promise<void> {
  const room = await api.getRoom(roomId, token);
  rememberGrant({ room_id: roomId, seat, role: "player", token, invite_code: null, invite_url: null, state: room.state });
  navigate(`/r/${roomId}`);
}

/** A room like one this browser played in (same game, mode, size and level). */
export function bodyLike(rec: SeatRecord): CreateRoom {
  if (rec.daily) return dailyRoomBody(storage.dailyPlayer()) as CreateRoom;
  const [a, b] = rec.size.split("×").map((n) => Number(n));
  const level = (rec.summary?.level ?? "normal") as "easy" | "normal" | "hard";
  if (rec.game === "boxes") return { game: "boxes", mode: rec.mode, cols: a || 5, rows: b || 5, level };
  return { game: "dots", mode: rec.mode, width: a || 20, height: b || 20, level };
}
