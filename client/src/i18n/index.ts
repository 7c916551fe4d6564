// Interface texts in Russian, English and Czech. English is the reference: the other
// languages must define every key (the type checker enforces it). Texts are ICU
// messages (intl-messageformat): "{n, plural, one {# box} other {# boxes}}" picks the
// form a number needs in each language and "{who, select, ...}" a name's grammatical
// gender, so no text is built from pieces glued together by code.
import { createContext } from "preact";
import { IntlMessageFormat } from "intl-messageformat";
import { useContext } from "preact/hooks";
import { en, type Gender, type Messages, type MessageKey, type NameKey, type PluralKey } from "./en";
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

/** One language's texts, each parsed once on first use. */
function formatter(lang: Lang): (text: string, params?: Params) => string {
  const parsed = new Map<string, IntlMessageFormat>();
  return (text, params) => {
    let message = parsed.get(text);
    if (!message) {
      // ignoreTag: a "<" in a text is just a character, never markup.
      message = new IntlMessageFormat(text, lang, undefined, { ignoreTag: true });
      parsed.set(text, message);
    }
    try {
      return String(message.format(params));
    } catch (err) {
      // A parameter the text needs was not given: a bug the i18n tests look for. The
      // screen still shows the text rather than breaking.
      console.error(err);
      return text;
    }
  };
}

export interface Translator {
  lang: Lang;
  t: (key: MessageKey, params?: Params) => string;
  /** A text whose plural forms follow `count` (given to the text as {n}). */
  tn: (key: PluralKey, count: number, params?: Params) => string;
  /** The grammatical gender of a player's name in this language. */
  gender: (key: NameKey) => Gender;
  /** The message for a server error code; unknown codes fall back to the server's own text. */
  error: (code: string, fallback?: string) => string;
  /** Whether a message exists for the given error code. */
  knowsError: (code: string) => boolean;
}

export function makeTranslator(lang: Lang): Translator {
  const msgs = catalogs[lang];
  const format = formatter(lang);
  const t = (key: MessageKey, params?: Params) => format(msgs.text[key] ?? en.text[key], params);
  const tn = (key: PluralKey, count: number, params?: Params) => format(msgs.plural[key], { n: count, ...params });
  const knowsError = (code: string) => code in msgs.errors;
  const error = (code: string, fallback?: string) => {
    const known = msgs.errors[code];
    if (known) return known;
    return t("error.unknown", { code, message: fallback ?? "" }).trim();
  };
  const gender = (key: NameKey) => msgs.genders[key];
  return { lang, t, tn, gender, error, knowsError };
}

export const I18nContext = createContext<Translator>(makeTranslator("en"));
export const useI18n = () => useContext(I18nContext);

export type { Gender, MessageKey, NameKey, PluralKey, Messages };
export { catalogs };
