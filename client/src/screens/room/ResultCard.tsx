// The end of a game, over the board: who won, the score, how it ended, the board of the
// day's standing, and what to do next. "Look at the board" folds it away.
import { useEffect, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type Translator } from "../../i18n";
import { api, type RoomState, type Seat } from "../../net";
import type { DailyRecord } from "../../storage";
import { navigate } from "../../router";
import { Link } from "../../components/Link";
import { gameIdOf } from "../myGames";
import { dailyCompareText, loadDailyComparison, type DailyComparison } from "../dailyCompare";
import type { DailyStanding } from "../dailyCount";
import { finalScore, resultHeadline } from "./announce";
import type { People } from "./people";

export interface DailyResult {
  standing: DailyStanding;
  counted: DailyRecord | null;
}

export function ResultCard(props: {
  state: RoomState;
  people: People;
  mySeat: Seat | null;
  daily: DailyResult | null;
  /** The next game: a new game at once, or an offer to the friend; null: not for this seat. */
  onAgain: (() => void) | null;
  /** An offer of a new game is already out. */
  againPending: boolean;
  onHide: () => void;
}): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const { state, people, mySeat, daily } = props;
  const outcome = state.outcome;
  const winner = outcome?.winner ?? null;
  const scores = state.scores;
  const reason = endingText(outcome, people, t);
  const board = state.board as { rows?: number; cols?: number };
  const total = (board.rows ?? 0) * (board.cols ?? 0);
  const solo = state.mode === "computer" || state.mode === "local";
  const againText = state.daily ? t("over.againPractice") : solo ? t("over.again") : t("controls.restart");
  // A game ended from the keyboard (resigned, ended by agreement) leaves the focus on the
  // controls or nowhere: it moves to the result. Focus on the board stays where it is.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.closest(".controls")) heading.current?.focus();
  }, []);
  return (
    <section
      class={`result-card${winner === null ? " draw" : ` winner${winner}`}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby="over-h"
      data-testid="game-over"
    >
      <h2 id="over-h" ref={heading} tabIndex={-1}>{resultHeadline(state, people, mySeat, tr)}</h2>
      <p class="final-score">
        <span class="sr-only">{finalScore(state, people, tr)}</span>
        <span aria-hidden="true">{people[0].name}</span>
        <strong aria-hidden="true">{scores[0]}</strong>
        <span aria-hidden="true">:</span>
        <strong aria-hidden="true">{scores[1]}</strong>
        <span aria-hidden="true">{people[1].name}</span>
      </p>
      {reason ? <p>{reason}</p> : null}
      {daily && state.daily && mySeat !== null ? (
        <DailySummary date={state.daily} mine={scores[mySeat]} total={total} daily={daily} />
      ) : null}
      <div class="actions">
        {props.onAgain ? (
          <button type="button" class="btn primary" onClick={props.onAgain} disabled={props.againPending}>
            {againText}
          </button>
        ) : null}
        <button type="button" class="btn" onClick={() => navigate("/")}>
          {t("over.home")}
        </button>
        <Link href={`/g/${gameIdOf(state.id, state.game_number)}`} class="btn">
          {t("over.reviewGame")}
        </Link>
        <button type="button" class="btn ghost" onClick={props.onHide}>
          {t("over.review")}
        </button>
      </div>
    </section>
  );
}

function DailySummary({ date, mine, total, daily }: { date: string; mine: number; total: number; daily: DailyResult }): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const counted = daily.standing === "practice" ? daily.counted : null;
  return (
    <div class="daily-summary" data-standing={daily.standing}>
      {daily.standing === "practice" ? (
        <>
          <p>
            <span class="badge practice">{t("daily.practice")}</span> {t("over.daily", { n: mine, total })}
          </p>
          {counted ? <p>{t("over.dailyCounted", { n: counted.boxes, total: counted.total })}</p> : null}
        </>
      ) : (
        <p>{t("over.daily", { n: mine, total })}</p>
      )}
      <DailyCompare date={date} boxes={counted ? counted.boxes : mine} />
    </div>
  );
}

/** How the counted result compares with everybody else's that day. */
function DailyCompare({ date, boxes }: { date: string; boxes: number }): JSX.Element | null {
  const tr = useI18n();
  const [result, setResult] = useState<DailyComparison | "loading" | "failed">("loading");
  useEffect(() => {
    let alive = true;
    setResult("loading");
    loadDailyComparison((d) => api.dailyResults(d), date, boxes).then(
      (c) => alive && setResult(c),
      () => alive && setResult("failed"),
    );
    return () => {
      alive = false;
    };
  }, [date, boxes]);
  if (result === "failed") return null;
  return (
    <p class="daily-compare" data-testid="daily-compare" data-state={result === "loading" ? "loading" : "ready"}>
      {result === "loading" ? tr.t("over.dailyLoading") : dailyCompareText(result, tr)}
    </p>
  );
}

/** Why a game ended early, in a sentence ("Coral resigned."); null when it was played out. */
export function endingText(outcome: { winner: 0 | 1 | null; reason: string } | null | undefined, people: People, t: Translator["t"]): string | null {
  const loser = outcome?.winner === 0 ? 1 : outcome?.winner === 1 ? 0 : null;
  if (outcome?.reason === "agreement") return t("over.agreed");
  if (loser === null) return null;
  const who = { name: people[loser].name, gender: people[loser].gender };
  if (outcome?.reason === "resignation") return t("over.resigned", who);
  if (outcome?.reason === "time") return t("over.time", who);
  return null;
}
