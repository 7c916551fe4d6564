// The start screen: continue a saved game, open an online game, or set up a new one.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../i18n";
import { api, ApiError, fromSnapshot, type CreateRoom, type Level, type RoomState } from "../net";
import { storage, type GameName, type Mode, type SeatRecord } from "../storage";
import { navigate } from "../router";
import { Link } from "../components/Link";
import { rememberGrant } from "./session";

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
const LEVELS: Level[] = ["easy", "normal", "hard"];
type DotsStart = "empty" | "cross" | "four_crosses";
const DOTS_STARTS: DotsStart[] = ["empty", "cross", "four_crosses"];

export function sizeText(game: GameName, p: SizePreset): string {
  return game === "boxes" ? `${p.a}×${p.b}` : `${p.a}×${p.b}`;
}

export function StartScreen(): JSX.Element {
  const { t, error: errorText } = useI18n();
  const [game, setGame] = useState<GameName>("boxes");
  const [mode, setMode] = useState<StartMode>("computer");
  const [sizeIx, setSizeIx] = useState<Record<GameName, number>>(DEFAULT_SIZE);
  const [level, setLevel] = useState<Level>("normal");
  const [first, setFirst] = useState<"me" | "opponent">("me");
  const [dotsStart, setDotsStart] = useState<DotsStart>("empty");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [locals, setLocals] = useState<SeatRecord[]>(() => storage.localGames());

  const effMode: StartMode = game === "dots" && mode === "daily" ? "computer" : mode;
  const preset = SIZES[game][sizeIx[game]] ?? SIZES[game][0]!;

  const start = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    let body: CreateRoom;
    if (effMode === "daily") {
      body = { game: "boxes", daily: true } as CreateRoom;
    } else if (game === "boxes") {
      body = { game: "boxes", rows: preset.b, cols: preset.a, mode: effMode, level, first: effMode === "computer" ? first : null } as CreateRoom;
    } else {
      body = { game: "dots", width: preset.a, height: preset.b, mode: effMode, level, first: effMode === "computer" ? first : null, start: dotsStart } as CreateRoom;
    }
    try {
      const grant = await api.createRoom(body);
      rememberGrant(grant, effMode === "daily" ? "5×5" : sizeText(game, preset));
      navigate(`/r/${grant.room_id}`);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError("network", String(err)));
      setBusy(false);
    }
  };

  return (
    <div class="start">
      <p class="tagline">{t("app.tagline")}</p>

      {locals.length > 0 ? (
        <section class="card continue" aria-labelledby="continue-h">
          <h2 id="continue-h">{t("start.continue")}</h2>
          <ul class="plain">
            {locals.map((rec) => (
              <ContinueItem
                key={rec.roomId}
                rec={rec}
                onForget={() => {
                  storage.clearLocalGame(rec.game, rec.roomId);
                  storage.forgetSeat(rec.roomId);
                  setLocals(storage.localGames());
                }}
              />
            ))}
          </ul>
        </section>
      ) : null}

      <form class="card new-game" onSubmit={start} aria-labelledby="new-h">
        <h2 id="new-h">{t("start.new")}</h2>

        <fieldset class="choice">
          <legend>{t("start.game")}</legend>
          <div class="segmented">
            {(["boxes", "dots"] as GameName[]).map((g) => (
              <label key={g} class={game === g ? "on" : ""}>
                <input type="radio" name="game" value={g} checked={game === g} onChange={() => setGame(g)} />
                <span>{t(`game.${g}` as MessageKey)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset class="choice">
          <legend>{t("start.mode")}</legend>
          <div class="modes">
            {MODES.filter((m) => game === "boxes" || m !== "daily").map((m) => (
              <label key={m} class={`mode${effMode === m ? " on" : ""}`}>
                <input type="radio" name="mode" value={m} checked={effMode === m} onChange={() => setMode(m)} />
                <span class="mode-name">{t(`mode.${m}` as MessageKey)}</span>
                <span class="mode-desc">{t(`mode.${m}.desc` as MessageKey)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {effMode !== "daily" ? (
          <fieldset class="choice">
            <legend>
              {t("start.size")} <span class="unit">({t(game === "boxes" ? "start.size.boxesUnit" : "start.size.dotsUnit")})</span>
            </legend>
            <div class="segmented">
              {SIZES[game].map((p, i) => (
                <label key={sizeText(game, p)} class={sizeIx[game] === i ? "on" : ""}>
                  <input
                    type="radio"
                    name="size"
                    value={sizeText(game, p)}
                    checked={sizeIx[game] === i}
                    onChange={() => setSizeIx({ ...sizeIx, [game]: i })}
                  />
                  <span>{sizeText(game, p)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}

        {game === "dots" && effMode !== "daily" ? (
          <fieldset class="choice">
            <legend>{t("dots.start")}</legend>
            <div class="segmented">
              {DOTS_STARTS.map((st) => (
                <label key={st} class={dotsStart === st ? "on" : ""}>
                  <input type="radio" name="dots-start" value={st} checked={dotsStart === st} onChange={() => setDotsStart(st)} />
                  <span>{t(`dots.start.${st}` as MessageKey)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}

        {effMode === "computer" ? (
          <>
            <fieldset class="choice">
              <legend>{t("start.level")}</legend>
              <div class="segmented">
                {LEVELS.map((l) => (
                  <label key={l} class={level === l ? "on" : ""}>
                    <input type="radio" name="level" value={l} checked={level === l} onChange={() => setLevel(l)} />
                    <span>{t(`level.${l}` as MessageKey)}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset class="choice">
              <legend>{t("start.first")}</legend>
              <div class="segmented">
                {(["me", "opponent"] as const).map((f) => (
                  <label key={f} class={first === f ? "on" : ""}>
                    <input type="radio" name="first" value={f} checked={first === f} onChange={() => setFirst(f)} />
                    <span>{t(f === "me" ? "first.me" : "first.computer")}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          </>
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

      <OnlineGames />

      <section class="card about" aria-labelledby="about-h">
        <h2 id="about-h">{t("nav.rules")}</h2>
        <p>{t("start.aboutBoxes")}</p>
        <p>{t("start.aboutDots")}</p>
        <Link href="/rules">{t("start.readRules")}</Link>
      </section>
    </div>
  );
}

function ContinueItem({ rec, onForget }: { rec: SeatRecord; onForget: () => void }): JSX.Element {
  const { t } = useI18n();
  const s = rec.summary;
  const score = s ? `${s.scores[0]} : ${s.scores[1]}` : "";
  return (
    <li class="row">
      <Link href={`/r/${rec.roomId}`} class="btn primary" data-testid="continue">
        {t("start.continue")}
      </Link>
      <span class="desc">
        {t("start.continueDesc", {
          game: t(`game.${rec.game}` as MessageKey),
          mode: t(`mode.${rec.daily ? "daily" : rec.mode}` as MessageKey),
          size: rec.size,
          score,
        })}
      </span>
      <button type="button" class="btn ghost small" onClick={onForget}>
        {t("start.discard")}
      </button>
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

function OnlineGames(): JSX.Element {
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
          const st = statusOf(rec, room);
          storage.updateSummary(rec.roomId, {
            version: room.version,
            scores: [room.scores[0], room.scores[1]],
            toMove: room.to_move,
            isOver: room.is_over,
          });
          setStatus((old) => ({ ...old, [rec.roomId]: st }));
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

  return (
    <section class="card online" aria-labelledby="online-h">
      <h2 id="online-h">{t("start.online")}</h2>
      {recs.length === 0 ? (
        <p class="muted">{t("start.onlineEmpty")}</p>
      ) : (
        <ul class="plain">
          {recs.map((rec) => {
            const st = status[rec.roomId] ?? "unknown";
            return (
              <li key={rec.roomId} class={`row online-${st}`} data-room={rec.roomId}>
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
      )}
    </section>
  );
}
