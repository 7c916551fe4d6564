// "My games": every game this browser played, newest first, with the opponent, size,
// score and date; a finished game opens its review, an unfinished one its room. Below,
// a record from elsewhere can be imported for review.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey, type Translator } from "../i18n";
import { storage } from "../storage";
import { api, fromSnapshot } from "../net";
import { deadlineOf, spanText } from "./room/clocks";
import { navigate } from "../router";
import { Link } from "../components/Link";
import { myGames, resultOf, type MyGameRow, EARLY_ENDINGS } from "./myGames";
import { ImportForm } from "./review/ImportForm";

export function opponentText(row: Pick<MyGameRow, "mode" | "level" | "daily" | "opponent">, tr: Translator): string {
  const { t } = tr;
  if (row.daily) return t("mode.daily");
  if (row.opponent) return row.opponent.name;
  if (row.mode === "computer") return row.level ? t("games.computerLevel", { level: t(`level.${row.level}` as MessageKey) }) : t("player.computer");
  if (row.mode === "local") return t("mode.local");
  return t("games.friend");
}

/** A correspondence move's time limit: when the clock that runs now runs out, and whether it is ours. */
interface Deadline {
  at: number;
  mine: boolean;
}

/** Within this long of its deadline a move's reminder turns urgent. */
const URGENT_MS = 24 * 3600 * 1000;

/** The deadlines of the unfinished correspondence games with a time limit, read from the server. */
function useDeadlines(rows: readonly MyGameRow[]): Record<string, Deadline> {
  const [found, setFound] = useState<Record<string, Deadline>>({});
  useEffect(() => {
    let alive = true;
    for (const row of rows) {
      if (row.finished || row.mode !== "correspondence") continue;
      const roomId = row.href.replace(/^\/r\//, "");
      api
        .getRoom(roomId)
        .then((res) => {
          const state = fromSnapshot(res.state, Date.now());
          const at = deadlineOf(state.clock);
          if (!alive || at === null || state.is_over || !state.time_control?.per_move) return;
          setFound((all) => ({ ...all, [row.key]: { at, mine: state.to_move === row.seat } }));
        })
        .catch(() => {
          /* no reminder for a room that cannot be read now */
        });
    }
    return () => {
      alive = false;
    };
  }, [rows]);
  return found;
}

export function MyGamesScreen(): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const [rows] = useState(() => myGames(storage.listSeats(), storage.playedGames()));
  const deadlines = useDeadlines(rows);
  return (
    <div class="my-games">
      <h1>{t("games.title")}</h1>
      {rows.length === 0 ? (
        <p class="card">{t("games.empty")}</p>
      ) : (
        <ul class="plain card games-list" aria-label={t("games.title")}>
          {rows.map((row) => (
            <GameRow key={row.key} row={row} deadline={deadlines[row.key] ?? null} />
          ))}
        </ul>
      )}
      <ImportForm
        onRecord={(text) => {
          storage.saveReviewRecord(text);
          navigate("/review");
        }}
      />
    </div>
  );
}

function GameRow({ row, deadline }: { row: MyGameRow; deadline: Deadline | null }): JSX.Element {
  const tr = useI18n();
  const { t, lang } = tr;
  const date = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(row.date));
  const result = resultOf(row);
  const score = row.scores ? `${row.scores[0]}:${row.scores[1]}` : "–";
  const game = t(`game.${row.game}` as MessageKey);
  const opponent = opponentText(row, tr);
  const early = EARLY_ENDINGS.find((e) => e === row.reason);
  const ended = result ? t(`games.${result}`) : t("online.over");
  const state = row.finished ? (early ? `${ended} · ${t(`games.ending.${early}`)}` : ended) : t("games.unfinished");
  return (
    <li class={`game-row${row.finished ? " finished" : " open"}${result ? ` ${result}` : ""}`} data-testid="my-game" data-href={row.href}>
      <Link href={row.href} class="game-link">
        <span class={row.mode === "local" ? "swatch both" : `swatch seat${row.seat}`} aria-hidden="true" />
        <span class="game-what">
          <span class="game-name">
            <span class="sr-only">{row.finished ? t("games.review") : t("games.open")}: </span>
            {game} {row.size}
          </span>
          <span class="game-meta">
            <span class="sr-only">, </span>
            {opponent}
            {row.opponent?.bot ? <span class="badge bot">{t("player.bot")}</span> : null} · {date}
          </span>
          {deadline ? (
            <span class={`game-deadline${deadline.mine ? " mine" : ""}${deadline.at - Date.now() < URGENT_MS ? " urgent" : ""}`} data-testid="deadline">
              <span class="sr-only">, </span>
              {t(deadline.mine ? "games.deadline.mine" : "games.deadline.theirs", { left: spanText(deadline.at - Date.now(), lang) })}
            </span>
          ) : null}
        </span>
        <span class="game-score">
          <span class="sr-only">, </span>
          {score}
        </span>
        <span class={`badge ${row.finished ? (result ?? "over") : "yourTurn"}`}>
          <span class="sr-only">, </span>
          {state}
        </span>
      </Link>
    </li>
  );
}
