// A room, whatever the mode: the board as large as the screen allows, the players, the
// controls, offers and the result in one view (a side panel on wide screens, bars above
// and below the board on phones). The pieces live in ./room/.
import { useEffect, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey, type Params } from "../i18n";
import { ApiError, type Move, type RoomAction, type RoomState, type AppliedEvent } from "../net";
import { soundOn, storage, type Settings } from "../storage";
import { Link } from "../components/Link";
import { Announcer, type Announcement } from "../components/Announcer";
import { playSound, unlockSound } from "../components/sound";
import { BOARD_SLOTS } from "./boardSlots";
import { allowedActions, isFriendRoom, waitingForGuest } from "./allowed";
import { dailyStanding, dayText } from "./dailyCount";
import { gameIdOf, opponentOf } from "./myGames";
import { hintReason } from "./room/hintReason";
import { announceEvent, finalScore, resultHeadline } from "./room/announce";
import { describeSeats, gameTitle, isMyTurn, turnText } from "./room/people";
import { useRoom } from "./room/useRoom";
import { PlayerCards } from "./room/PlayerCards";
import { Controls } from "./room/Controls";
import { InvitePanel } from "./room/InvitePanel";
import { Offers } from "./room/Offers";
import { ResultCard } from "./room/ResultCard";
import { RoomGone } from "./room/RoomGone";
import { ConnBadge } from "./room/ConnBadge";
import { controlWords } from "./room/clocks";
import { LineValuesNote, notesOf, offersLineValues, useLineValues } from "./room/LineValues";

interface Props {
  roomId: string;
  invite: string | null;
  settings: Settings;
  onSettings: (patch: Partial<Settings>) => void;
}

/** A message kept as a key or an error code, so it follows a change of language. */
type Notice =
  | { kind: "info"; key: MessageKey; params?: Params; id: number; about?: "hint" }
  | { kind: "error"; code: string; fallback: string; id: number };

/** Errors that say the server cannot be reached: a connection that is back answers them. */
const CONNECTION_ERRORS = new Set(["network", "unavailable", "closed", "internal_error"]);

let serial = 0;

export function RoomScreen({ roomId, invite, settings, onSettings }: Props): JSX.Element {
  const tr = useI18n();
  const { t, tn } = tr;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);
  const [hint, setHint] = useState<{ move: Move; version: number } | null>(null);
  const [hintPending, setHintPending] = useState(false);
  const [pending, setPending] = useState<Move | null>(null);
  const [hiddenResult, setHiddenResult] = useState<number | null>(null);
  const [, setDailyTick] = useState(0);
  const sound = soundOn(settings);

  const info = (key: MessageKey, params?: Params) => setNotice({ kind: "info", key, params, id: ++serial });
  // The connection's state now, for errors that arrive as it comes back.
  const connStatus = useRef<string | null>(null);
  const sayError = (e: unknown) => {
    const err = e instanceof ApiError ? e : new ApiError("internal_error", String(e));
    // A command sent just before the connection dropped is refused when the connection
    // is back: "cannot be reached" beside "Connected" would be untrue.
    if (CONNECTION_ERRORS.has(err.code) && connStatus.current === "online") info("error.retry");
    else setNotice({ kind: "error", code: err.code, fallback: err.message, id: ++serial });
  };
  const announce = (text: string) => setAnnouncement({ text, serial: ++serial });

  // The latest state and words, for the connection's event callback.
  const latest = useRef<{ state: RoomState | null; sound: boolean }>({ state: null, sound });
  const ctxRef = useRef<Parameters<typeof announceEvent>[3] | null>(null);

  const onEvent = (ev: AppliedEvent, after: RoomState | null) => {
    const before = latest.current.state;
    const ctx = ctxRef.current;
    if (ctx) {
      const text = announceEvent(ev, before, after, ctx);
      if (text) announce(text);
    }
    if (latest.current.sound && ev.event.kind === "move" && before && after) {
      const seat = ev.event.seat;
      const gained = after.scores[seat] > before.scores[seat];
      const mine = ctx?.mode !== "local" && seat === ctx?.mySeat;
      const myTurnNow = ctx?.mySeat !== null && ctx?.mode !== "local" && after.to_move === ctx?.mySeat && !after.is_over;
      playSound(gained ? "capture" : !mine && myTurnNow ? "turn" : "move");
    }
    const e = ev.event;
    if (e.kind === "declined" && e.seat !== null && e.seat !== ctx?.mySeat) {
      info(
        e.request === "restart"
          ? "restart.declined"
          : e.request === "takeback"
            ? "takeback.declined"
            : ctx?.game === "dots"
              ? "dots.end.declined"
              : "end.declined",
      );
    }
    if (e.kind === "undone" && (ctx?.mode === "live" || ctx?.mode === "correspondence")) info("takeback.done");
    if (after) latest.current.state = after;
  };
  const room = useRoom(roomId, invite, { onEvent, onError: sayError });
  const { snap, conn } = room;
  connStatus.current = snap?.status ?? null;

  const state = snap?.state ?? null;
  const mySeat = snap?.seat ?? null;
  const isPlayer = snap?.role === "player" && mySeat !== null;
  const people = state ? describeSeats(state, mySeat, isPlayer, tr) : null;
  latest.current = { state: latest.current.state ?? state, sound };
  if (state && people) ctxRef.current = { tr, people, mySeat: isPlayer ? mySeat : null, mode: state.mode, game: state.game };
  useEffect(() => {
    if (state) latest.current.state = state;
  }, [state]);

  // Notices fade after a while; errors stay a little longer.
  useEffect(() => {
    if (!notice) return;
    const id = setTimeout(() => setNotice(null), notice.kind === "error" ? 9000 : 5000);
    return () => clearTimeout(id);
  }, [notice]);

  // The end of a game: said once, with the score, and heard if sounds are on.
  const wasOver = useRef<boolean | null>(null);
  useEffect(() => {
    if (!state || !people) return;
    if (wasOver.current === false && state.is_over) {
      announce(`${resultHeadline(state, people, isPlayer ? mySeat : null, tr)} ${finalScore(state, people, tr)}`);
      if (sound) playSound("over");
    }
    wasOver.current = state.is_over;
  }, [state?.is_over, state?.game_number]);

  // Save after every change: the start screen lists the game with its score and date.
  useEffect(() => {
    if (!state || !isPlayer || !storage.getSeat(roomId)) return;
    storage.updateSummary(roomId, {
      version: state.version,
      scores: [state.scores[0], state.scores[1]],
      toMove: state.to_move,
      isOver: state.is_over,
      winner: state.outcome?.winner ?? null,
      reason: state.outcome?.reason,
      level: state.level,
      guestJoined: state.seats.every((s) => s.taken),
      expiresAt: state.expires_in_seconds === null ? null : Date.now() + state.expires_in_seconds * 1000,
      gameNumber: state.game_number,
      moves: state.move_count,
      opponent: opponentOf(state, mySeat),
    });
    const seat = storage.getSeat(roomId);
    if (state.is_over && seat && mySeat !== null) {
      storage.rememberPlayed({
        gameId: gameIdOf(roomId, state.game_number),
        roomId,
        gameNumber: state.game_number,
        game: state.game,
        mode: state.mode,
        size: seat.size,
        seat: mySeat,
        scores: [state.scores[0], state.scores[1]],
        winner: state.outcome?.winner ?? null,
        reason: state.outcome?.reason,
        level: state.level,
        daily: state.daily,
        opponent: opponentOf(state, mySeat),
        finishedAt: Date.now(),
      });
    }
  }, [state?.version, isPlayer]);

  // The board of the day: the first game this browser finishes today is the one counted.
  const dailyRecord = state?.daily ? storage.dailyRecord(state.daily) : null;
  const standing = state?.daily ? dailyStanding(dailyRecord, { roomId, gameNumber: state.game_number }) : null;
  useEffect(() => {
    if (!state?.daily || !state.is_over || !isPlayer || mySeat === null || standing !== "open") return;
    const b = state.board as { rows?: number; cols?: number };
    storage.countDaily(state.daily, {
      roomId,
      gameNumber: state.game_number,
      boxes: state.scores[mySeat],
      total: (b.rows ?? 5) * (b.cols ?? 5),
    });
    setDailyTick((n) => n + 1);
  }, [state?.is_over, state?.game_number, standing]);

  // A hint is only good for the position it was asked in, and so is its explanation.
  useEffect(() => {
    if (hint && state && state.version !== hint.version) setHint(null);
  }, [state?.version]);
  useEffect(() => {
    if (!hint) setNotice((n) => (n?.kind === "info" && n.about === "hint" ? null : n));
  }, [hint]);

  // Back online: "the server cannot be reached" is no longer true.
  useEffect(() => {
    if (snap?.status === "online") setNotice((n) => (n?.kind === "error" && CONNECTION_ERRORS.has(n.code) ? null : n));
  }, [snap?.status]);

  // A seat this browser held was refused by the server: forget it and watch instead.
  useEffect(() => {
    if (snap?.status === "bad_token") {
      storage.forgetSeat(roomId);
      sayError(new ApiError("bad_token", ""));
      room.reload();
    }
    if (snap?.status === "gone") storage.forgetSeat(roomId);
  }, [snap?.status]);

  // The tab says when it is your move, and the score.
  const myTurn = state ? isMyTurn(state, mySeat, isPlayer) : false;
  // Practice against the computer: the value of every undrawn line, when asked for.
  const valuesOn = settings.lineValues === true && isPlayer;
  const lineValues = useLineValues(conn, state, myTurn, valuesOn);
  useEffect(() => {
    if (!state) return;
    const score = `${state.scores[0]}:${state.scores[1]}`;
    const lead = state.is_over ? t("title.over") : myTurn && state.mode !== "local" ? t("title.yourMove") : gameTitle(state, tr).game;
    document.title = `${lead} · ${score} · ${t("app.name")}`;
    return () => {
      document.title = t("app.name");
    };
  }, [myTurn, state?.scores[0], state?.scores[1], state?.is_over, tr.lang]);

  if (room.fatal?.code === "room_not_found" || snap?.status === "gone") return <RoomGone known={room.known} />;
  if (room.fatal) {
    return (
      <section class="card narrow" role="alert">
        <h1>{t("room.failed")}</h1>
        <p>{tr.error(room.fatal.code, room.fatal.message)}</p>
        <div class="actions">
          <button type="button" class="btn primary" onClick={room.reload}>
            {t("room.retry")}
          </button>
          <Link href="/" class="btn">
            {t("nav.home")}
          </Link>
        </div>
      </section>
    );
  }
  if (!snap || !state || !people) {
    return (
      <section class="card narrow" aria-busy="true">
        <h1 class="loading">{room.joining ? t("room.joining") : t("room.loading")}</h1>
      </section>
    );
  }
  if (snap.status === "taken_over") {
    return (
      <section class="card narrow takeover" role="alert" data-testid="taken-over">
        <h1>{t("takeover.title")}</h1>
        <p>{t("takeover.body")}</p>
        <div class="actions">
          <button type="button" class="btn primary" onClick={() => conn?.reclaim()}>
            {t("takeover.reclaim")}
          </button>
          <Link href="/" class="btn">
            {t("takeover.home")}
          </Link>
        </div>
      </section>
    );
  }

  const mode = state.mode;
  const friend = isFriendRoom(state);
  const waiting = isPlayer && waitingForGuest(state);
  const allowed = allowedActions(state, mySeat, isPlayer, pending !== null);
  const Slot = BOARD_SLOTS[state.game];
  const spectators = state.spectators ?? 0;
  // In a private Dots room nobody else has the link: whoever watches before the second
  // seat is taken is the friend, who has still to press Join.
  const friendHere = waiting && state.game === "dots" && spectators > 0;
  const joinOffer = room.canJoin && !isPlayer;
  const clockWords = state.time_control ? controlWords(state.time_control, tr.lang) : null;
  const clockNote = !clockWords
    ? null
    : "days" in clockWords
      ? t("clock.perMove", { days: clockWords.days })
      : clockWords.increment
        ? t("clock.live", { minutes: clockWords.minutes, increment: clockWords.increment })
        : t("clock.liveNoIncrement", { minutes: clockWords.minutes });
  const title = gameTitle(state, tr);
  const resultShown = state.is_over && hiddenResult !== state.game_number;
  const other = mySeat === null ? undefined : state.seats.find((s) => s.seat !== mySeat);
  const expiry =
    friend && state.expires_in_seconds !== null
      ? t("room.expires", {
          date: new Intl.DateTimeFormat(tr.lang, { dateStyle: "medium" }).format(new Date(Date.now() + state.expires_in_seconds * 1000)),
        })
      : null;

  const run = (what: () => Promise<unknown>) => {
    unlockSound();
    what().catch((e: unknown) => sayError(e));
  };
  const act = (a: RoomAction) => run(() => conn!.act(a));

  const makeMove = (move: Move) => {
    if (!conn) return;
    unlockSound();
    setPending(move);
    setHint(null);
    conn
      .move(move)
      .catch((e: unknown) => sayError(e))
      .finally(() => setPending(null));
  };

  const onBlocked = (why: "drawn" | "wait" | "occupied" | "dead") => {
    if (!isPlayer) info("room.spectating");
    else if (why === "drawn") info("blocked.drawn");
    else if (why === "occupied") info("dots.blocked.occupied");
    else if (why === "dead") info("dots.blocked.dead");
    else if (state.is_over) setNotice({ kind: "error", code: "game_over", fallback: "", id: ++serial });
    else info("blocked.wait");
  };

  const onAgain = !isPlayer
    ? null
    : mode === "computer" || mode === "local"
      ? () => act({ type: "new_game" })
      : allowed.offerRestart
        ? () => act({ type: "offer", kind: "restart" })
        : null;

  return (
    <div
      class={`room mode-${mode} game-${state.game}${resultShown ? " is-over" : ""}`}
      data-version={state.version}
      data-status={snap.status}
      data-level={state.level ?? ""}
      data-game-number={state.game_number}
    >
      <div class="room-head">
        <h1 class="room-title">
          {title.game}
          <span class="sub">
            {" · "}
            {title.mode}
            {state.daily ? `, ${dayText(state.daily, tr.lang)}` : ""}
          </span>
          {standing === "practice" ? <span class="badge practice">{t("daily.practice")}</span> : null}
        </h1>
        <div class="room-badges">
          {spectators > 0 && !friendHere && !joinOffer ? (
            <span class="watchers" data-testid="spectators">
              {tr.tn("spectators", spectators)}
            </span>
          ) : null}
          <ConnBadge snap={snap} onRetry={() => conn?.retryNow()} />
        </div>
      </div>

      <PlayerCards state={state} people={people} mySeat={mySeat} />

      <div class="board-area">
        {joinOffer ? (
          <section class="card join-offer" aria-labelledby="join-h" data-testid="join-offer">
            <h2 id="join-h">{t("dots.joinTitle")}</h2>
            <p>{t("dots.joinBody")}</p>
            <button type="button" class="btn primary big" onClick={room.join}>
              {t("dots.join")}
            </button>
          </section>
        ) : null}
        {waiting ? (
          <InvitePanel url={room.inviteUrl} expiry={expiry} game={state.game} friendHere={friendHere} clocks={clockNote} />
        ) : (
          <div class="board-wrap">
            <Slot
              state={state}
              interactive={allowed.move}
              mover={mode === "local" || mySeat === null ? state.to_move : mySeat}
              hint={hint?.move ?? null}
              pending={pending}
              seatLetter={(s) => people[s].letter}
              onMove={makeMove}
              onBlocked={onBlocked}
              tapPreview={settings.tapPreview}
              coordinates={settings.coordinates}
              lineNotes={notesOf(lineValues)}
            />
          </div>
        )}
        {resultShown ? (
          <ResultCard
            state={state}
            people={people}
            mySeat={isPlayer ? mySeat : null}
            daily={standing ? { standing, counted: dailyRecord } : null}
            onAgain={onAgain}
            againPending={state.requests.some((r) => r.seat === mySeat && r.kind === "restart")}
            onHide={() => setHiddenResult(state.game_number)}
          />
        ) : null}
      </div>

      <div class="room-side">
        {waiting ? null : (
          <p class="status" data-testid="turn">
            {turnText(state, mySeat, isPlayer, people, pending !== null, tr)}
          </p>
        )}
        {!isPlayer && !joinOffer ? (
          <p class="spectating" data-testid="spectating">
            {t("room.spectating")}
          </p>
        ) : null}
        {isPlayer ? <Offers state={state} people={people} mySeat={mySeat} onAct={act} /> : null}
        <div class="notice-area" role="status">
          {notice ? (
            <p class={`notice ${notice.kind}`} key={notice.id} data-testid={notice.kind === "error" ? "error" : "info"}>
              {notice.kind === "error" ? tr.error(notice.code, notice.fallback) : t(notice.key, notice.params)}
            </p>
          ) : null}
        </div>
        {valuesOn && offersLineValues(state) && !state.is_over ? <LineValuesNote found={lineValues} myTurn={myTurn} /> : null}
        {state.is_over && !resultShown ? (
          <button type="button" class="btn primary" onClick={() => setHiddenResult(null)}>
            {t("over.show")}
          </button>
        ) : null}
        {isPlayer ? (
          <Controls
            state={state}
            allowed={allowed}
            resultShown={resultShown}
            sound={sound}
            onSound={(on) => {
              if (on) unlockSound();
              onSettings({ sound: on });
            }}
            onAct={act}
            hintPending={hintPending}
            lineValues={offersLineValues(state) ? settings.lineValues === true : null}
            onLineValues={(on) => onSettings({ lineValues: on })}
            onHint={() => {
              setHintPending(true);
              setNotice({ kind: "info", key: "hint.waiting", id: ++serial, about: "hint" });
              run(async () => {
                try {
                  const found = await conn!.hint();
                  if (found) {
                    setHint({ move: found.move, version: state.version });
                    const shownKey: MessageKey = state.game === "dots" ? "dots.hintShown" : "controls.hintShown";
                    const why = hintReason(t, tn, found);
                    const key: MessageKey = why ? "hint.shown" : shownKey;
                    setNotice({ kind: "info", key, params: why ? { shown: t(shownKey), why } : undefined, id: ++serial, about: "hint" });
                  } else {
                    setNotice((n) => (n?.kind === "info" && n.about === "hint" ? null : n));
                  }
                } finally {
                  setHintPending(false);
                }
              });
            }}
          />
        ) : null}
        {friend ? (
          <p class="muted small room-foot">
            {t(mode === "live" ? (state.game === "dots" ? "room.live.dots" : "room.live.boxes") : "room.correspondence")}
            {clockNote && !waiting ? ` ${clockNote}` : ""}
            {other && other.taken && !other.connected && !state.is_over ? ` ${people[other.seat].name}: ${t("presence.offline")}.` : ""}
            {expiry && !waiting ? ` ${expiry}` : ""}
          </p>
        ) : null}
      </div>
      <Announcer message={announcement} />
    </div>
  );
}
