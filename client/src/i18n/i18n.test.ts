import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { catalogs, detectLang, makeTranslator, LANGS } from "./index";

describe("i18n", () => {
  it("picks the browser's language", () => {
    expect(detectLang(["cs-CZ", "en"])).toBe("cs");
    expect(detectLang(["de-DE", "ru"])).toBe("ru");
    expect(detectLang(["fr"])).toBe("en");
    expect(detectLang(undefined)).toBe("en");
  });

  it("fills parameters and plural forms", () => {
    expect(makeTranslator("en").t("turn.other", { name: "Ann" })).toBe("Ann to move.");
    const ru = makeTranslator("ru");
    expect(ru.tn("boxes", 1)).toBe("1 квадрат");
    expect(ru.tn("boxes", 3)).toBe("3 квадрата");
    expect(ru.tn("boxes", 5)).toBe("5 квадратов");
    expect(makeTranslator("cs").tn("boxes", 2)).toBe("2 čtverečky");
  });

  it("has every text in every language, none left empty", () => {
    const keys = Object.keys(catalogs.en.text);
    for (const lang of LANGS) {
      const text = catalogs[lang].text as Record<string, string>;
      expect(Object.keys(text).sort()).toEqual([...keys].sort());
      for (const k of keys) expect(text[k]!.length, `${lang} ${k}`).toBeGreaterThan(0);
      expect(Object.keys(catalogs[lang].errors).sort()).toEqual(Object.keys(catalogs.en.errors).sort());
    }
  });

  it("translates every error code the server can send", () => {
    // The server lists its stable codes in server/refusals.py (ErrorCode).
    const path = resolve(__dirname, "../../../server/refusals.py");
    if (!existsSync(path)) return; // the client alone (no server checkout)
    const src = readFileSync(path, "utf8");
    const block = /ErrorCode = Literal\[([\s\S]*?)\]/.exec(src)![1]!;
    const codes = [...block.matchAll(/"(\w+)"/g)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThan(10);
    for (const lang of LANGS) {
      const tr = makeTranslator(lang);
      for (const code of codes) expect(tr.knowsError(code), `${lang}: ${code}`).toBe(true);
    }
  });

  it("falls back to the code and the server's message for an unknown code", () => {
    expect(makeTranslator("en").error("brand_new", "details")).toBe("Something went wrong (brand_new). details");
  });
});
