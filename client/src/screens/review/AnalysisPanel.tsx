// The computer's analysis of a reviewed game: start it, watch it progress, then the
// evaluation graph, the best moves at the shown position (Dots and Boxes), or the
// capture timeline and the hard level's suggestion (Dots).
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { evalSeries, moveName, positionAt, type CaptureEntry, type Mistake } from "../../review/model";
import type { GameName } from "../../net";
import type { Analysis } from "../../review/types";
import { EvalGraph, signed } from "./EvalGraph";

interface Props {
  game: GameName;
  analysis: Analysis | null;
  error: string | null;
  busy: boolean;
  ply: number;
  plies: number;
  mistakes: readonly Mistake[];
  captures: readonly CaptureEntry[];
  seatName: (seat: 0 | 1) => string;
  onStart: () => void;
  onPick: (ply: number) => void;
}

export function AnalysisPanel(p: Props): JSX.Element {
  const { t, tn } = useI18n();
  const a = p.analysis;
  const running = a?.status === "running";
  const here = positionAt(a, p.ply);
  const best = here ? here.best.map(moveName) : [];
  return (
    <section class="card analysis" aria-labelledby="analysis-h" data-testid="analysis" data-status={a?.status ?? "none"}>
      <h2 id="analysis-h">{t("analysis.title")}</h2>
      {p.game === "dots" ? <Captures entries={p.captures} ply={p.ply} seatName={p.seatName} onPick={p.onPick} /> : null}
      {!a || a.status === "failed" ? (
        <>
          <p class="small muted">{t(p.game === "dots" ? "analysis.introDots" : "analysis.intro")}</p>
          <button type="button" class="btn primary" onClick={p.onStart} disabled={p.busy}>
            {t("analysis.start")}
          </button>
        </>
      ) : null}
      {a?.status === "failed" ? <p class="error">{t("analysis.failed")}</p> : null}
      {p.error ? (
        <p class="error" role="alert">
          {p.error}
        </p>
      ) : null}
      {running ? (
        <p class="analysis-progress">
          <label>
            {t("analysis.progress", { done: a.done, total: a.total })}
            <progress max={Math.max(1, a.total)} value={a.done} />
          </label>
        </p>
      ) : null}
      {a && p.game === "boxes" ? (
        <>
          <EvalGraph points={evalSeries(a)} plies={p.plies} ply={p.ply} mistakes={p.mistakes} onPick={p.onPick} />
          {a.status === "done" ? (
            <p data-testid="mistake-count">{p.mistakes.length ? tn("analysis.mistakes", p.mistakes.length) : t("analysis.noMistakes")}</p>
          ) : null}
          {here && here.margin !== null ? (
            <p class="analysis-here" data-testid="analysis-here">
              {t(here.exact ? "analysis.exact" : "analysis.estimate", { value: signed(here.margin) })}
              {best.length ? ` ${tn("analysis.best", best.length, { moves: best.join(", ") })}` : ""}
            </p>
          ) : null}
        </>
      ) : null}
      {a && p.game === "dots" && best[0] ? (
        <p class="analysis-here" data-testid="analysis-here">
          {t("analysis.suggestion", { move: best[0] })}
        </p>
      ) : null}
    </section>
  );
}

function Captures({ entries, ply, seatName, onPick }: { entries: readonly CaptureEntry[]; ply: number; seatName: (s: 0 | 1) => string; onPick: (ply: number) => void }): JSX.Element {
  const { t, tn } = useI18n();
  if (entries.length === 0) return <p class="small muted">{t("analysis.noCaptures")}</p>;
  return (
    <>
      <h3>{t("analysis.captures")}</h3>
      <ol class="captures plain">
        {entries.map((c) => (
          <li key={c.index}>
            <button type="button" class="btn ghost small" aria-current={ply === c.index + 1 ? "step" : undefined} onClick={() => onPick(c.index + 1)}>
              {t("analysis.capture", { n: c.index + 1, name: seatName(c.player), move: c.move })} {tn("analysis.taken", c.taken)}
            </button>
          </li>
        ))}
      </ol>
    </>
  );
}
