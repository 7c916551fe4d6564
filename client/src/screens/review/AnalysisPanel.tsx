// The computer's analysis of a reviewed game: start it, watch it progress, then the
// evaluation graph, the best moves at the shown position (Dots and Boxes), or the
// capture timeline and the hard level's suggestion (Dots).
import { useMemo } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { costOf, evalSeries, judgedOf, lineCosts, positionAt, type CaptureEntry, type Mistake } from "../../review/model";
import type { GameName } from "../../net";
import { moveName } from "../../notation";
import type { AnalysedPosition, Analysis } from "../../review/types";
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
  const points = useMemo(() => evalSeries(a), [a]);
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
          <EvalGraph points={points} plies={p.plies} ply={p.ply} mistakes={p.mistakes} onPick={p.onPick} />
          {a.status === "done" ? <MistakeCount analysis={a} mistakes={p.mistakes.length} /> : null}
          {a.players.some((s) => s.judged > 0) ? (
            <ul class="analysis-players plain" data-testid="analysis-players">
              {a.players.map((s) => (
                <li key={s.seat}>
                  {t("analysis.player", {
                    name: p.seatName(s.seat),
                    mistakes: tn("analysis.nMistakes", s.mistakes),
                    blunders: tn("analysis.nBlunders", s.blunders),
                    accuracy: s.accuracy === null ? "–" : `${Math.round(s.accuracy)}%`,
                    judged: s.judged,
                  })}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** The analysis of the shown position, kept beside the stepper so that it stays in view
 * while stepping: its value (exact or estimated) and best moves, and what the move played
 * from it cost; Dots: the hard level's suggestion. */
export function PositionNote({
  game,
  analysis,
  ply,
  onVariation,
}: {
  game: GameName;
  analysis: Analysis | null;
  ply: number;
  /** Plays the best line on the board as a variation (given where it can be played). */
  onVariation?: () => void;
}): JSX.Element | null {
  const { t, tn } = useI18n();
  const here = positionAt(analysis, ply);
  if (!here) return null;
  const best = here.best.map(moveName);
  if (game === "dots") {
    return best[0] ? (
      <p class="analysis-here" data-testid="analysis-here" aria-live="polite">
        {t("analysis.suggestion", { move: best[0] })}
      </p>
    ) : null;
  }
  if (here.margin === null) return null;
  return (
    <div class="analysis-here" data-testid="analysis-here" aria-live="polite">
      <p>
        {t(here.exact ? "analysis.exact" : "analysis.estimate", { value: signed(here.margin) })}
        {best.length ? ` ${tn(here.exact ? "analysis.best" : "analysis.hardBest", best.length, { moves: best.join(", ") })}` : ""}
        {here.exact && here.complete === false ? ` ${t("analysis.incomplete")}` : ""}
        {lineCosts(here).size ? ` ${t("analysis.lineValues")}` : ""}
      </p>
      <PlayedHere position={here} onVariation={onVariation} />
    </div>
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

/** How many moves gave boxes away; said so only of the moves the solver judged. */
function MistakeCount({ analysis, mistakes }: { analysis: Analysis; mistakes: number }): JSX.Element {
  const { t, tn } = useI18n();
  const { judged, analysed } = judgedOf(analysis);
  const said = mistakes ? tn("analysis.mistakes", mistakes) : judged ? t("analysis.noMistakes") : t("analysis.noneJudged");
  return (
    <p data-testid="mistake-count">
      {said}
      {judged < analysed ? ` ${t("analysis.judged", { judged, analysed })}` : ""}
    </p>
  );
}

/** The move played from the shown position: what it cost, and after a mistake the best
 * move and the best play that follows. */
function PlayedHere({ position, onVariation }: { position: AnalysedPosition; onVariation?: () => void }): JSX.Element | null {
  const { t, tn } = useI18n();
  const cost = costOf(position);
  if (!position.played || cost === null) return null;
  const played = moveName(position.played);
  if (cost === 0) return <p data-testid="played-here">{t("analysis.playedBest", { move: played })}</p>;
  const line = (position.line ?? []).map(moveName);
  return (
    <p data-testid="played-here" class="played-mistake">
      {t("analysis.playedCost", { move: played, cost: tn("analysis.givesAway", cost) })}
      {line.length ? ` ${t("analysis.bestLine", { move: line[0]!, line: line.join(" ") })}` : ""}
      {line.length && onVariation ? (
        <>
          {" "}
          <button type="button" class="btn small" data-variation-enter onClick={onVariation}>
            {t("variation.show")}
          </button>
        </>
      ) : null}
    </p>
  );
}
