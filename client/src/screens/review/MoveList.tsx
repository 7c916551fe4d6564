// The moves in the record's notation, grouped in turns, with the score after each move
// and, once analysed, the mistakes and the boxes they lose. Each move opens its position.
import { useEffect, useRef } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { turnsOf, type Mistake } from "../../review/model";
import type { ReviewMove } from "../../review/types";

interface Props {
  moves: readonly ReviewMove[];
  ply: number;
  mistakes: readonly Mistake[];
  seatName: (seat: 0 | 1) => string;
  onPick: (ply: number) => void;
  /** Shown under the turn that holds move index `after` (a variation's moves). */
  nested?: { after: number; content: JSX.Element } | null;
}

export function MoveList({ moves, ply, mistakes, seatName, onPick, nested }: Props): JSX.Element {
  const { t, tn } = useI18n();
  const listRef = useRef<HTMLOListElement>(null);
  const lost = new Map(mistakes.map((m) => [m.index, m.loss]));
  // Keep the current move in sight without moving the page.
  useEffect(() => {
    const list = listRef.current;
    const cur = list?.querySelector<HTMLElement>("[aria-current='step']");
    if (!list || !cur) return;
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }, [ply]);
  if (moves.length === 0) return <p class="muted">{t("review.noMoves")}</p>;
  return (
    <ol class="move-list" ref={listRef} aria-label={t("review.moves")}>
      {turnsOf(moves).map((turn) => (
        <li key={turn.number} class={`turn seat${turn.player}`}>
          <span class="turn-no" aria-hidden="true">
            {turn.number}.
          </span>
          <span class={`swatch seat${turn.player}`} aria-hidden="true" />
          <span class="turn-moves">
            {turn.moves.map((i) => {
              const m = moves[i]!;
              const loss = lost.get(i);
              // The name is the visible text with words around it for screen readers:
              // "Move 4, Coral: a3-b3, score 0:0, loses 2 boxes".
              return (
                <button
                  type="button"
                  key={i}
                  class={`mv${loss ? " mistake" : ""}`}
                  aria-current={ply === i + 1 ? "step" : undefined}
                  data-move={i + 1}
                  onClick={() => onPick(i + 1)}
                >
                  <span class="sr-only">{t("review.moveLabel", { n: i + 1, name: seatName(m.seat) })}</span>{" "}
                  <span class="mv-text">{m.notation}</span>
                  <span class="sr-only">, {t("review.score")}</span>{" "}
                  <span class="mv-score">
                    {m.scores[0]}:{m.scores[1]}
                  </span>
                  {loss ? (
                    <span class="mv-loss">
                      <span aria-hidden="true">?−{loss}</span>
                      <span class="sr-only">, {tn("review.loses", loss)}</span>
                    </span>
                  ) : null}
                </button>
              );
            })}
          </span>
          {nested && turn.moves.includes(nested.after) ? nested.content : null}
        </li>
      ))}
    </ol>
  );
}
