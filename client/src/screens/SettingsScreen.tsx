// Settings kept in this browser: language, the Dots tap preview and sounds.
import { useState } from "preact/hooks";
import type { JSX } from "preact";
import { LANGS, LANG_NAMES, useI18n, type Lang } from "../i18n";
import { soundOn, type Settings } from "../storage";
import { unlockSound } from "../components/sound";

export function SettingsScreen(props: {
  settings: Settings;
  lang: Lang;
  onChange: (patch: Partial<Settings>) => void;
  onForget: () => void;
}): JSX.Element {
  const { t } = useI18n();
  const [confirm, setConfirm] = useState(false);
  const [done, setDone] = useState(false);
  return (
    <section class="card settings" aria-labelledby="settings-h">
      <h1 id="settings-h">{t("settings.title")}</h1>
      <fieldset class="choice">
        <legend>{t("settings.language")}</legend>
        <div class="segmented">
          {LANGS.map((l) => (
            <label key={l} class={props.lang === l ? "on" : ""} lang={l}>
              <input type="radio" name="lang" value={l} checked={props.lang === l} onChange={() => props.onChange({ lang: l })} />
              <span>
                <span class="tick" aria-hidden="true">
                  ✓
                </span>
                {LANG_NAMES[l]}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="setting">
        <label class="field">
          <span>{t("settings.name")}</span>
          <input
            type="text"
            maxLength={24}
            autocomplete="nickname"
            value={props.settings.name ?? ""}
            onInput={(e) => props.onChange({ name: (e.currentTarget as HTMLInputElement).value.trim() || null })}
          />
        </label>
        <p class="muted small">{t("settings.nameDesc")}</p>
      </div>
      <div class="setting">
        <label class="check">
          <input
            type="checkbox"
            checked={props.settings.tapPreview}
            onChange={(e) => props.onChange({ tapPreview: (e.currentTarget as HTMLInputElement).checked })}
          />
          <span>{t("settings.tapPreview")}</span>
        </label>
        <p class="muted small">{t("settings.tapPreviewDesc")}</p>
      </div>
      <div class="setting">
        <label class="check">
          <input
            type="checkbox"
            checked={props.settings.coordinates}
            onChange={(e) => props.onChange({ coordinates: (e.currentTarget as HTMLInputElement).checked })}
          />
          <span>{t("settings.coordinates")}</span>
        </label>
        <p class="muted small">{t("settings.coordinatesDesc")}</p>
      </div>
      <div class="setting">
        <label class="check">
          <input
            type="checkbox"
            checked={soundOn(props.settings)}
            onChange={(e) => {
              const on = (e.currentTarget as HTMLInputElement).checked;
              if (on) unlockSound();
              props.onChange({ sound: on });
            }}
          />
          <span>{t("settings.sound")}</span>
        </label>
        <p class="muted small">{t("settings.soundDesc")}</p>
      </div>
      <div class="setting">
        <p class="muted small">{t("settings.forgetDesc")}</p>
        {confirm ? (
          <div class="row">
            <span>{t("settings.forgetConfirm")}</span>
            <button
              type="button"
              class="btn danger"
              onClick={() => {
                props.onForget();
                setConfirm(false);
                setDone(true);
              }}
            >
              {t("settings.forget")}
            </button>
            <button type="button" class="btn" onClick={() => setConfirm(false)}>
              {t("common.cancel")}
            </button>
          </div>
        ) : (
          <button type="button" class="btn ghost" onClick={() => setConfirm(true)}>
            {t("settings.forget")}
          </button>
        )}
        <p aria-live="polite" class="small">
          {done ? t("settings.forgotten") : ""}
        </p>
      </div>
    </section>
  );
}
