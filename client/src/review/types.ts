// The review and analysis data the client reads from the server (docs/api.md, "Game
// review"), named for the review screens. Generated from the server's OpenAPI document.
import type { components } from "../net/api-types";

type S = components["schemas"];

export type Review = S["GameReview"];
export type ReviewMove = S["ReviewMove"];
export type ReviewSeat = S["ReviewSeat"];
export type ReviewResult = S["ReviewResult"];
/** The computer's view of the position before move ply + 1. */
export type AnalysedPosition = S["PositionAnalysis"];
export type Analysis = S["AnalysisView"];
export type StartFrom = S["ContinueFrom"];
