// First, previous, play/pause, next and last, with where we are in words.
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import type { StepKey } from "../../review/model";
import { Icon } from "./icons";

interface Props {
  ply: number;
  total: number;
  playing: boolean;
  onStep: (key: StepKey) => void;
  onPlay: (on: boolean) => void;
  /** Where we are, when not in the game itself (a variation). */
  where?: string;
}

export function Stepper({ ply, total, playing, onStep, onPlay, where }: Props): JSX.Element {
  const { t } = useI18n();
  const atStart = ply <= 0;
  const atEnd = ply >= total;
  const button = (key: StepKey, disabled: boolean) => (
    <button type="button" class="btn step" onClick={() => onStep(key)} disabled={disabled} aria-label={t(`review.${key}`)} title={t(`review.${key}`)}>
      <Icon name={key} />
    </button>
  );
  return (
    <div class="stepper">
      <div class="step-buttons" role="group" aria-label={t("review.steps")}>
        {button("first", atStart)}
        {button("prev", atStart)}
        <button
          type="button"
          class="btn step play"
          aria-pressed={playing}
          onClick={() => onPlay(!playing)}
          disabled={!playing && total === 0}
          aria-label={t(playing ? "review.pause" : "review.play")}
          title={t(playing ? "review.pause" : "review.play")}
        >
          <Icon name={playing ? "pause" : "play"} />
        </button>
        {button("next", atEnd)}
        {button("last", atEnd)}
      </div>
      <p class="step-where" data-testid="ply" data-ply={ply} aria-live="polite">
        {where ?? (ply === 0 ? t("review.atStart", { total }) : t("review.atMove", { n: ply, total }))}
      </p>
      <p class="muted small step-keys">{t("review.keys")}</p>
    </div>
  );
}
