// The game's buttons, as the room's rules allow them (allowed.ts): level, undo, hint,
// new game (asking first while a game is under way), offers and resigning. A question
// before resigning, a new game or ending a one-device game takes the keyboard focus,
// closes with Escape and gives the focus back to the button that asked it.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../../i18n";
import type { Level, RoomAction, RoomState } from "../../net";
import type { Allowed } from "../allowed";
import { LevelOptions } from "../../components/LevelOptions";

type Question = "resign" | "newGame" | "end";

const QUESTIONS: Record<Question, { ask: MessageKey; yes: MessageKey; dotsAsk?: MessageKey; dotsYes?: MessageKey; action: RoomAction }> = {
  resign: { ask: "controls.resignConfirm", yes: "controls.resignYes", action: { type: "resign" } },
  newGame: { ask: "controls.newGameConfirm", yes: "controls.newGameYes", action: { type: "new_game" } },
  // One device: both players are at this screen, so "offering" the end ends the game.
  end: {
    ask: "controls.endConfirm",
    yes: "controls.endYes",
    dotsAsk: "dots.endConfirm",
    dotsYes: "dots.endYes",
    action: { type: "offer", kind: "end" },
  },
};

export function Controls(props: {
  state: RoomState;
  allowed: Allowed;
  /** The result card is shown: its own buttons start the next game. */
  resultShown: boolean;
  sound: boolean;
  onSound: (on: boolean) => void;
  onAct: (a: RoomAction) => void;
  onHint: () => void;
  /** A hint was asked for and has not come yet. */
  hintPending: boolean;
  /** Whether the line values are shown (null: the room has none). */
  lineValues: boolean | null;
  onLineValues: (on: boolean) => void;
}): JSX.Element {
  const { t } = useI18n();
  const { state, allowed, onAct } = props;
  const [confirm, setConfirm] = useState<Question | null>(null);
  const dots = state.game === "dots";
  const local = state.mode === "local";
  const group = useRef<HTMLDivElement>(null);
  /** The button that asked the question, to give the focus back to. */
  const asker = useRef<Question | null>(null);

  const ask = (q: Question) => {
    asker.current = q;
    setConfirm(q);
  };
  const close = () => setConfirm(null);

  // Before the browser paints: no moment with the focus on the page body.
  useLayoutEffect(() => {
    const root = group.current;
    if (!root) return;
    if (confirm) {
      // The safe answer first: Enter pressed twice by mistake does not resign.
      root.querySelector<HTMLButtonElement>("[data-safe]")?.focus();
    } else if (asker.current) {
      const back = root.querySelector<HTMLButtonElement>(`[data-asks="${asker.current}"]`);
      asker.current = null;
      // The asking button may be gone (a resigned game): then the group keeps the focus.
      (back ?? root).focus();
    }
  }, [confirm]);

  if (confirm) {
    const q = QUESTIONS[confirm];
    const question = t(dots && q.dotsAsk ? q.dotsAsk : q.ask);
    return (
      <div
        ref={group}
        class="controls confirm"
        role="group"
        aria-label={question}
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            close();
          }
        }}
      >
        <span class="question">{question}</span>
        <button
          type="button"
          class={`btn ${confirm === "resign" ? "danger" : "primary"}`}
          onClick={() => {
            close();
            onAct(q.action);
          }}
        >
          {t(dots && q.dotsYes ? q.dotsYes : q.yes)}
        </button>
        <button type="button" class="btn" data-safe onClick={close}>
          {t("controls.cancel")}
        </button>
      </div>
    );
  }

  return (
    <div ref={group} class="controls" role="group" aria-label={t("controls.label")} tabIndex={-1}>
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
          <button
            type="button"
            class={`btn${props.hintPending ? " busy" : ""}`}
            onClick={props.onHint}
            disabled={!allowed.hint || props.hintPending}
            aria-busy={props.hintPending}
          >
            {props.hintPending ? <span class="spinner" aria-hidden="true" /> : null}
            {t("controls.hint")}
          </button>
        </>
      ) : null}
      {props.lineValues !== null ? (
        <button type="button" class="btn values-toggle" aria-pressed={props.lineValues} onClick={() => props.onLineValues(!props.lineValues)}>
          {t("values.toggle")}
        </button>
      ) : null}
      {allowed.newGame && !props.resultShown && !state.daily ? (
        <button
          type="button"
          class="btn"
          data-asks="newGame"
          onClick={() => (allowed.newGameNeedsConfirm ? ask("newGame") : onAct({ type: "new_game" }))}
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
      {allowed.offerEnd && local ? (
        <button type="button" class="btn" data-asks="end" onClick={() => ask("end")}>
          {t(dots ? "dots.endNow" : "controls.endNow")}
        </button>
      ) : allowed.offerEnd ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "end" })}>
          {t(dots ? "dots.offerEnd" : "controls.offerEnd")}
        </button>
      ) : null}
      {allowed.resign ? (
        <button type="button" class="btn ghost" data-asks="resign" onClick={() => ask("resign")}>
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
