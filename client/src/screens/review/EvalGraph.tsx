// The evaluation over the game as an inline SVG: gold's expected lead with the best play
// from each position, zero across the middle, the current position marked and mistakes
// as dots. A text summary says the same for people who do not see it.
import { useMemo } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { evalPath, evalScale, evalSummary, type EvalPoint, type Mistake } from "../../review/model";

const W = 300;
const H = 90;

interface Props {
  points: readonly EvalPoint[];
  plies: number;
  ply: number;
  mistakes: readonly Mistake[];
  onPick: (ply: number) => void;
}

export function EvalGraph({ points, plies, ply, mistakes, onPick }: Props): JSX.Element | null {
  const { t } = useI18n();
  const sum = useMemo(() => evalSummary(points), [points]);
  const { x, y } = evalScale(points, plies, W, H);
  // The curve is drawn when the analysis changes, not at every step: a step moves the
  // line that marks the current position, nothing else.
  const curve = useMemo(() => {
    const byPly = new Map(points.map((p) => [p.ply, p.value]));
    return (
      <>
        <rect x="0" y="0" width={W} height={H / 2} class="eval-gold" />
        <rect x="0" y={H / 2} width={W} height={H / 2} class="eval-coral" />
        <line x1="0" x2={W} y1={H / 2} y2={H / 2} class="eval-zero" />
        {/* exact values solid, estimates dashed and faint: they are guesses */}
        <path d={evalPath(points, plies, W, H, false)} class="eval-line eval-estimate" vector-effect="non-scaling-stroke" />
        <path d={evalPath(points, plies, W, H, true)} class="eval-line" vector-effect="non-scaling-stroke" />
        {mistakes.map((m) => (
          <circle key={m.index} cx={x(m.index)} cy={y(byPly.get(m.index) ?? 0)} r="3" class="eval-mistake" />
        ))}
      </>
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, plies, mistakes]);
  if (!sum) return null;
  const where = (ply: number) => (ply === 0 ? t("analysis.atStart") : t("analysis.afterMove", { n: ply }));
  const summary = t("analysis.summary", {
    first: signed(sum.first),
    last: signed(sum.last),
    max: signed(sum.max.value),
    maxAt: where(sum.max.ply),
    min: signed(sum.min.value),
    minAt: where(sum.min.ply),
  });
  const pick = (e: MouseEvent) => {
    const svg = e.currentTarget as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    if (box.width > 0) onPick(Math.round(((e.clientX - box.left) / box.width) * plies));
  };
  return (
    <figure class="eval-graph">
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={t("analysis.graph")} onClick={pick}>
        {curve}
        <line x1={x(ply)} x2={x(ply)} y1="0" y2={H} class="eval-now" vector-effect="non-scaling-stroke" />
      </svg>
      <figcaption class="small muted" data-testid="eval-summary">
        {summary}
        {points.some((p) => !p.exact) ? ` ${t("analysis.graphEstimates")}` : ""}
      </figcaption>
    </figure>
  );
}

export const signed = (v: number): string => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0");
