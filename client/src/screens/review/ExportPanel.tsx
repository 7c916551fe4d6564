// The record to take away: download or copy it as text notation or JSON.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import type { Review } from "../../review/types";

type Format = "text" | "json" | "link";

export function ExportPanel({ review }: { review: Review }): JSX.Element {
  const { t } = useI18n();
  const [copied, setCopied] = useState<{ format: Format; ok: boolean } | null>(null);
  const texts: Record<Format, string> = useMemo(
    () => ({
      text: `${review.notation.trim()}\n`,
      json: `${JSON.stringify(review.record, null, 2)}\n`,
      link: review.id ? `${location.origin}/g/${review.id}` : "",
    }),
    [review],
  );
  const urls = useMemo(
    () => ({
      text: URL.createObjectURL(new Blob([texts.text], { type: "text/plain;charset=utf-8" })),
      json: URL.createObjectURL(new Blob([texts.json], { type: "application/json" })),
    }),
    [texts],
  );
  useEffect(
    () => () => {
      URL.revokeObjectURL(urls.text);
      URL.revokeObjectURL(urls.json);
    },
    [urls],
  );
  const base = `tetrad-${review.id ?? review.game}`;
  const copy = async (format: Format) => {
    try {
      await navigator.clipboard.writeText(texts[format]);
      setCopied({ format, ok: true });
    } catch {
      setCopied({ format, ok: false });
    }
  };
  return (
    <section class="card export" aria-labelledby="export-h">
      <h2 id="export-h">{t("export.title")}</h2>
      <div class="actions">
        <a class="btn small" href={urls.text} download={`${base}.txt`}>
          {t("export.downloadText")}
        </a>
        <a class="btn small" href={urls.json} download={`${base}.json`}>
          {t("export.downloadJson")}
        </a>
        <button type="button" class="btn small" onClick={() => void copy("text")}>
          {t("export.copyText")}
        </button>
        <button type="button" class="btn small" onClick={() => void copy("json")}>
          {t("export.copyJson")}
        </button>
        {review.id ? (
          <button type="button" class="btn small" onClick={() => void copy("link")}>
            {t("export.copyLink")}
          </button>
        ) : null}
      </div>
      <p class="small" role="status">
        {copied ? t(copied.ok ? "export.copied" : "export.copyFailed") : ""}
      </p>
      <label class="record-label small muted" for="record-text">
        {t("export.record")}
      </label>
      <textarea id="record-text" class="record-text" readOnly rows={3} value={texts.text} onFocus={(e) => (e.currentTarget as HTMLTextAreaElement).select()} />
    </section>
  );
}
