// Line values in practice: playing Dots and Boxes against the computer (not the daily board,
// not a rated game), an optional overlay shows what every undrawn line of the position is
// worth, as the review does. The server values the position on the player's turn; the
// board draws the notes (lineNotes), and a line beside it says what they mean.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n } from "../../i18n";
import { ApiError, type LineValues, type RoomState } from "../../net";
import { lineNotes, type LineNote } from "../../review/model";

/** Whether a room offers line values: practice against the computer at Dots and Boxes. */
export function offersLineValues(state: RoomState): boolean {
  // (a rated game is a bot's, never played here; the server refuses it anyway)
  return state.game === "boxes" && state.mode === "computer" && !state.daily;
}

export interface LineValuesState {
  /** The values of the position shown, once they came (null: none yet, or none here). */
  values: LineValues | null;
  /** Asked and not answered yet. */
  waiting: boolean;
  error: ApiError | null;
}

interface Asker {
  lineValues(): Promise<{ version: number; values: LineValues } | null>;
}

/** The line values of the room's position, asked whenever it is `myTurn` in a new position
 * while `on`; values of an earlier position are never shown. */
export function useLineValues(conn: Asker | null, state: RoomState | null, myTurn: boolean, on: boolean): LineValuesState {
  const [got, setGot] = useState<{ version: number; values: LineValues } | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const version = state?.version ?? null;
  const wanted = on && conn !== null && state !== null && offersLineValues(state) && myTurn && !state.is_over;
  useEffect(() => {
    if (!wanted || got?.version === version) return;
    let alive = true;
    setWaiting(true);
    setError(null);
    conn!
      .lineValues()
      .then((found) => alive && setGot(found))
      .catch((e: unknown) => alive && setError(e instanceof ApiError ? e : new ApiError("internal_error", String(e))))
      .finally(() => alive && setWaiting(false));
    return () => {
      alive = false;
      setWaiting(false);
    };
  }, [wanted, version]);
  return { values: wanted && got?.version === version ? got.values : null, waiting: wanted && waiting, error: wanted ? error : null };
}

/** The notes the board draws for the values (exact ones only). */
export function notesOf(found: LineValuesState): Map<string, LineNote> | undefined {
  return found.values ? lineNotes(found.values) : undefined;
}

/** Beside the board while line values are on: what the notes mean, or why there are none. */
export function LineValuesNote({ found, myTurn }: { found: LineValuesState; myTurn: boolean }): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const v = found.values;
  const text = found.error
    ? tr.error(found.error.code, found.error.message)
    : !myTurn
      ? t("values.computerTurn")
      : found.waiting || !v
        ? t("values.waiting")
        : v.exact && (v.values ?? []).length > 0
          ? t("values.exact")
          : t("values.estimate");
  return (
    <p class="line-values-note small" data-testid="line-values" data-exact={v?.exact ? "true" : "false"} aria-live="polite">
      <strong>{t("values.title")}:</strong> {text}
    </p>
  );
}
