// The only way the rest of the client reaches the server.
import { ApiClient } from "./http";
import { RoomConnection } from "./room";
import { roomSocketUrl, type SocketFactory } from "./socket";

export { ApiClient, ApiError } from "./http";
export { RoomConnection } from "./room";
export { roomSocketUrl } from "./socket";
export { newMoveId } from "./commands";
export { fromSnapshot } from "./roomModel";
export type { RoomSnapshot, RoomListener } from "./room";
export type { AppliedEvent } from "./history";
export type { ConnStatus, WebSocketLike, SocketFactory } from "./socket";
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
