// Friendly names for the protocol types generated from the server's OpenAPI document
// (api-types.ts, `npm run gen:api`). Nothing here is typed by hand twice.
import type { components } from "./api-types";

type S = components["schemas"];

export type RoomState = S["RoomState"];
export type SeatView = S["SeatView"];
export type SeatGrant = S["SeatGrant"];
export type RoomStateResponse = S["RoomStateResponse"];
export type CreateBoxesRoom = S["CreateBoxesRoom"];
export type CreateDotsRoom = S["CreateDotsRoom"];
export type CreateRoom = CreateBoxesRoom | CreateDotsRoom;
export type ActionResult = S["ActionResult"];
export type EventsPage = S["EventsPage"];
export type VersionedEvent = S["VersionedEvent"];
export type RoomEvent = VersionedEvent["event"];
export type DailyBoard = S["DailyBoard"];
export type DailyResults = S["DailyResults"];
export type ErrorBody = S["ErrorBody"];
export type Level = NonNullable<RoomState["level"]>;
export type Mode = RoomState["mode"];
export type GameName = RoomState["game"];
export type Seat = SeatView["seat"];
export type RequestKind = S["PendingRequest"]["kind"];
export type Move = S["LineMove"] | S["PointMove"];

export type WelcomeMessage = S["WelcomeMessage"];
export type EventMessage = S["EventMessage"];
export type PresenceMessage = S["PresenceMessage"];
export type HintMessage = S["HintMessage"];
export type AckMessage = S["AckMessage"];
export type PongMessage = S["PongMessage"];
export type ErrorMessage = S["ErrorMessage"];
export type ServerMessage =
  | WelcomeMessage
  | EventMessage
  | PresenceMessage
  | HintMessage
  | AckMessage
  | PongMessage
  | ErrorMessage;

export type RoomAction =
  | S["Offer"]
  | S["Accept"]
  | S["Decline"]
  | S["Resign"]
  | S["Undo"]
  | S["Hint"]
  | S["SetLevel"]
  | S["NewGame"];
export type ClientMessage = RoomAction | S["Hello"] | S["MakeMove"] | S["Ping"];

/** Websocket close codes with a meaning (docs/api.md). */
export const CLOSE = {
  takenOver: 4001,
  badToken: 4003,
  roomNotFound: 4004,
  helloTimeout: 4008,
  slowConsumer: 4009,
  roomGone: 4010,
} as const;
