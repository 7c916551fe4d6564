import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { catalogs, detectLang, makeTranslator, LANGS, type Lang } from "./index";

/** The arguments an ICU message uses, with what kind of value each takes. */
function argumentsOf(text: string, lang: Lang): Map<string, "plural" | "select" | "plain"> {
  const found = new Map<string, "plural" | "select" | "plain">();
  type Node = { type: number; value?: string; options?: Record<string, { value: Node[] }>; children?: Node[] };
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      // 1 argument, 2 number, 5 select, 6 plural (the parser's element types)
      if (node.type === 1 || node.type === 2) found.set(node.value!, found.get(node.value!) ?? "plain");
      if (node.type === 5) found.set(node.value!, "select");
      if (node.type === 6) found.set(node.value!, "plural");
      for (const option of Object.values(node.options ?? {})) walk(option.value);
      if (node.children) walk(node.children);
    }
  };
  walk(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).getAst() as Node[]);
  return found;
}

describe("i18n", () => {
  it("picks the browser's language", () => {
    expect(detectLang(["cs-CZ", "en"])).toBe("cs");
    expect(detectLang(["de-DE", "ru"])).toBe("ru");
    expect(detectLang(["fr"])).toBe("en");
    expect(detectLang(undefined)).toBe("en");
  });

  it("fills parameters and plural forms", () => {
    expect(makeTranslator("en").t("turn.other", { name: "Ann", gender: "neuter" })).toBe("Ann to move.");
    const forms = (lang: Lang) => [1, 2, 5, 21, 22, 25, 0].map((n) => makeTranslator(lang).tn("boxes", n));
    expect(forms("en")).toEqual(["1 box", "2 boxes", "5 boxes", "21 boxes", "22 boxes", "25 boxes", "0 boxes"]);
    expect(forms("ru")).toEqual(["1 квадрат", "2 квадрата", "5 квадратов", "21 квадрат", "22 квадрата", "25 квадратов", "0 квадратов"]);
    expect(forms("cs")).toEqual(["1 čtvereček", "2 čtverečky", "5 čtverečků", "21 čtverečků", "22 čtverečků", "25 čtverečků", "0 čtverečků"]);
  });

  it("puts the noun after a number in the case the sentence needs", () => {
    const daily = (lang: Lang, n: number, total: number) => makeTranslator(lang).t("over.daily", { n, total });
    expect(daily("en", 1, 25)).toBe("You took 1 of 25 boxes.");
    expect(daily("ru", 1, 25)).toBe("Вы взяли 1 квадрат из 25.");
    expect(daily("ru", 3, 25)).toBe("Вы взяли 3 квадрата из 25.");
    expect(daily("ru", 11, 25)).toBe("Вы взяли 11 квадратов из 25.");
    expect(daily("cs", 3, 25)).toBe("Získali jste 3 z 25 čtverečků.");
    expect(makeTranslator("ru").t("board.dots", { width: 39, height: 32 })).toBe("Лист для игры в «Точки»: 39 × 32 точки");
    expect(makeTranslator("cs").t("board.boxes", { cols: 3, rows: 3 })).toBe("Deska Tečky a čtverečky, 3 na 3 čtverečky");
    expect(makeTranslator("ru").tn("spectators", 1)).toBe("1 зритель");
    expect(makeTranslator("cs").tn("spectators", 5)).toBe("5 diváků");
  });

  it("makes the verb agree with the player's name", () => {
    const won = (lang: Lang, name: string, gender: string) => makeTranslator(lang).t("over.won", { name, gender });
    expect(won("ru", "Компьютер", "masculine")).toBe("Компьютер победил.");
    expect(won("ru", "Ручка", "feminine")).toBe("Ручка победила.");
    expect(won("ru", "Золотые", "plural")).toBe("Золотые победили.");
    expect(won("cs", "Pero", "neuter")).toBe("Pero vyhrálo.");
    expect(won("cs", "Počítač", "masculine")).toBe("Počítač vyhrál.");
    expect(makeTranslator("ru").t("over.resigned", { name: "Вы", gender: "you" })).toBe("Вы сдались.");
    expect(makeTranslator("cs").t("over.resigned", { name: "Vy", gender: "you" })).toBe("Vzdali jste se.");
    for (const lang of LANGS) {
      const tr = makeTranslator(lang);
      const ofName = ["player.you", "player.computer", "player.friend", "player.n", "player.gold", "player.coral", "dots.player0", "dots.player1"] as const;
      for (const key of ofName) expect(["you", "masculine", "feminine", "neuter", "plural"]).toContain(tr.gender(key));
    }
  });

  it("parses every text, and asks for no value the English text does not", () => {
    const en = catalogs.en;
    for (const lang of LANGS) {
      const cat = catalogs[lang];
      const pairs = [...Object.keys(en.text).map((k) => [k, (cat.text as Record<string, string>)[k]!, (en.text as Record<string, string>)[k]!]), ...Object.keys(en.plural).map((k) => [k, (cat.plural as Record<string, string>)[k]!, (en.plural as Record<string, string>)[k]!])];
      for (const [key, text, reference] of pairs) {
        const mine = argumentsOf(text!, lang);
        const theirs = argumentsOf(reference!, "en");
        if (key! in en.plural) theirs.set("n", "plural");
        for (const [name, kind] of mine) {
          expect(theirs.has(name), `${lang} ${key} uses {${name}}`).toBe(true);
          if (kind === "select") expect(theirs.get(name), `${lang} ${key} {${name}}`).toBe("select");
        }
      }
    }
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
