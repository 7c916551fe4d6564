// While nobody has taken the second seat: the invite link, a copy button and a QR code,
// shown where the board will be (the board is not playable yet). What the link does is
// said for the game at hand: in Dots and Boxes opening it takes the seat; in Dots the
// friend opens it, watches, and presses Join (so a watcher here is, in a private room,
// the friend who has arrived).
import { useEffect, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import type { GameName } from "../../net";
import { QrCode } from "../../components/QrCode";

/** How long "Link copied" stays before the panel says again what it waits for. */
const COPIED_FOR_MS = 4000;

export function InvitePanel(props: {
  url: string | null;
  expiry: string | null;
  game: GameName;
  /** Someone holds the link open without having joined yet (Dots: the friend, before Join). */
  friendHere: boolean;
  /** A note on the clocks the room plays with (null: none). */
  clocks: string | null;
}): JSX.Element {
  const { url, expiry, game, friendHere, clocks } = props;
  const { t } = useI18n();
  const [copied, setCopied] = useState<{ ok: boolean; at: number } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(null), COPIED_FOR_MS);
    return () => clearTimeout(id);
  }, [copied]);
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied({ ok: true, at: Date.now() });
    } catch {
      inputRef.current?.select();
      setCopied({ ok: false, at: Date.now() });
    }
  };
  return (
    <section class="card invite" aria-labelledby="invite-h" data-testid="invite">
      <h2 id="invite-h">{t("room.invite")}</h2>
      <p>{t(game === "dots" ? "room.inviteDesc.dots" : "room.inviteDesc.boxes")}</p>
      {clocks ? <p class="small invite-clocks">{clocks}</p> : null}
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
          <p class="small copy-note" aria-live="polite" data-testid="copy-note">
            {copied ? t(copied.ok ? "room.copied" : "room.copyFailed") : ""}
          </p>
          <div class="invite-qr">
            <QrCode text={url} label={t("room.qr")} />
            <p class="muted small">{t("room.scan")}</p>
          </div>
        </>
      ) : null}
      <p class={`waiting${friendHere ? " arrived" : ""}`} aria-live="polite" data-testid="invite-waiting">
        <span class="spinner" aria-hidden="true" />
        {friendHere ? t("room.friendOpened") : t("room.waitingGuest")}
      </p>
      {expiry ? <p class="muted small">{expiry}</p> : null}
    </section>
  );
}
