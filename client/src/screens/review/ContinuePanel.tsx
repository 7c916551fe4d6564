// Continue from here: a new game from the shown position, against the computer or two on
// one device. The new room keeps the record's moves up to this position.
import { useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { LevelOptions } from "../../components/LevelOptions";
import { api, ApiError, type CreateRoom, type Level } from "../../net";
import { navigate } from "../../router";
import { rememberGrant } from "../session";
import type { Review } from "../../review/types";
import { reviewSize } from "../../review/model";


function bodyFor(review: Review, mode: "computer" | "local", level: Level): CreateRoom {
  const b = review.start;
  if (b.game === "boxes") return { game: "boxes", rows: b.rows, cols: b.cols, mode, level, first: mode === "computer" ? "me" : null };
  return { game: "dots", width: b.width, height: b.height, mode, level, first: mode === "computer" ? "me" : null };
}

export function ContinuePanel({ review, ply }: { review: Review; ply: number }): JSX.Element {
  const { t, error } = useI18n();
  const [level, setLevel] = useState<Level>("normal");
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<ApiError | null>(null);
  const over = ply >= review.moves.length && review.result !== null;
  const start = async (mode: "computer" | "local") => {
    setBusy(true);
    setErr(null);
    try {
      const grant = await api.createRoom({ ...bodyFor(review, mode, level), from: { record: review.record, ply } });
      rememberGrant(grant, reviewSize(review));
      navigate(`/r/${grant.room_id}`);
    } catch (e) {
      setErr(e instanceof ApiError ? e : new ApiError("network", String(e)));
      setBusy(false);
    }
  };
  return (
    <section class="card continue-from" aria-labelledby="from-h">
      <h2 id="from-h">{t("from.title")}</h2>
      {over ? (
        <p class="small muted">{t("from.over")}</p>
      ) : (
        <>
          <p class="small muted">{ply === 0 ? t("from.descStart") : t("from.desc", { n: ply })}</p>
          <div class="actions">
            <label class="from-level small">
              {t("start.level")}{" "}
              <select value={level} onChange={(e) => setLevel((e.currentTarget as HTMLSelectElement).value as Level)}>
                <LevelOptions />
              </select>
            </label>
            <button type="button" class="btn primary small" disabled={busy} onClick={() => void start("computer")}>
              {t("from.computer")}
            </button>
          </div>
          <div class="actions">
            <button type="button" class="btn small" disabled={busy} onClick={() => void start("local")}>
              {t("from.local")}
            </button>
          </div>
        </>
      )}
      {err ? (
        <p class="error" role="alert">
          {error(err.code, err.message)}
        </p>
      ) : null}
    </section>
  );
}
