import { describe, expect, it } from "vitest";
import { makeTranslator, LANGS } from "../../i18n";
import { hintReason } from "./hintReason";

const line = { line: [[0, 0], [1, 0]] } as const;
const CODES = [
  "takes_free_boxes", "takes_all", "declines_to_keep_control", "sacrifice_to_keep_control",
  "gives_fewest_boxes", "keeps_control", "safe_line", "captures", "double_threat",
  "blocks_capture", "escapes",
];

describe("hintReason", () => {
  it("words every reason code the server sends, in every language", () => {
    for (const lang of LANGS) {
      const { t, tn } = makeTranslator(lang);
      for (const reason of CODES) {
        const text = hintReason(t, tn, { move: line as never, reason, count: 2 });
        expect(text, `${lang}: ${reason}`).not.toBe("");
        expect(text).not.toContain("{");
      }
    }
  });

  it("counts what the reason is about in the right plural form", () => {
    const { t, tn } = makeTranslator("ru");
    expect(hintReason(t, tn, { move: line as never, reason: "sacrifice_to_keep_control", count: 2 })).toContain("2 квадрата");
    expect(hintReason(t, tn, { move: line as never, reason: "captures", count: 5 })).toContain("5 знаков");
  });

  it("says nothing for a quiet move or a code it does not know", () => {
    const { t, tn } = makeTranslator("en");
    expect(hintReason(t, tn, { move: line as never, reason: null, count: 0 })).toBe("");
    expect(hintReason(t, tn, { move: line as never, reason: "from_the_future", count: 0 })).toBe("");
  });
});
