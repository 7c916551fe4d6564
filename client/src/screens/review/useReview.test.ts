import { describe, expect, it } from "vitest";
import { recordBody } from "./useReview";

describe("recordBody", () => {
  it("sends JSON records as objects and everything else as text", () => {
    expect(recordBody("  boxes 2x2; a1-b1 \n")).toBe("boxes 2x2; a1-b1");
    expect(recordBody('{"game": "boxes", "rows": 2}')).toEqual({ game: "boxes", rows: 2 });
    expect(recordBody("{not json")).toBe("{not json");
    expect(recordBody("[1, 2]")).toBe("[1, 2]");
  });
});
