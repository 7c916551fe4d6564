// Interface texts in Russian, English and Czech. English is the reference: the other
// languages must define every key (the type checker enforces it).
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { en, type Messages, type MessageKey, type PluralKey } from "./en";
import { ru } from "./ru";
import { cs } from "./cs";

export type Lang = "ru" | "en" | "cs";
export const LANGS: readonly Lang[] = ["ru", "en", "cs"];
export const LANG_NAMES: Record<Lang, string> = { ru: "Русский", en: "English", cs: "Čeština" };

const catalogs: Record<Lang, Messages> = { en, ru, cs };

export type Params = Record<string, string | number>;

/** The first language from the browser's list that we speak, else English. */
export function detectLang(languages: readonly string[] | undefined): Lang {
  for (const tag of languages ?? []) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "ru" || base === "en" || base === "cs") return base;
    if (base === "sk") return "cs";
    if (base === "uk" || base === "be") return "ru";
  }
  return "en";
}

function fill(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export interface Translator {
  lang: Lang;
  t: (key: MessageKey, params?: Params) => string;
  /** A text with the plural form for `count` (count is also available as {n}). */
  tn: (key: PluralKey, count: number, params?: Params) => string;
  /** The message for a server error code; unknown codes fall back to the server's own text. */
  error: (code: string, fallback?: string) => string;
  /** Whether a message exists for the given error code. */
  knowsError: (code: string) => boolean;
}

export function makeTranslator(lang: Lang): Translator {
  const msgs = catalogs[lang];
  const rules = new Intl.PluralRules(lang);
  const t = (key: MessageKey, params?: Params) => fill(msgs.text[key] ?? en.text[key], params);
  const tn = (key: PluralKey, count: number, params?: Params) => {
    const forms = msgs.plural[key];
    const cat = rules.select(count) as keyof typeof forms;
    const text = forms[cat] ?? forms.other;
    return fill(text, { n: count, ...params });
  };
  const knowsError = (code: string) => code in msgs.errors;
  const error = (code: string, fallback?: string) => {
    const known = msgs.errors[code];
    if (known) return known;
    return fill(msgs.text["error.unknown"], { code, message: fallback ?? "" }).trim();
  };
  return { lang, t, tn, error, knowsError };
}

export const I18nContext = createContext<Translator>(makeTranslator("en"));
export const useI18n = () => useContext(I18nContext);

export type { MessageKey, PluralKey, Messages };
export { catalogs };
