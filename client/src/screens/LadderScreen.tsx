// The ladder: bots and the computer's levels by rating, per game and board size class (the
// levels are fixed anchors), each row opening the player's latest games, every one of them
// reviewable.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey } from "../i18n";
import { api, ApiError, type GameName, type Ladder, type LadderEntry, type LadderGame, type SizeClass } from "../net";
import { Link } from "../components/Link";

const SIZE_CLASSES: SizeClass[] = ["small", "standard", "large"];

export function LadderScreen(): JSX.Element {
  const { t, error } = useI18n();
  const [game, setGame] = useState<GameName>("boxes");
  const [size, setSize] = useState<SizeClass>("standard");
  const [table, setTable] = useState<Ladder | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    setTable(null);
    setNote(null);
    api.ladder(game, size).then(
      (found) => alive && setTable(found),
      (e: unknown) => alive && setNote(e instanceof ApiError ? error(e.code, e.message) : error("network")),
    );
    return () => {
      alive = false;
    };
  }, [game, size]);

  return (
    <div class="ladder-page">
      <h1>{t("ladder.title")}</h1>
      <p class="muted">{t("ladder.intro")}</p>
      <div class="ladder-pick">
        <label>
          <span>{t("start.game")}</span>
          <select value={game} onChange={(e) => setGame((e.target as HTMLSelectElement).value as GameName)}>
            <option value="boxes">{t("game.boxes")}</option>
            <option value="dots">{t("game.dots")}</option>
          </select>
        </label>
        <label>
          <span>{t("start.size")}</span>
          <select value={size} onChange={(e) => setSize((e.target as HTMLSelectElement).value as SizeClass)}>
            {SIZE_CLASSES.map((c) => (
              <option key={c} value={c}>
                {t(`ladder.size.${game}.${c}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {note ? <p role="alert">{note}</p> : null}
      {table ? (
        <table class="ladder">
          <caption class="sr-only">{t("ladder.caption", { game: t(`game.${game}`), size: t(`ladder.size.${game}.${size}` as MessageKey) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("ladder.rank")}</th>
              <th scope="col">{t("ladder.player")}</th>
              <th scope="col">{t("ladder.rating")}</th>
              <th scope="col">{t("ladder.record")}</th>
            </tr>
          </thead>
          <tbody>
            {table.entries.map((row) => (
              <LadderRow key={row.player} row={row} open={shown === row.player} onToggle={() => setShown(shown === row.player ? null : row.player)} />
            ))}
          </tbody>
        </table>
      ) : null}
      {table && !table.entries.some((row) => !row.computer) ? <p>{t("ladder.none")}</p> : null}
    </div>
  );
}

function LadderRow({ row, open, onToggle }: { row: LadderEntry; open: boolean; onToggle: () => void }): JSX.Element {
  const { t } = useI18n();
  const name = playerName(row.player, t);
  return (
    <>
      <tr class={row.computer ? "anchor" : undefined}>
        <td>{row.rank}</td>
        <th scope="row">
          {name}
          {row.computer ? null : <span class="badge bot">{t("player.bot")}</span>}
        </th>
        <td>{row.computer ? t("ladder.anchor", { rating: row.rating }) : t("ladder.ratingValue", { rating: row.rating, deviation: row.deviation })}</td>
        <td>
          {row.computer ? (
            "–"
          ) : (
            <button type="button" class="btn ghost small" aria-expanded={open} onClick={onToggle} aria-label={t("ladder.recentOf", { name })}>
              {t("ladder.recordValue", { wins: row.wins, draws: row.draws, losses: row.losses })}
            </button>
          )}
        </td>
      </tr>
      {open ? (
        <tr class="ladder-games">
          <td colSpan={4}>
            <RecentGames player={row.player} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function RecentGames({ player }: { player: string }): JSX.Element {
  const { t, lang } = useI18n();
  const [games, setGames] = useState<LadderGame[] | null>(null);
  useEffect(() => {
    let alive = true;
    api.ladderGames(player).then(
      (found) => alive && setGames(found),
      () => alive && setGames([]),
    );
    return () => {
      alive = false;
    };
  }, [player]);
  if (games === null) return <p class="muted">{t("ladder.loading")}</p>;
  if (games.length === 0) return <p class="muted">{t("ladder.noGames")}</p>;
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  return (
    <ul class="plain" aria-label={t("ladder.recentOf", { name: playerName(player, t) })}>
      {games.map((g) => {
        const [gold, coral] = [playerName(g.players[0], t), playerName(g.players[1], t)];
        const result = g.winner === null ? t("over.draw") : t("over.won", { name: g.winner === 0 ? gold : coral, gender: "other" });
        const text = `${gold} – ${coral} · ${result} · ${when.format(new Date(g.finished_at ?? g.started_at))}`;
        return <li key={g.room_id}>{g.game_id ? <Link href={`/g/${g.game_id}`}>{text}</Link> : text}</li>;
      })}
    </ul>
  );
}

/** A ladder player as people read it: a bot by its name, a computer level as the level. */
function playerName(player: string, t: ReturnType<typeof useI18n>["t"]): string {
  const level = /^level:(easy|normal|hard)$/.exec(player)?.[1];
  return level ? t("games.computerLevel", { level: t(`level.${level}` as MessageKey) }) : player;
}
