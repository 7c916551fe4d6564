// "Play a bot" (the bots connected now, with their ratings) and "Open games" (challenges
// anybody may take, and posting one). A posted challenge waits here until it is taken,
// declined or expires; then the room opens with the seat the challenge gave us.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { Link } from "../components/Link";
import { useI18n, type MessageKey } from "../i18n";
import { api, ApiError, type BotView, type ChallengeView, type NewChallenge } from "../net";
import { storage } from "../storage";
import { enterChallengeRoom } from "./session";

const REFRESH_MS = 3000;
const WAIT_MS = 1000;

type Board = "boxes-3" | "boxes-5" | "dots-12";
const BOARDS: Board[] = ["boxes-3", "boxes-5", "dots-12"];

function challengeBody(board: Board, to: string | null): NewChallenge {
  const name = storage.settings().name || null;
  const common = { mode: "live" as const, to, name };
  if (board === "dots-12") return { game: "dots", width: 12, height: 12, start: "cross", ...common };
  const side = board === "boxes-3" ? 3 : 5;
  return { game: "boxes", rows: side, cols: side, ...common };
}

function boardLabel(game: string, options: Record<string, unknown>, t: (k: MessageKey) => string): string {
  const size = game === "boxes" ? `${String(options.cols)}×${String(options.rows)}` : `${String(options.width)}×${String(options.height)}`;
  return `${t(`game.${game}` as MessageKey)} ${size}`;
}

interface Waiting {
  id: string;
  token: string;
  to: string | null;
}

export function BotsScreen(): JSX.Element {
  const { t, error } = useI18n();
  const errorText = (e: unknown) => (e instanceof ApiError ? error(e.code, e.message) : error("network"));
  const [bots, setBots] = useState<BotView[] | null>(null);
  const [open, setOpen] = useState<ChallengeView[]>([]);
  const [board, setBoard] = useState<Board>("boxes-3");
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    const load = async () => {
      try {
        const [found, games] = await Promise.all([api.bots(), api.challenges()]);
        if (!alive) return;
        setBots(found.filter((b) => b.connected));
        setOpen(games);
      } catch (e) {
        if (alive) setNote(errorText(e));
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);

  // A posted challenge: look until it is taken (then play), declined or expired.
  useEffect(() => {
    if (!waiting) return;
    let alive = true;
    const timer = setInterval(async () => {
      try {
        const seen = await api.challenge(waiting.id, waiting.token);
        if (!alive) return;
        if (seen.status === "accepted" && seen.room_id && seen.seat != null) {
          clearInterval(timer);
          await enterChallengeRoom(seen.room_id, waiting.token, seen.seat);
        } else if (seen.status === "declined") {
          setNote(t("bots.declined", { name: waiting.to ?? "", reason: seen.reason ?? "" }));
          setWaiting(null);
        } else if (seen.status === "expired" || seen.status === "cancelled") {
          setNote(t("bots.expired"));
          setWaiting(null);
        }
      } catch (e) {
        if (alive) setNote(errorText(e));
      }
    }, WAIT_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [waiting]);

  const post = async (to: string | null) => {
    setNote(null);
    try {
      const posted = await api.postChallenge(challengeBody(board, to));
      if (posted.token) setWaiting({ id: posted.challenge.id, token: posted.token, to });
    } catch (e) {
      setNote(errorText(e));
    }
  };

  const withdraw = async () => {
    if (!waiting) return;
    try {
      await api.cancelChallenge(waiting.id, waiting.token);
    } catch {
      // Taken meanwhile: the next look opens the room, or says it is gone.
      return;
    }
    setWaiting(null);
  };

  const take = async (challenge: ChallengeView) => {
    setNote(null);
    try {
      const taken = await api.acceptChallenge(challenge.id, storage.settings().name);
      if (taken.token) await enterChallengeRoom(taken.room_id, taken.token, taken.seat);
    } catch (e) {
      setNote(errorText(e));
    }
  };

  return (
    <div class="bots-screen">
      <section class="card" aria-labelledby="bots-h">
        <h1 id="bots-h">{t("bots.title")}</h1>
        <p class="muted">
          {t("bots.intro")} <Link href="/ladder">{t("ladder.link")}</Link>
        </p>
        <label class="field">
          <span>{t("bots.board")}</span>
          <select value={board} onChange={(e) => setBoard((e.currentTarget as HTMLSelectElement).value as Board)}>
            {BOARDS.map((b) => {
              const [game, side] = b.split("-");
              const opts = game === "boxes" ? { rows: side, cols: side } : { width: side, height: side };
              return (
                <option key={b} value={b}>
                  {boardLabel(game ?? "boxes", opts, t)}
                </option>
              );
            })}
          </select>
        </label>
        {waiting ? (
          <p role="status" class="waiting">
            {waiting.to ? t("bots.waiting", { name: waiting.to }) : t("bots.waitingAnyone")}{" "}
            <button type="button" class="btn" onClick={() => void withdraw()}>
              {t("bots.withdraw")}
            </button>
          </p>
        ) : null}
        {note ? <p role="alert">{note}</p> : null}
        {bots === null ? null : bots.length === 0 ? (
          <p>{t("bots.none")}</p>
        ) : (
          <ul class="bot-list" aria-label={t("bots.title")}>
            {bots.map((bot) => {
              const rating = Object.values(bot.ratings)[0];
              return (
                <li key={bot.name}>
                  <span class="name">{bot.name}</span> <span class="badge bot">{t("player.bot")}</span>{" "}
                  <span class="muted">{rating === undefined ? t("bots.unrated") : t("bots.rating", { rating: Math.round(rating) })}</span>{" "}
                  <button type="button" class="btn primary" disabled={!!waiting} onClick={() => void post(bot.name)}>
                    {t("bots.challenge", { name: bot.name })}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section class="card" aria-labelledby="open-h">
        <h2 id="open-h">{t("bots.open")}</h2>
        {open.length === 0 ? <p>{t("bots.openNone")}</p> : null}
        <ul class="open-list">
          {open
            .filter((c) => c.id !== waiting?.id)
            .map((c) => (
              <li key={c.id}>
                <span>{boardLabel(c.game, c.options, t)}</span>{" "}
                <span class="muted">{t("bots.by", { name: c.from.name ?? t("bots.someone") })}</span>
                {c.from.bot ? <span class="badge bot">{t("player.bot")}</span> : null}{" "}
                <button type="button" class="btn" onClick={() => void take(c)}>
                  {t("bots.take")}
                </button>
              </li>
            ))}
        </ul>
        <button type="button" class="btn" disabled={!!waiting} onClick={() => void post(null)}>
          {t("bots.post")}
        </button>
      </section>
    </div>
  );
}
