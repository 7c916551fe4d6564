import { describe, expect, it } from "vitest";
import { columnName, lineName, moveName, squareName } from "./notation";

describe("notation", () => {
  it("names columns like spreadsheet cells", () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
  });

  it("names points with rows from 1", () => {
    expect(squareName(0, 0)).toBe("a1");
    expect(squareName(2, 4)).toBe("c5");
    expect(squareName(27, 31)).toBe("ab32");
  });

  it("names lines and moves as records write them", () => {
    expect(lineName([[0, 0], [1, 0]])).toBe("a1-b1");
    expect(moveName({ line: [[0, 0], [0, 1]] })).toBe("a1-a2");
    expect(moveName({ point: [2, 4] })).toBe("c5");
  });
});
