// The best line as a variation, in the review: a banner that says the board shows a line
// the game did not take (and leads back to the game), and the variation's moves, nested in
// the move list under the move they replace.
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { moveName } from "../../notation";
import type { Variation } from "../../review/variation";

/** Beside the stepper while a variation is shown: what it is and the way back. */
export function VariationBanner({ variation, onLeave }: { variation: Variation; onLeave: () => void }): JSX.Element {
  const { t } = useI18n();
  const n = variation.from + 1;
  const played = variation.played ? moveName(variation.played) : "";
  return (
    <section class="variation-banner" role="region" aria-label={t("variation.title")} data-testid="variation">
      <p>
        <strong>{t("variation.title")}</strong>{" "}
        {t("variation.about", { n, played, line: variation.moves.map(moveName).join(" ") })}
      </p>
      <div class="variation-actions">
        <button type="button" class="btn primary small" onClick={onLeave}>
          {t("variation.back")}
        </button>
        <span class="muted small">{t("variation.escape")}</span>
      </div>
    </section>
  );
}

/** Where the stepper is inside a variation, in words. */
export function variationWhere(variation: Variation, t: ReturnType<typeof useI18n>["t"]): string {
  return variation.step === 0
    ? t("variation.atStart", { n: variation.from + 1 })
    : t("variation.atMove", { k: variation.step, total: variation.moves.length });
}

/** The variation's moves, for the move list (under the move they replace); each opens the
 * variation's position after it. */
export function VariationMoves({ variation, onPick }: { variation: Variation; onPick: (step: number) => void }): JSX.Element {
  const { t } = useI18n();
  return (
    <ol class="variation-moves" aria-label={t("variation.moves", { n: variation.from + 1 })}>
      {variation.moves.map((move, i) => (
        <li key={i}>
          <button type="button" class="mv variation-mv" aria-current={variation.step === i + 1 ? "step" : undefined} data-variation-move={i + 1} onClick={() => onPick(i + 1)}>
            <span class="sr-only">{t("variation.moveLabel", { k: i + 1 })}</span> <span class="mv-text">{moveName(move)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
