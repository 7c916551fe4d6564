// The shell: language, settings, header and the screen for the current route.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { JSX } from "preact";
import { I18nContext, LANGS, LANG_NAMES, detectLang, makeTranslator, type Lang } from "./i18n";
import { storage, type Settings } from "./storage";
import { useRoute } from "./router";
import { Link } from "./components/Link";
import { StartScreen } from "./screens/StartScreen";
import { RoomScreen } from "./screens/RoomScreen";
import { RulesScreen } from "./screens/RulesScreen";
import { SettingsScreen } from "./screens/SettingsScreen";
import { MyGamesScreen } from "./screens/MyGamesScreen";
import { BotsScreen } from "./screens/BotsScreen";
import { LadderScreen } from "./screens/LadderScreen";
import { ReviewScreen } from "./screens/ReviewScreen";

export function App(): JSX.Element {
  const [settings, setSettings] = useState<Settings>(() => storage.settings());
  const lang: Lang = settings.lang ?? detectLang(navigator.languages ?? [navigator.language]);
  const tr = useMemo(() => makeTranslator(lang), [lang]);
  const route = useRoute();
  const { t } = tr;

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  // Every screen but a room (which says whose move it is) has the plain title.
  useEffect(() => {
    if (route.name !== "room" && route.name !== "review") document.title = t("app.name");
  }, [route, lang]);

  const update = (patch: Partial<Settings>) => setSettings(storage.saveSettings(patch));

  let screen: JSX.Element;
  switch (route.name) {
    case "home":
      screen = <StartScreen />;
      break;
    case "room":
      screen = <RoomScreen key={route.roomId} roomId={route.roomId} invite={route.invite} settings={settings} onSettings={update} />;
      break;
    case "games":
      screen = <MyGamesScreen />;
      break;
    case "bots":
      screen = <BotsScreen />;
      break;
    case "ladder":
      screen = <LadderScreen />;
      break;
    case "review":
      screen = <ReviewScreen key={route.gameId ?? "imported"} gameId={route.gameId} />;
      break;
    case "rules":
      screen = <RulesScreen game={route.game} />;
      break;
    case "settings":
      screen = (
        <SettingsScreen
          settings={settings}
          lang={lang}
          onChange={update}
          onForget={() => {
            storage.clearAll();
            setSettings(storage.settings());
          }}
        />
      );
      break;
    default:
      screen = (
        <section class="card">
          <h1>{t("notfound.title")}</h1>
          <p>{t("notfound.body")}</p>
          <Link href="/" class="btn primary">
            {t("nav.home")}
          </Link>
        </section>
      );
  }

  return (
    <I18nContext.Provider value={tr}>
      <header class="top">
        <Link href="/" class="brand" aria-label={`${t("app.name")}: ${t("nav.home")}`}>
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
            <path d="M8 8h16v16" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" />
            <path d="M8 8v16h16" fill="none" stroke="var(--gold)" stroke-width="3" stroke-linecap="round" />
            <g fill="currentColor">
              <circle cx="8" cy="8" r="3" />
              <circle cx="24" cy="8" r="3" />
              <circle cx="8" cy="24" r="3" />
              <circle cx="24" cy="24" r="3" />
            </g>
          </svg>
          <span>{t("app.name")}</span>
        </Link>
        <nav aria-label={t("nav.main")}>
          <Link href="/games" aria-current={route.name === "games" ? "page" : undefined}>
            {t("nav.games")}
          </Link>
          <Link href="/bots" aria-current={route.name === "bots" ? "page" : undefined}>
            {t("nav.bots")}
          </Link>
          <Link href="/rules" aria-current={route.name === "rules" ? "page" : undefined}>
            {t("nav.rules")}
          </Link>
          <Link href="/settings" aria-current={route.name === "settings" ? "page" : undefined}>
            {t("nav.settings")}
          </Link>
          <label class="lang">
            <span class="sr-only">{t("nav.language")}</span>
            {/* On a phone the menu shows the language's code; its list keeps the full names. */}
            <span class="lang-code" aria-hidden="true">
              {lang.toUpperCase()}
            </span>
            <select value={lang} onChange={(e) => update({ lang: (e.currentTarget as HTMLSelectElement).value as Lang })}>
              {LANGS.map((l) => (
                <option key={l} value={l}>
                  {LANG_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
        </nav>
      </header>
      <main id="main" class={`screen-${route.name}`}>
        {screen}
      </main>
    </I18nContext.Provider>
  );
}
