// The computer's levels as the options of a select, easiest first.
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../i18n";
import type { Level } from "../net";

export const LEVELS: readonly Level[] = ["easy", "normal", "hard"];

export function LevelOptions(): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      {LEVELS.map((l) => (
        <option key={l} value={l}>
          {t(`level.${l}` as MessageKey)}
        </option>
      ))}
    </>
  );
}
