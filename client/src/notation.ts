// The names the game notation gives to squares and moves, as the server writes them in
// records: columns as letters (a … z, aa, ab …), rows as numbers from 1 at the top.
// Screen-reader texts, coordinates round the boards and the review all read them here.
import type { Move } from "./net/types";

/** The letters of column x: 0 is `a`, 25 is `z`, 26 is `aa`. */
export function columnName(x: number): string {
  let name = "";
  for (let n = x + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(97 + ((n - 1) % 26)) + name;
  return name;
}

/** A board point's name: (0, 0) is `a1`, (2, 4) is `c5`. */
export function squareName(x: number, y: number): string {
  return `${columnName(x)}${y + 1}`;
}

/** A line between two dots: `a1-b1`. */
export function lineName(line: readonly [readonly [number, number], readonly [number, number]]): string {
  return `${squareName(line[0][0], line[0][1])}-${squareName(line[1][0], line[1][1])}`;
}

/** A move: `a1-b1` for a line, `c5` for a point. */
export function moveName(move: Move): string {
  return "line" in move ? lineName(move.line) : squareName(move.point[0], move.point[1]);
}
