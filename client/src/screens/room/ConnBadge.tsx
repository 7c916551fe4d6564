// The connection in a word, with "reconnect now" after a few failed attempts.
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../../i18n";
import type { RoomSnapshot } from "../../net";

const WORDS: Record<string, MessageKey> = {
  idle: "conn.connecting",
  connecting: "conn.connecting",
  online: "conn.online",
  reconnecting: "conn.reconnecting",
  closed: "conn.closed",
  bad_token: "conn.offline",
  gone: "conn.offline",
  taken_over: "conn.offline",
};

export function ConnBadge({ snap, onRetry }: { snap: RoomSnapshot; onRetry: () => void }): JSX.Element {
  const { t } = useI18n();
  return (
    <div class={`conn ${snap.status}`} role="status" data-testid="conn" data-conn={snap.status}>
      <span class="conn-dot" aria-hidden="true" />
      <span>{t(WORDS[snap.status] ?? "conn.offline")}</span>
      {snap.status === "reconnecting" && snap.attempt > 1 ? (
        <button type="button" class="btn ghost small" onClick={onRetry}>
          {t("conn.retryNow")}
        </button>
      ) : null}
    </div>
  );
}
