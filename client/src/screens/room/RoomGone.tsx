// A room the server no longer has: deleted after days without a move (rooms expire), or
// a wrong link. Said in words, with a way to start a new game at once.
import { useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { ApiError } from "../../net";
import type { SeatRecord } from "../../storage";
import { Link } from "../../components/Link";
import { bodyLike, startRoom } from "../session";

export function RoomGone({ known }: { known: SeatRecord | null }): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const expiredOn = known?.summary?.expiresAt ? new Date(known.summary.expiresAt) : null;
  const when = expiredOn ? new Intl.DateTimeFormat(tr.lang, { dateStyle: "long" }).format(expiredOn) : null;
  return (
    <section class="card narrow gone" role="alert" data-testid="room-gone">
      <h1>{t(known ? "gone.title" : "gone.titleUnknown")}</h1>
      <p>{known ? (when ? t("gone.expiredOn", { date: when }) : t("gone.expired")) : t("gone.unknown")}</p>
      {error ? <p class="error">{error}</p> : null}
      <div class="actions">
        {known ? (
          <button
            type="button"
            class="btn primary"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await startRoom(bodyLike(known), known.size);
              } catch (e) {
                setError(tr.error(e instanceof ApiError ? e.code : "network"));
                setBusy(false);
              }
            }}
          >
            {t("gone.again")}
          </button>
        ) : null}
        <Link href="/" class={`btn${known ? "" : " primary"}`}>
          {t("gone.newGame")}
        </Link>
      </div>
    </section>
  );
}
