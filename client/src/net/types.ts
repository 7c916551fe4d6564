// Friendly names for the protocol types generated from the server's OpenAPI document
// (api-types.ts, `npm run gen:api`). Nothing here is typed by hand twice; the one
// hand-written type, RoomState, is the client's own picture of a room (roomModel.ts).
import type { components } from "./api-types";

type S = components["schemas"];

export type ServerSnapshot = S["RoomSnapshot"];
export type Status = S["Status"];
export type BoxesBoardWire = S["BoxesBoard"];
export type DotsBoardWire = S["DotsBoard"];
export type AreaWire = S["Area"];
export type HouseWire = S["House"];
export type SeatView = S["SeatView"];
export type SeatGrant = S["SeatGrant"];
export type RoomStateResponse = S["RoomStateResponse"];
export type CreateBoxesRoom = S["CreateBoxesRoom"];
export type CreateDotsRoom = S["CreateDotsRoom"];
export type CreateRoom = CreateBoxesRoom | CreateDotsRoom;
export type ActionResult = S["ActionResult"];
export type EventsPage = S["EventsPage"];
export type DailyBoard = S["DailyBoard"];
export type DailyResults = S["DailyResults"];
export type ErrorBody = S["ErrorBody"];
export type BotView = S["BotView"];
export type ChallengeView = S["ChallengeView"];
export type Ladder = S["Ladder"];
export type LadderEntry = S["LadderEntry"];
export type LadderGame = S["LadderGame"];
export type SizeClass = Ladder["size_class"];
export type PostedChallenge = S["PostedChallenge"];
export type NewChallenge = S["BoxesChallenge"] | S["DotsChallenge"];
export type AcceptedChallenge = S["Accepted"];
export type Level = NonNullable<ServerSnapshot["level"]>;
export type Mode = ServerSnapshot["mode"];
export type GameName = ServerSnapshot["game"];
export type Seat = SeatView["seat"];
export type RequestKind = S["PendingRequestView"]["kind"];
export type LineMove = S["LineMove"];
export type PointMove = S["PointMove"];
export type Move = LineMove | PointMove;
/** What the computer would play here, and why (a reason code, null for a quiet move). */
export interface Hint {
  move: Move;
  reason: string | null;
  count: number;
}
export type Outcome = S["OutcomeView"];
export type Action = NonNullable<Status["allowed"]>[0][number];
export type HintView = S["HintView"];
/** What every undrawn line of a practice game's position is worth (the `line_values` ack). */
export type LineValues = S["LineValuesView"];
export type ClockView = S["ClockView"];
export type TimeControl = S["TimeControlView"];
export type ClockOption = S["ClockOption"];

export type RoomEvent = S["EventMessage"]["event"];
export type WelcomeMessage = S["WelcomeMessage"];
export type EventMessage = S["EventMessage"];
export type ResyncMessage = S["ResyncMessage"];
export type PresenceMessage = S["PresenceMessage"];
export type AckMessage = S["AckMessage"];
export type PongMessage = S["PongMessage"];
export type ErrorMessage = S["ErrorMessage"];
export type ServerMessage =
  | WelcomeMessage
  | EventMessage
  | ResyncMessage
  | PresenceMessage
  | AckMessage
  | PongMessage
  | ErrorMessage;

export type RoomAction =
  | S["OfferMessage"]
  | S["AcceptMessage"]
  | S["DeclineMessage"]
  | S["ResignMessage"]
  | S["UndoMessage"]
  | S["Hint"]
  | S["LineValues"]
  | S["SetLevelMessage"]
  | S["NewGameMessage"];
export type ClientMessage = RoomAction | S["Hello"] | S["MakeMove"] | S["Ping"] | S["Sync"];

type Pair = [number, number];

/** A Dots and Boxes position as the boards draw it. */
export interface BoxesBoardView {
  game: "boxes";
  rows: number;
  cols: number;
  lines: { line: [Pair, Pair]; player: Seat | null }[];
  boxes: { box: Pair; owner: Seat }[];
  last_move: [Pair, Pair] | null;
  to_move: Seat;
  scores: [number, number];
  outcome: Outcome | null;
  /** Every undrawn line (none once the game is over). */
  legal_moves: [Pair, Pair][];
}

/** A Dots position as the boards draw it. */
export interface DotsBoardView {
  game: "dots";
  width: number;
  height: number;
  start: string;
  win_margin: number | null;
  grounding: boolean;
  marks: { point: Pair; owner: Seat; captured: boolean }[];
  areas: { key: Pair; captor: Seat; chain: Pair[]; inside: Pair[] }[];
  houses: { key: Pair; owner: Seat; chain: Pair[]; inside: Pair[] }[];
  last_move: Pair | null;
  move_count: number;
  to_move: Seat;
  scores: [number, number];
  is_over: boolean;
  outcome: Outcome | null;
  ungrounded: Pair[];
}

/** The players' clocks as the last status told them, and when that status arrived
 * (`Date.now()` ms): count the running clock down from `received_at`. */
export interface RoomClock extends ClockView {
  received_at: number;
}

/** What every room holds whatever its game (roomModel.ts brings it forward). */
interface RoomCommon {
  id: string;
  mode: Mode;
  version: number;
  game_number: number;
  level: Level | null;
  daily: string | null;
  computer_seat: Seat | null;
  seats: SeatView[];
  spectators: number;
  requests: { kind: RequestKind; seat: Seat }[];
  to_move: Seat;
  scores: [number, number];
  is_over: boolean;
  outcome: Outcome | null;
  thinking: boolean;
  /** What each seat may ask for besides moves, as the server decided it. */
  allowed: [Action[], Action[]];
  /** Clocked rooms: both clocks as of the last status; null in rooms without clocks. */
  clock: RoomClock | null;
  /** The room's time control; null in rooms without clocks. */
  time_control: TimeControl | null;
  move_count: number;
  expires_in_seconds: number | null;
}

/** A Dots and Boxes room: its one board type, its moves are lines. */
export interface BoxesRoomState extends RoomCommon {
  game: "boxes";
  board: BoxesBoardView;
  last_move: LineMove | null;
  /** Lines drawable now (none once the game is over). */
  legal_moves: LineMove[];
}

/** A Dots room: its one board type, its moves are points. */
export interface DotsRoomState extends RoomCommon {
  game: "dots";
  board: DotsBoardView;
  last_move: PointMove | null;
  /** Free live points (none once the game is over). */
  legal_moves: PointMove[];
}

/** The client's picture of a room: a snapshot brought forward by events (roomModel.ts).
 * `game` tells which board it holds, so a board never needs a cast. */
export type RoomState = BoxesRoomState | DotsRoomState;

/** Websocket close codes with a meaning (docs/api.md). */
export const CLOSE = {
  takenOver: 4001,
  badToken: 4003,
  roomNotFound: 4004,
  helloTimeout: 4008,
  slowConsumer: 4009,
  roomGone: 4010,
} as const;
