// The game's buttons, as the room's rules allow them (allowed.ts): level, undo, hint,
// new game (asking first while a game is under way), offers and resigning.
import { useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import type { Level, RoomAction, RoomState } from "../../net";
import type { Allowed } from "../allowed";
import { LevelOptions } from "../../components/LevelOptions";


export function Controls(props: {
  state: RoomState;
  allowed: Allowed;
  /** The result card is shown: its own buttons start the next game. */
  resultShown: boolean;
  sound: boolean;
  onSound: (on: boolean) => void;
  onAct: (a: RoomAction) => void;
  onHint: () => void;
}): JSX.Element {
  const { t } = useI18n();
  const { state, allowed, onAct } = props;
  const [confirm, setConfirm] = useState<"resign" | "newGame" | null>(null);
  const dots = state.game === "dots";

  if (confirm) {
    const resign = confirm === "resign";
    const question = resign ? t("controls.resignConfirm") : t("controls.newGameConfirm");
    return (
      <div class="controls confirm" role="group" aria-label={question}>
        <span class="question">{question}</span>
        <button
          type="button"
          class={`btn ${resign ? "danger" : "primary"}`}
          onClick={() => {
            setConfirm(null);
            onAct(resign ? { type: "resign" } : { type: "new_game" });
          }}
        >
          {resign ? t("controls.resignYes") : t("controls.newGameYes")}
        </button>
        <button type="button" class="btn" onClick={() => setConfirm(null)}>
          {t("controls.cancel")}
        </button>
      </div>
    );
  }

  return (
    <div class="controls" role="group" aria-label={t("controls.label")}>
      {allowed.setLevel ? (
        <label class="level">
          <span>{t("controls.level")}</span>
          <select
            value={state.level ?? "normal"}
            onChange={(e) => onAct({ type: "set_level", level: (e.currentTarget as HTMLSelectElement).value as Level })}
          >
            <LevelOptions />
          </select>
        </label>
      ) : null}
      {(state.mode === "computer" || state.mode === "local") && !state.daily ? (
        <>
          <button type="button" class="btn" onClick={() => onAct({ type: "undo" })} disabled={!allowed.undo}>
            {t("controls.undo")}
          </button>
          <button type="button" class="btn" onClick={props.onHint} disabled={!allowed.hint}>
            {t("controls.hint")}
          </button>
        </>
      ) : null}
      {allowed.newGame && !props.resultShown && !state.daily ? (
        <button
          type="button"
          class="btn"
          onClick={() => (allowed.newGameNeedsConfirm ? setConfirm("newGame") : onAct({ type: "new_game" }))}
        >
          {t("controls.newGame")}
        </button>
      ) : null}
      {allowed.restartAlone ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "restart" })}>
          {t("controls.restartAlone")}
        </button>
      ) : null}
      {allowed.offerRestart && !state.is_over ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "restart" })}>
          {t("controls.restart")}
        </button>
      ) : null}
      {allowed.offerTakeback ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "takeback" })}>
          {t("controls.takeback")}
        </button>
      ) : null}
      {allowed.offerEnd ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "end" })}>
          {t(dots ? "dots.offerEnd" : "controls.offerEnd")}
        </button>
      ) : null}
      {allowed.resign ? (
        <button type="button" class="btn ghost" onClick={() => setConfirm("resign")}>
          {t("controls.resign")}
        </button>
      ) : null}
      <button
        type="button"
        class="btn ghost sound-toggle"
        aria-pressed={props.sound}
        onClick={() => props.onSound(!props.sound)}
        title={t("controls.sound")}
      >
        <SpeakerIcon on={props.sound} />
        <span class="sound-label">{t("controls.sound")}</span>
      </button>
    </div>
  );
}

function SpeakerIcon({ on }: { on: boolean }): JSX.Element {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
      {on ? (
        <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
      ) : (
        <path d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
      )}
    </svg>
  );
}
