// The only way the rest of the client reaches the server.
import { ApiClient } from "./http";
import { RoomConnection, roomSocketUrl, type SocketFactory } from "./room";

export { ApiClient, ApiError } from "./http";
export { RoomConnection, roomSocketUrl, newMoveId } from "./room";
export { fromSnapshot } from "./roomModel";
export type { AppliedEvent, ConnStatus, RoomSnapshot, RoomListener, WebSocketLike, SocketFactory } from "./room";
export type * from "./types";

export const api = new ApiClient("");

export function openRoom(roomId: string, token: string | null, createSocket?: SocketFactory): RoomConnection {
  return new RoomConnection({
    roomId,
    token,
    wsUrl: roomSocketUrl(roomId),
    ...(createSocket ? { createSocket } : {}),
  });
}
