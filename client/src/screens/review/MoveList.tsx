// The moves in the record's notation, grouped in turns, with the score after each move
// and, once analysed, the mistakes and the boxes they lose. Each move opens its position.
//
// A long game (a Dots game has hundreds or thousands of turns) keeps only the turns in
// sight in the page, and the current one: each row has one height and its place in the
// scrolled box, and says its place in the whole list to screen readers.
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { turnsOf, type Mistake, type Turn } from "../../review/model";
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

/** From this many turns on, only the turns in sight are in the page. */
export const WINDOWED_FROM = 120;
/** Height of a turn's row in a windowed list (CSS pixels): a move button and its gap. */
export const ROW_PX = 38;
/** Turns kept in the page above and below the ones in sight (smooth scrolling). */
const OVERSCAN = 6;
/** The list's height before it is measured (its CSS max-height). */
const LIST_PX = 220;

export function MoveList({ moves, ply, mistakes, seatName, onPick, nested }: Props): JSX.Element {
  const { t } = useI18n();
  const turns = useMemo(() => turnsOf(moves), [moves]);
  const lost = useMemo(() => new Map(mistakes.map((m) => [m.index, m.loss])), [mistakes]);
  if (moves.length === 0) return <p class="muted">{t("review.noMoves")}</p>;
  const row = (turn: Turn, attrs: JSX.HTMLAttributes<HTMLLIElement>, tabbable: (i: number) => boolean) => (
    <TurnRow key={turn.number} turn={turn} moves={moves} ply={ply} lost={lost} seatName={seatName} onPick={onPick} attrs={attrs} tabbable={tabbable}>
      {nested && turn.moves.includes(nested.after) ? nested.content : null}
    </TurnRow>
  );
  // a variation's moves, shown inside a turn, make its row taller: the whole list then
  return turns.length >= WINDOWED_FROM && !nested ? <WindowedList turns={turns} ply={ply} row={row} /> : <WholeList turns={turns} ply={ply} row={row} />;
}

type RowOf = (turn: Turn, attrs: JSX.HTMLAttributes<HTMLLIElement>, tabbable: (i: number) => boolean) => JSX.Element;

function WholeList({ turns, ply, row }: { turns: readonly Turn[]; ply: number; row: RowOf }): JSX.Element {
  const { t } = useI18n();
  const listRef = useRef<HTMLOListElement>(null);
  // Keep the current move in sight without moving the page.
  useLayoutEffect(() => {
    const list = listRef.current;
    const cur = list?.querySelector<HTMLElement>("[aria-current='step']");
    if (!list || !cur) return;
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }, [ply]);
  return (
    <ol class="move-list" ref={listRef} aria-label={t("review.moves")}>
      {turns.map((turn) => row(turn, {}, () => true))}
    </ol>
  );
}

/** Which turn holds the move that leads to `ply` (the first turn at the start). */
function turnOfPly(turns: readonly Turn[], ply: number): number {
  const move = Math.max(0, ply - 1);
  let lo = 0;
  let hi = turns.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (turns[mid]!.moves[0]! <= move) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function WindowedList({ turns, ply, row }: { turns: readonly Turn[]; ply: number; row: RowOf }): JSX.Element {
  const { t } = useI18n();
  const boxRef = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, height: LIST_PX });
  /** Whether the keyboard focus is on a move: it follows the current move as it changes
   * (the row it was on may leave the page). */
  const focusInside = useRef(false);
  const current = turnOfPly(turns, ply);

  // Keep the current move in sight without moving the page, and the focus on it.
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const top = current * ROW_PX;
    const height = box.clientHeight || LIST_PX;
    if (top < box.scrollTop || top + ROW_PX > box.scrollTop + height) box.scrollTop = Math.max(0, top - height / 2 + ROW_PX / 2);
    if (box.scrollTop !== scroll.top || height !== scroll.height) setScroll({ top: box.scrollTop, height });
    if (focusInside.current) box.querySelector<HTMLElement>("[aria-current='step'], [tabindex='0']")?.focus({ preventScroll: true });
  }, [ply, turns]);

  const first = Math.max(0, Math.floor(scroll.top / ROW_PX) - OVERSCAN);
  const last = Math.min(turns.length - 1, Math.ceil((scroll.top + scroll.height) / ROW_PX) + OVERSCAN);
  const shown: number[] = [];
  if (current < first) shown.push(current);
  for (let i = first; i <= last; i++) shown.push(i);
  if (current > last) shown.push(current);
  const currentMove = ply - 1;
  return (
    <div
      class="move-list windowed"
      ref={boxRef}
      onScroll={(e) => {
        const box = e.currentTarget as HTMLDivElement;
        setScroll({ top: box.scrollTop, height: box.clientHeight || LIST_PX });
      }}
      onFocusIn={() => (focusInside.current = true)}
      onFocusOut={(e) => {
        const to = (e as FocusEvent).relatedTarget as Node | null;
        focusInside.current = !!to && !!boxRef.current?.contains(to);
      }}
    >
      <ol aria-label={t("review.moves")} style={{ height: `${turns.length * ROW_PX}px` }}>
        {shown.map((i) => {
          const turn = turns[i]!;
          // one move of the list is reached with Tab (the current one, else the turn's
          // first): the arrow keys step from there
          const holds = currentMove >= turn.moves[0]! && currentMove <= turn.moves[turn.moves.length - 1]!;
          return row(
            turn,
            { style: { top: `${i * ROW_PX}px`, height: `${ROW_PX}px` }, "aria-setsize": turns.length, "aria-posinset": i + 1 },
            (m) => (holds ? m === currentMove : i === current && m === turn.moves[0]),
          );
        })}
      </ol>
    </div>
  );
}

interface RowProps {
  turn: Turn;
  moves: readonly ReviewMove[];
  ply: number;
  lost: ReadonlyMap<number, number>;
  seatName: (seat: 0 | 1) => string;
  onPick: (ply: number) => void;
  attrs: JSX.HTMLAttributes<HTMLLIElement>;
  tabbable: (move: number) => boolean;
  children?: JSX.Element | null;
}

function TurnRow({ turn, moves, ply, lost, seatName, onPick, attrs, tabbable, children }: RowProps): JSX.Element {
  const { t, tn } = useI18n();
  return (
    <li class={`turn seat${turn.player}`} {...attrs}>
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
              tabIndex={tabbable(i) ? 0 : -1}
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
      {children}
    </li>
  );
}
