// Import a record to review: paste it (text notation or JSON) or open a file.
import { useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";

/** The longest record the form reads (a 39×32 Dots game is well under this). */
const MAX_RECORD = 200_000;

export function ImportForm({ onRecord, error }: { onRecord: (record: string) => void; error?: string | null }): JSX.Element {
  const { t } = useI18n();
  const [text, setText] = useState("");
  const [fileErr, setFileErr] = useState(false);
  const readFile = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    if (file.size > MAX_RECORD) {
      setFileErr(true);
      return;
    }
    setFileErr(false);
    void file.text().then((body) => {
      setText(body);
      onRecord(body);
    });
  };
  return (
    <form
      class="card import"
      aria-labelledby="import-h"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onRecord(text.trim());
      }}
    >
      <h2 id="import-h">{t("import.title")}</h2>
      <label for="import-text">{t("import.paste")}</label>
      <textarea
        id="import-text"
        class="record-text"
        rows={3}
        maxLength={MAX_RECORD}
        placeholder="boxes 3x3; a1-b1 b2-b3 …"
        value={text}
        onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
      />
      <div class="actions">
        <button type="submit" class="btn primary small" disabled={!text.trim()}>
          {t("import.review")}
        </button>
        <label class="btn small file-pick">
          {t("import.file")}
          <input type="file" accept=".txt,.json,text/plain,application/json" class="sr-only" onChange={readFile} />
        </label>
      </div>
      {fileErr ? <p class="error">{t("import.tooLarge")}</p> : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
