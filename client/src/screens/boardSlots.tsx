// Board slots: one adapter per game turns the server's room state into a pure board
// component's props and its intents back into protocol moves. A new game's board (Dots)
// plugs in by adding an entry to BOARD_SLOTS.
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import { BoxesBoard, type BoxesView, type LineState } from "../boards/BoxesBoard";
import { lineKey, type Line, type Seat } from "../boards/boxesGeometry";
import { DotsBoard, type DotsView, type PointInfo, type Pt } from "../boards/DotsBoard";
import { useI18n } from "../i18n";
import { squareName } from "../notation";
import type { GameName, Move, RoomState } from "../net";
import type { LineNote } from "../review/model";

export interface BoardSlotProps {
  state: RoomState;
  /** The person at this screen may move now. */
  interactive: boolean;
  /** Whose colour a preview takes. */
  mover: Seat;
  hint: Move | null;
  pending: Move | null;
  /** Letter or number shown on what a seat owns. */
  seatLetter: (seat: Seat) => string;
  onMove: (move: Move) => void;
  /** Dots adds "occupied" (a mark stands there) and "dead" (inside a captured area). */
  onBlocked: (why: "drawn" | "wait" | "occupied" | "dead") => void;
  /** Settings the board may honour (Dots: tap twice to place). */
  tapPreview: boolean;
  /** Letters and numbers beside the board (a setting in play; always on in the review). */
  coordinates?: boolean;
  /** Dots and Boxes: notes on undrawn lines by line key (the review's line values). */
  lineNotes?: ReadonlyMap<string, LineNote>;
}

export type BoardSlot = (props: BoardSlotProps) => JSX.Element;

function lineOf(m: Move | null): Line | null {
  return m && "line" in m ? m.line : null;
}

function BoxesSlot(p: BoardSlotProps): JSX.Element {
  const { t, tn } = useI18n();
  if (p.state.game !== "boxes") throw new Error("the Dots and Boxes board was given a Dots room");
  const view: BoxesView = p.state.board;
  const lineText = (l: Line) => t("line.label", { from: squareName(l[0][0], l[0][1]), to: squareName(l[1][0], l[1][1]) });
  return (
    <BoxesBoard
      view={view}
      interactive={p.interactive}
      mover={p.mover}
      hint={lineOf(p.hint)}
      pending={lineOf(p.pending)}
      boxLabel={p.seatLetter}
      labels={{
        board: t("board.boxes", { rows: view.rows, cols: view.cols }),
        line: (l: Line, st: LineState) => {
          // A line's value is drawn for the eye and said in its name: "…, free, gives away 2 boxes".
          const note = p.lineNotes?.get(lineKey(l));
          const name = t(`line.${st}`, { line: lineText(l) });
          return note ? `${name}, ${note.best ? t("values.lineBest") : tn("analysis.givesAway", note.cost)}` : name;
        },
      }}
      onDraw={(line) =>
        p.onMove({
          line: [
            [line[0][0], line[0][1]],
            [line[1][0], line[1][1]],
          ],
        })
      }
      onBlocked={(_l, why) => p.onBlocked(why)}
      coordinates={p.coordinates ?? false}
      lineNotes={p.lineNotes}
    />
  );
}

function pointOf(m: Move | null): Pt | null {
  return m && "point" in m ? m.point : null;
}

function DotsSlot(p: BoardSlotProps): JSX.Element {
  const { t } = useI18n();
  const state = p.state;
  // Built once per position: on 39×32 the list holds up to 1248 points.
  const legal = useMemo<Pt[]>(() => (state.game === "dots" ? state.legal_moves.map((m) => m.point) : []), [state.legal_moves]);
  if (state.game !== "dots") throw new Error("the Dots board was given a Dots and Boxes room");
  const view: DotsView = state.board;
  const pointText = (pt: Pt, info: PointInfo, playable: boolean) => {
    const point = t("dots.point", { point: squareName(pt[0], pt[1]) });
    if (info.kind === "dead") return t("dots.point.dead", { point });
    if (info.kind === "free") return t(playable ? "dots.point.free" : "dots.point.freeWait", { point });
    const shape = info.owner === 0 ? "pen" : "pencil";
    return t(info.captured ? `dots.point.${shape}Captured` : `dots.point.${shape}`, { point });
  };
  return (
    <DotsBoard
      view={view}
      legal={p.state.is_over ? [] : legal}
      interactive={p.interactive}
      mover={p.mover}
      hint={pointOf(p.hint)}
      pending={pointOf(p.pending)}
      tapPreview={p.tapPreview}
      labels={{
        board: t("board.dots", { width: view.width, height: view.height }),
        point: pointText,
        keys: t("dots.keys"),
        zoomIn: t("dots.zoomIn"),
        zoomOut: t("dots.zoomOut"),
        zoomFit: t("dots.zoomFit"),
        lastMove: t("dots.lastMove"),
        zoomHelp: t("dots.zoomHelp"),
        touchHelp: t(p.tapPreview ? "dots.touchHelp" : "dots.touchHelpOneTap"),
        tapAgain: t("dots.tapAgain"),
      }}
      onPlace={(pt) => p.onMove({ point: [pt[0], pt[1]] })}
      onBlocked={(_pt, why) => p.onBlocked(why)}
      coordinates={p.coordinates ?? false}
    />
  );
}

export const BOARD_SLOTS: Record<GameName, BoardSlot> = {
  boxes: BoxesSlot,
  dots: DotsSlot,
};
