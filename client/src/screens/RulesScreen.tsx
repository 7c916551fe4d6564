// The rules of both games, in the interface language.
import type { JSX } from "preact";
import { catalogs, useI18n } from "../i18n";
import { Link } from "../components/Link";

export function RulesScreen({ game }: { game: "boxes" | "dots" | null }): JSX.Element {
  const { t, lang } = useI18n();
  const rules = catalogs[lang].rules;
  const show = (g: "boxes" | "dots") => game === null || game === g;
  return (
    <article class="card rules">
      <h1>{t("rules.title")}</h1>
      <p>{rules.intro}</p>
      <nav class="toc" aria-label={t("rules.title")}>
        <Link href="/rules/boxes" aria-current={game === "boxes" ? "page" : undefined}>
          {t("game.boxes")}
        </Link>
        <Link href="/rules/dots" aria-current={game === "dots" ? "page" : undefined}>
          {t("game.dots")}
        </Link>
      </nav>
      {(["boxes", "dots"] as const).filter(show).map((g) => (
        <section key={g} id={`rules-${g}`} aria-labelledby={`rules-${g}-h`}>
          <h2 id={`rules-${g}-h`}>{t(g === "boxes" ? "game.boxes" : "game.dots")}</h2>
          {rules[g].map((s) => (
            <div key={s.heading} class="rule">
              <h3>{s.heading}</h3>
              {s.paragraphs.map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
          ))}
        </section>
      ))}
      <p>
        <Link href="/" class="btn primary">
          {t("start.new")}
        </Link>
      </p>
    </article>
  );
}
