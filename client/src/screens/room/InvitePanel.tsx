// While nobody has taken the second seat: the invite link, a copy button and a QR code,
// shown where the board will be (the board is not playable yet).
import { useEffect, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { QrCode } from "../../components/QrCode";

export function InvitePanel({ url, expiry }: { url: string | null; expiry: string | null }): JSX.Element {
  const { t } = useI18n();
  const [copied, setCopied] = useState<"ok" | "fail" | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // "Link copied" is said beside the button for a moment; the waiting line stays.
  useEffect(() => {
    if (copied !== "ok") return;
    const id = setTimeout(() => setCopied(null), 4000);
    return () => clearTimeout(id);
  }, [copied]);
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied("ok");
    } catch {
      inputRef.current?.select();
      setCopied("fail");
    }
  };
  return (
    <section class="card invite" aria-labelledby="invite-h" data-testid="invite">
      <h2 id="invite-h">{t("room.invite")}</h2>
      <p>{t("room.inviteDesc")}</p>
      {url ? (
        <>
          <div class="invite-row">
            <input
              ref={inputRef}
              class="invite-url"
              type="text"
              readOnly
              value={url}
              aria-label={t("room.inviteLink")}
              data-testid="invite-url"
              onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
            />
            <button type="button" class="btn primary" onClick={copy}>
              {t("room.copy")}
            </button>
          </div>
          <p class="copy-result" role="status" data-testid="copy-result">
            {copied === "ok" ? t("room.copied") : copied === "fail" ? t("room.copyFailed") : ""}
          </p>
          <div class="invite-qr">
            <QrCode text={url} label={t("room.qr")} />
            <p class="muted small">{t("room.scan")}</p>
          </div>
        </>
      ) : null}
      <p class="waiting" aria-live="polite">
        <span class="spinner" aria-hidden="true" />
        {t("room.waitingGuest")}
      </p>
      {expiry ? <p class="muted small">{expiry}</p> : null}
    </section>
  );
}
