// The clocks of a new friend room: none, or minutes for each player and seconds added
// after each move (live); none, or days for each move (correspondence). The server keeps
// the time; this only asks for it.
import type { JSX } from "preact";
import { useI18n } from "../i18n";
import type { ClockOption } from "../net";
import { unitText } from "./room/clocks";

const MINUTES = [1, 3, 5, 10, 15, 30, 60] as const;
const INCREMENTS = [0, 2, 3, 5, 10, 20, 30] as const;
const DAYS = [1, 2, 3, 5, 7, 14] as const;

/** The clocks the picker starts from once minutes are chosen: seconds added per move. */
const DEFAULT_INCREMENT = 5;

export function TimeControlPicker(props: {
  mode: "live" | "correspondence";
  value: ClockOption | null;
  onChange: (v: ClockOption | null) => void;
}): JSX.Element {
  const { t, lang } = useI18n();
  const { mode, value, onChange } = props;
  const pick = (e: Event) => Number((e.currentTarget as HTMLSelectElement).value);
  if (mode === "correspondence") {
    return (
      <fieldset class="choice clocks">
        <legend>{t("start.clock")}</legend>
        <label class="select-field">
          <span>{t("start.clock.days")}</span>
          <select
            name="days"
            value={String(value?.days_per_move ?? 0)}
            onChange={(e) => {
              const days = pick(e);
              onChange(days ? { days_per_move: days } : null);
            }}
          >
            <option value="0">{t("start.clock.noLimit")}</option>
            {DAYS.map((d) => (
              <option key={d} value={String(d)}>
                {unitText(d, "day", lang)}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
    );
  }
  const minutes = value?.minutes ?? 0;
  return (
    <fieldset class="choice clocks">
      <legend>{t("start.clock")}</legend>
      <div class="pair">
        <label class="select-field">
          <span>{t("start.clock.minutes")}</span>
          <select
            name="minutes"
            value={String(minutes)}
            onChange={(e) => {
              const m = pick(e);
              onChange(m ? { minutes: m, increment: value?.increment ?? DEFAULT_INCREMENT } : null);
            }}
          >
            <option value="0">{t("start.clock.none")}</option>
            {MINUTES.map((m) => (
              <option key={m} value={String(m)}>
                {unitText(m, "minute", lang)}
              </option>
            ))}
          </select>
        </label>
        {minutes ? (
          <label class="select-field">
            <span>{t("start.clock.increment")}</span>
            <select name="increment" value={String(value?.increment ?? 0)} onChange={(e) => onChange({ minutes, increment: pick(e) })}>
              {INCREMENTS.map((s) => (
                <option key={s} value={String(s)}>
                  {unitText(s, "second", lang)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
    </fieldset>
  );
}
