// The start screen, in one view: the usual game one click away, the unfinished games to
// continue, a new game of any kind, and the games with friends.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../i18n";
import { api, ApiError, fromSnapshot, type ClockOption, type CreateRoom, type Level, type RoomState } from "../net";
import { storage, type GameName, type Mode, type SeatRecord } from "../storage";
import { Link } from "../components/Link";
import { LEVELS } from "../components/LevelOptions";
import { dailyRoomBody } from "./dailyCount";
import { startRoom } from "./session";
import { TimeControlPicker } from "./TimeControlPicker";

type StartMode = Mode | "daily";

interface SizePreset {
  a: number; // boxes across / points across
  b: number; // boxes down / points down
}

const SIZES: Record<GameName, SizePreset[]> = {
  boxes: [
    { a: 3, b: 3 },
    { a: 4, b: 4 },
    { a: 5, b: 5 },
    { a: 7, b: 7 },
  ],
  dots: [
    { a: 15, b: 15 },
    { a: 20, b: 20 },
    { a: 39, b: 32 },
  ],
};
const DEFAULT_SIZE: Record<GameName, number> = { boxes: 2, dots: 1 };
const MODES: StartMode[] = ["computer", "local", "live", "correspondence", "daily"];
type DotsStart = "empty" | "cross" | "four_crosses";
const DOTS_STARTS: DotsStart[] = ["empty", "cross", "four_crosses"];
/** Saved games listed before "Show all". */
const FIRST_SAVED = 3;
const QUICK_GAME: CreateRoom = { game: "boxes", rows: 5, cols: 5, mode: "computer", level: "normal", first: "me" };

export function sizeText(p: SizePreset): string {
  return `${p.a}×${p.b}`;
}

/** One choice among a few, as a row of buttons (radio inputs underneath). */
function Choice<T extends string>(props: {
  legend: JSX.Element | string;
  name: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (v: T) => void;
  class?: string;
}): JSX.Element {
  return (
    <fieldset class={`choice ${props.class ?? ""}`}>
      <legend>{props.legend}</legend>
      <div class="segmented">
        {props.options.map((o) => (
          <label key={o.value} class={props.value === o.value ? "on" : ""}>
            <input type="radio" name={props.name} value={o.value} checked={props.value === o.value} onChange={() => props.onChange(o.value)} />
            <span>
              <span class="tick" aria-hidden="true">
                ✓
              </span>
              {o.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function StartScreen(): JSX.Element {
  const { t, error: errorText } = useI18n();
  const [game, setGame] = useState<GameName>("boxes");
  const [mode, setMode] = useState<StartMode>("computer");
  const [sizeIx, setSizeIx] = useState<Record<GameName, number>>(DEFAULT_SIZE);
  const [level, setLevel] = useState<Level>("normal");
  const [first, setFirst] = useState<"me" | "opponent">("me");
  const [dotsStart, setDotsStart] = useState<DotsStart>("empty");
  const [clocks, setClocks] = useState<{ live: ClockOption | null; correspondence: ClockOption | null }>({ live: null, correspondence: null });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const effMode: StartMode = game === "dots" && mode === "daily" ? "computer" : mode;
  const preset = SIZES[game][sizeIx[game]] ?? SIZES[game][0]!;

  const launch = async (body: CreateRoom, size: string) => {
    setBusy(true);
    setError(null);
    try {
      await startRoom(body, size);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError("network", String(err)));
      setBusy(false);
    }
  };

  const start = (e: Event) => {
    e.preventDefault();
    const first_ = effMode === "computer" ? first : null;
    const clock = effMode === "live" || effMode === "correspondence" ? clocks[effMode] : null;
    if (effMode === "daily") void launch(dailyRoomBody(storage.dailyPlayer()) as CreateRoom, "5×5");
    else if (game === "boxes") void launch({ game: "boxes", rows: preset.b, cols: preset.a, mode: effMode, level, first: first_, clock }, sizeText(preset));
    else {
      // In a Dots friend room who moves first is drawn by lot (the invitation says so).
      const dotsFirst = effMode === "live" || effMode === "correspondence" ? "random" : first_;
      void launch({ game: "dots", width: preset.a, height: preset.b, mode: effMode, level, first: dotsFirst, start: dotsStart, clock }, sizeText(preset));
    }
  };

  return (
    <div class="start">
      <div class="start-main">
        <h1 class="start-title">
          {t("start.heading")}
          <span class="tagline">{t("app.tagline")}</span>
        </h1>
        <button type="button" class="btn primary big quick" disabled={busy} onClick={() => void launch(QUICK_GAME, "5×5")} data-testid="quick-start">
          <span class="quick-name">{t("start.quick")}</span>
          <span class="quick-desc">{t("start.quickDesc")}</span>
        </button>
        <SavedGames />
        <OnlineGames />
        <p class="about muted small">
          {t("start.aboutBoxes")} {t("start.aboutDots")} <Link href="/rules">{t("start.readRules")}</Link>
        </p>
      </div>

      <form class="card new-game" onSubmit={start} aria-labelledby="new-h">
        <h2 id="new-h">{t("start.new")}</h2>
        <Choice
          legend={t("start.game")}
          name="game"
          value={game}
          onChange={setGame}
          options={(["boxes", "dots"] as GameName[]).map((g) => ({ value: g, label: t(`game.${g}` as MessageKey) }))}
        />
        <fieldset class="choice">
          <legend>{t("start.mode")}</legend>
          <div class="segmented modes">
            {MODES.filter((m) => game === "boxes" || m !== "daily").map((m) => (
              <label key={m} class={`mode${effMode === m ? " on" : ""}`}>
                <input type="radio" name="mode" value={m} checked={effMode === m} onChange={() => setMode(m)} aria-describedby="mode-desc" />
                <span>
                  <span class="tick" aria-hidden="true">
                    ✓
                  </span>
                  {t(`mode.${m}.short` as MessageKey)}
                </span>
              </label>
            ))}
          </div>
          <p class="mode-desc" id="mode-desc">
            <strong>{t(`mode.${effMode}` as MessageKey)}.</strong> {t(`mode.${effMode}.desc` as MessageKey)}
          </p>
        </fieldset>

        {effMode !== "daily" ? (
          <Choice
            legend={
              <>
                {t("start.size")} <span class="unit">({t(game === "boxes" ? "start.size.boxesUnit" : "start.size.dotsUnit")})</span>
              </>
            }
            name="size"
            value={String(sizeIx[game])}
            onChange={(v) => setSizeIx({ ...sizeIx, [game]: Number(v) })}
            options={SIZES[game].map((p, i) => ({ value: String(i), label: sizeText(p) }))}
          />
        ) : null}

        {game === "dots" && effMode !== "daily" ? (
          <Choice
            legend={t("dots.start")}
            name="dots-start"
            value={dotsStart}
            onChange={setDotsStart}
            options={DOTS_STARTS.map((st) => ({ value: st, label: t(`dots.start.${st}` as MessageKey) }))}
          />
        ) : null}

        {effMode === "computer" ? (
          <div class="pair">
            <Choice
              legend={t("start.level")}
              name="level"
              value={level}
              onChange={setLevel}
              options={LEVELS.map((l) => ({ value: l, label: t(`level.${l}` as MessageKey) }))}
            />
            <Choice
              legend={t("start.first")}
              name="first"
              value={first}
              onChange={setFirst}
              options={[
                { value: "me" as const, label: t("first.me") },
                { value: "opponent" as const, label: t("first.computer") },
              ]}
            />
          </div>
        ) : null}

        {effMode === "live" || effMode === "correspondence" ? (
          <TimeControlPicker mode={effMode} value={clocks[effMode]} onChange={(v) => setClocks({ ...clocks, [effMode]: v })} />
        ) : null}

        {error ? (
          <p class="error" role="alert">
            {errorText(error.code, error.message)}
          </p>
        ) : null}

        <button type="submit" class="btn primary big" disabled={busy}>
          {busy ? t("start.creating") : t("start.play")}
        </button>
      </form>
    </div>
  );
}

/** Every unfinished computer and one-device game, until it is finished or deleted. */
function SavedGames(): JSX.Element | null {
  const { t } = useI18n();
  const [games, setGames] = useState<SeatRecord[]>(() => storage.localGames());
  const [all, setAll] = useState(false);
  if (games.length === 0) return null;
  const shown = all ? games : games.slice(0, FIRST_SAVED);
  return (
    <section class="card continue" aria-labelledby="continue-h">
      <h2 id="continue-h">{t("start.continue")}</h2>
      <ul class="plain">
        {shown.map((rec) => (
          <SavedGame
            key={rec.roomId}
            rec={rec}
            onDelete={() => {
              storage.forgetSeat(rec.roomId);
              setGames(storage.localGames());
            }}
          />
        ))}
      </ul>
      {games.length > FIRST_SAVED ? (
        <button type="button" class="btn ghost small" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? t("start.fewer") : t("start.more", { n: games.length })}
        </button>
      ) : null}
    </section>
  );
}

/** When a saved game was last played: the time if today, else the day and time. */
function whenText(at: number, lang: string, now = new Date()): string {
  const date = new Date(at);
  const today = date.toDateString() === now.toDateString();
  const style: Intl.DateTimeFormatOptions = today ? { timeStyle: "short" } : { day: "numeric", month: "short", hour: "numeric", minute: "2-digit" };
  return new Intl.DateTimeFormat(lang, style).format(date);
}

function SavedGame({ rec, onDelete }: { rec: SeatRecord; onDelete: () => void }): JSX.Element {
  const { t, tn, lang } = useI18n();
  const [asking, setAsking] = useState(false);
  const s = rec.summary;
  const name = t(`game.${rec.game}` as MessageKey);
  // Two saved games of the same kind must read differently: how far each got and when come
  // first, so that a phone's ellipsis cuts what they share (the opponent, the size).
  const opponent =
    rec.mode === "computer" && s?.level ? t("games.computerLevel", { level: t(`level.${s.level}` as MessageKey).toLowerCase() }) : t(`mode.${rec.daily ? "daily" : rec.mode}.short` as MessageKey);
  const date = s?.moves !== undefined ? `${tn("moves", s.moves)} · ${whenText(rec.updatedAt, lang)}` : whenText(rec.updatedAt, lang);
  const meta = t("start.continueMeta", { mode: opponent, size: rec.size, date });
  return (
    <li class="saved" data-testid="saved-game" data-room={rec.roomId}>
      <Link href={`/r/${rec.roomId}`} class="saved-link" data-testid="continue">
        <span class="saved-name">
          {name}
          {s ? <span class="saved-score"> · {t("start.score", { score: `${s.scores[0]}:${s.scores[1]}` })}</span> : null}
        </span>
        <span class="saved-meta">{meta}</span>
      </Link>
      {asking ? (
        <span class="confirm" role="group" aria-label={t("start.deleteConfirm")}>
          <button type="button" class="btn danger small" onClick={onDelete}>
            {t("start.deleteYes")}
          </button>
          <button type="button" class="btn small" onClick={() => setAsking(false)}>
            {t("start.deleteNo")}
          </button>
        </span>
      ) : (
        <button type="button" class="btn ghost small" onClick={() => setAsking(true)} aria-label={`${t("start.delete")}: ${name}, ${meta}`}>
          {t("start.delete")}
        </button>
      )}
    </li>
  );
}

type OnlineStatus = "yourTurn" | "theirTurn" | "waiting" | "over" | "unknown" | "gone";

function statusOf(rec: SeatRecord, state: RoomState | null): OnlineStatus {
  if (!state) return "unknown";
  if (state.is_over) return "over";
  const other = state.seats.find((s) => s.seat !== rec.seat);
  if (other && !other.taken) return "waiting";
  return state.to_move === rec.seat ? "yourTurn" : "theirTurn";
}

function OnlineGames(): JSX.Element | null {
  const { t } = useI18n();
  const [recs, setRecs] = useState<SeatRecord[]>(() => storage.onlineGames());
  const [status, setStatus] = useState<Record<string, OnlineStatus>>({});

  useEffect(() => {
    let alive = true;
    for (const rec of recs) {
      api
        .getRoom(rec.roomId, rec.token)
        .then((res) => {
          if (!alive) return;
          const room = fromSnapshot(res.state);
          storage.updateSummary(rec.roomId, {
            version: room.version,
            scores: [room.scores[0], room.scores[1]],
            toMove: room.to_move,
            isOver: room.is_over,
            expiresAt: room.expires_in_seconds === null ? null : Date.now() + room.expires_in_seconds * 1000,
            gameNumber: room.game_number,
          });
          setStatus((old) => ({ ...old, [rec.roomId]: statusOf(rec, room) }));
        })
        .catch((e: unknown) => {
          if (!alive) return;
          const gone = e instanceof ApiError && e.code === "room_not_found";
          setStatus((old) => ({ ...old, [rec.roomId]: gone ? "gone" : "unknown" }));
        });
    }
    return () => {
      alive = false;
    };
  }, [recs]);

  if (recs.length === 0) return null;
  return (
    <section class="card online" aria-labelledby="online-h">
      <h2 id="online-h">{t("start.online")}</h2>
      <ul class="plain">
        {recs.map((rec) => {
          const st = status[rec.roomId] ?? "unknown";
          return (
            <li key={rec.roomId} class={`row online-${st} game-${rec.game}`} data-room={rec.roomId}>
              <Link href={`/r/${rec.roomId}`} class="room-link">
                <span class={`swatch seat${rec.seat}`} aria-hidden="true" />
                <span>
                  {t(`game.${rec.game}` as MessageKey)} {rec.size} · {t(`mode.${rec.mode}` as MessageKey)}
                </span>
              </Link>
              <span class={`badge ${st}`}>{t(`online.${st}` as MessageKey)}</span>
              {st === "gone" || st === "over" ? (
                <button
                  type="button"
                  class="btn ghost small"
                  aria-label={t("start.onlineForget")}
                  title={t("start.onlineForget")}
                  onClick={() => {
                    storage.forgetSeat(rec.roomId);
                    setRecs(storage.onlineGames());
                  }}
                >
                  ×
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
