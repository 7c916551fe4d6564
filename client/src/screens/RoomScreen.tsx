// A room: whatever the mode, the board, the players, the controls and the connection.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey, type Translator } from "../i18n";
import {
  api,
  ApiError,
  openRoom,
  type Level,
  type Move,
  type RoomConnection,
  type AppliedEvent,
  type RoomSnapshot,
  type RoomState,
  type Seat,
  type ServerSnapshot,
} from "../net";
import { storage, type Settings } from "../storage";
import { Link } from "../components/Link";
import { navigate } from "../router";
import { BOARD_SLOTS } from "./boardSlots";
import { rememberGrant } from "./session";
import { dailyCompareText, loadDailyComparison, type DailyComparison } from "./dailyCompare";

interface Props {
  roomId: string;
  invite: string | null;
  settings: Settings;
}

interface Notice {
  text: string;
  kind: "error" | "info";
  id: number;
}

let noticeId = 0;

export function RoomScreen({ roomId, invite, settings }: Props): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const [snap, setSnap] = useState<RoomSnapshot | null>(null);
  const [fatal, setFatal] = useState<ApiError | null>(null);
  const [joining, setJoining] = useState(false);
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [hint, setHint] = useState<{ move: Move; version: number } | null>(null);
  const [pending, setPending] = useState<Move | null>(null);
  // Dots invitations ask before taking the free seat; the guest presses "Join".
  const [canJoin, setCanJoin] = useState(false);
  const joinAsked = useRef(false);
  const connRef = useRef<RoomConnection | null>(null);
  const trRef = useRef<Translator>(tr);
  trRef.current = tr;

  const say = (text: string, kind: Notice["kind"] = "info") => {
    noticeId += 1;
    setNotice({ text, kind, id: noticeId });
  };
  const sayError = (e: unknown) => {
    const err = e instanceof ApiError ? e : new ApiError("internal_error", String(e));
    say(trRef.current.error(err.code, err.message), "error");
  };

  // Notices fade after a while; errors stay a little longer.
  useEffect(() => {
    if (!notice) return;
    const id = setTimeout(() => setNotice(null), notice.kind === "error" ? 9000 : 5000);
    return () => clearTimeout(id);
  }, [notice]);

  // Open the room: our seat if this browser holds one, the free seat if an invite is
  // given, else a spectator's view.
  useEffect(() => {
    let alive = true;
    let conn: RoomConnection | null = null;
    setSnap(null);
    setFatal(null);
    (async () => {
      let rec = storage.getSeat(roomId);
      let token: string | null = rec?.token ?? null;
      let seat: Seat | null = null;
      let role: "player" | "spectator" = "spectator";
      let state: ServerSnapshot | null = null;
      try {
        if (token) {
          const res = await api.getRoom(roomId, token);
          if (res.you) {
            state = res.state;
            seat = res.you.seat;
            role = "player";
            setInviteUrl(res.you.invite_url ?? rec?.inviteUrl ?? null);
          } else {
            storage.forgetSeat(roomId);
            rec = null;
            token = null;
          }
        }
        let offerJoin = false;
        if (!token && invite && !joinAsked.current) {
          const peek = await api.getRoom(roomId);
          if (peek.state.game === "dots" && peek.state.seats.some((s) => s.kind === "human" && !s.taken)) {
            state = peek.state;
            offerJoin = true;
          }
        }
        if (!alive) return;
        setCanJoin(offerJoin);
        if (!token && invite && !offerJoin) {
          setJoining(true);
          const grant = await api.joinRoom(roomId, invite);
          rememberGrant(grant);
          token = grant.token;
          seat = grant.seat;
          role = grant.role;
          state = grant.state;
          setInviteUrl(grant.invite_url);
          setJoining(false);
        }
        if (!state) {
          const res = await api.getRoom(roomId);
          state = res.state;
        }
      } catch (e) {
        if (!alive) return;
        setJoining(false);
        const err = e instanceof ApiError ? e : new ApiError("internal_error", String(e));
        if (err.code === "room_not_found") storage.forgetSeat(roomId);
        setFatal(err);
        return;
      }
      if (!alive) return;
      conn = openRoom(roomId, token);
      connRef.current = conn;
      conn.seed(state, seat, role);
      conn.subscribe({
        onChange: (s) => setSnap(s),
        onEvent: (ev, st) => onRoomEvent(ev, st),
        onError: (err) => sayError(err),
      });
      setSnap(conn.snapshot());
      conn.start();
    })();
    return () => {
      alive = false;
      conn?.stop();
      connRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [roomId, reload]);

  const state = snap?.state ?? null;
  const mySeat = snap?.seat ?? null;
  const isPlayer = snap?.role === "player" && mySeat !== null;

  // A few room events deserve a word to the player.
  const seatRef = useRef<Seat | null>(null);
  seatRef.current = mySeat;
  const onRoomEvent = (ev: AppliedEvent, _st: RoomState) => {
    const e = ev.event;
    const me = seatRef.current;
    const { t: tt } = trRef.current;
    if (e.kind === "declined" && e.seat !== null && e.seat !== me) {
      say(tt(e.request === "restart" ? "restart.declined" : _st?.game === "dots" ? "dots.end.declined" : "end.declined"));
    } else if (e.kind === "restarted") {
      say(tt("restart.done"));
    } else if (e.kind === "level") {
      say(tt("controls.levelChanged", { level: tt(`level.${e.level}` as MessageKey) }));
    }
  };

  // Save after every change: the start screen shows the score and whose move it is.
  useEffect(() => {
    if (!state || !isPlayer || !storage.getSeat(roomId)) return;
    storage.updateSummary(roomId, {
      version: state.version,
      scores: [state.scores[0], state.scores[1]],
      toMove: state.to_move,
      isOver: state.is_over,
      level: state.level,
      guestJoined: state.seats.every((s) => s.taken),
    });
    if (state.mode === "computer" || state.mode === "local") {
      if (state.is_over) storage.clearLocalGame(state.game, roomId);
      else storage.setLocalGame(state.game, roomId);
    }
  }, [state?.version, isPlayer]);

  // A hint is only good for the position it was asked in.
  useEffect(() => {
    if (hint && state && state.version !== hint.version) setHint(null);
  }, [state?.version]);

  // A seat this browser held was refused by the server: forget it and watch instead.
  useEffect(() => {
    if (snap?.status === "bad_token") {
      storage.forgetSeat(roomId);
      sayError(new ApiError("bad_token", ""));
      setReload((n) => n + 1);
    }
  }, [snap?.status]);

  if (fatal) {
    return (
      <section class="card narrow" role="alert">
        <h1>{t("notfound.title")}</h1>
        <p>{tr.error(fatal.code, fatal.message)}</p>
        <Link href="/" class="btn primary">
          {t("nav.home")}
        </Link>
      </section>
    );
  }
  if (!snap || !state) {
    return (
      <section class="card narrow" aria-busy="true">
        <p>{joining ? t("room.joining") : t("room.loading")}</p>
      </section>
    );
  }
  if (snap.status === "taken_over") {
    return (
      <section class="card narrow takeover" role="alert" data-testid="taken-over">
        <h1>{t("takeover.title")}</h1>
        <p>{t("takeover.body")}</p>
        <div class="actions">
          <button type="button" class="btn primary" onClick={() => connRef.current?.reclaim()}>
            {t("takeover.reclaim")}
          </button>
          <Link href="/" class="btn">
            {t("takeover.home")}
          </Link>
        </div>
      </section>
    );
  }
  if (snap.status === "gone") {
    return (
      <section class="card narrow" role="alert">
        <h1>{t("notfound.title")}</h1>
        <p>{tr.error("room_not_found")}</p>
        <Link href="/" class="btn primary">
          {t("nav.home")}
        </Link>
      </section>
    );
  }

  const conn = connRef.current;
  const people = describeSeats(state, mySeat, isPlayer, tr);
  const mode = state.mode;
  const friendRoom = mode === "live" || mode === "correspondence";
  const other: Seat | null = mySeat === null ? null : mySeat === 0 ? 1 : 0;
  const otherSeat = other === null ? undefined : state.seats.find((s) => s.seat === other);
  const guestFree = friendRoom && state.seats.some((s) => s.kind === "human" && !s.taken);
  const canMoveNow =
    isPlayer && !state.is_over && !state.thinking && (mode === "local" || state.to_move === mySeat) && pending === null;
  const Slot = BOARD_SLOTS[state.game];
  const spectators = state.spectators ?? 0;
  const myRequest = state.requests.find((r) => r.seat === mySeat);
  const theirRequest = state.requests.find((r) => r.seat !== mySeat);

  const run = async (what: () => Promise<unknown>) => {
    try {
      await what();
    } catch (e) {
      sayError(e);
    }
  };

  const makeMove = (move: Move) => {
    if (!conn) return;
    setPending(move);
    setHint(null);
    conn
      .move(move)
      .catch((e: unknown) => sayError(e))
      .finally(() => setPending(null));
  };

  const onBlocked = (why: "drawn" | "wait" | "occupied" | "dead") => {
    if (!isPlayer) say(t("room.spectating"));
    else if (why === "drawn") say(t("blocked.drawn"));
    else if (why === "occupied") say(t("dots.blocked.occupied"));
    else if (why === "dead") say(t("dots.blocked.dead"));
    else if (state.is_over) say(tr.error("game_over"));
    else say(t("blocked.wait"));
  };

  return (
    <div class={`room mode-${mode} game-${state.game}`} data-version={state.version} data-status={snap.status}>
      <div class="room-head">
        <h1 class="room-title">
          {t(`game.${state.game}` as MessageKey)}
          <span class="sub">
            {" · "}
            {t(`mode.${state.daily ? "daily" : mode}` as MessageKey)}
            {state.daily ? ` ${state.daily}` : ""}
          </span>
        </h1>
        {spectators > 0 ? (
          <span class="watchers" data-testid="spectators">
            {tr.tn("spectators", spectators)}
          </span>
        ) : null}
        <ConnBadge snap={snap} onRetry={() => conn?.retryNow()} />
      </div>

      <PlayerCards state={state} people={people} mySeat={mySeat} />

      <p class="status" role="status" aria-live="polite" data-testid="turn">
        {turnText(state, mySeat, isPlayer, people, pending !== null, tr)}
      </p>

      {canJoin && !isPlayer ? (
        <section class="card join-offer" aria-labelledby="join-h" data-testid="join-offer">
          <h2 id="join-h">{t("dots.joinTitle")}</h2>
          <p>{t("dots.joinBody")}</p>
          <button
            type="button"
            class="btn primary big"
            onClick={() => {
              joinAsked.current = true;
              setCanJoin(false);
              setReload((n) => n + 1);
            }}
          >
            {t("dots.join")}
          </button>
        </section>
      ) : null}

      <div class="board-wrap">
        <Slot
          state={state}
          interactive={canMoveNow}
          mover={mode === "local" || mySeat === null ? state.to_move : mySeat}
          hint={hint?.move ?? null}
          pending={pending}
          seatLetter={(s) => people[s].letter}
          onMove={makeMove}
          onBlocked={onBlocked}
          tapPreview={settings.tapPreview}
        />
      </div>

      <div class="notice-area" aria-live="assertive">
        {notice ? (
          <p class={`notice ${notice.kind}`} key={notice.id} data-testid={notice.kind === "error" ? "error" : "info"}>
            {notice.text}
          </p>
        ) : null}
      </div>

      {state.is_over ? (
        <GameOver
          state={state}
          people={people}
          mySeat={isPlayer ? mySeat : null}
          onAgain={
            !isPlayer
              ? null
              : mode === "computer" || mode === "local"
                ? () => run(() => conn!.act({ type: "new_game" }))
                : myRequest?.kind === "restart"
                  ? null
                  : () => run(() => conn!.act({ type: "offer", kind: "restart" }))
          }
        />
      ) : null}

      {isPlayer && friendRoom && guestFree ? <InvitePanel url={inviteUrl} /> : null}

      {isPlayer && friendRoom && (myRequest || theirRequest) ? (
        <div class="card requests" role="region" aria-live="polite">
          {theirRequest ? (
            <div class="row">
              <span>
                {t(theirRequest.kind === "restart" ? "restart.theirs" : state.game === "dots" ? "dots.end.theirs" : "end.theirs", {
                  name: people[theirRequest.seat].name,
                })}
              </span>
              <button type="button" class="btn primary" onClick={() => run(() => conn!.act({ type: "accept", kind: theirRequest.kind }))}>
                {t("restart.accept")}
              </button>
              <button type="button" class="btn" onClick={() => run(() => conn!.act({ type: "decline", kind: theirRequest.kind }))}>
                {t("restart.decline")}
              </button>
            </div>
          ) : null}
          {myRequest ? (
            <div class="row">
              <span>{t(myRequest.kind === "restart" ? "restart.mine" : state.game === "dots" ? "dots.end.mine" : "end.mine")}</span>
              <button type="button" class="btn" onClick={() => run(() => conn!.act({ type: "decline", kind: myRequest.kind }))}>
                {t("restart.withdraw")}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}

      {isPlayer ? (
        <Controls
          state={state}
          mySeat={mySeat}
          guestFree={guestFree}
          hasRequest={!!myRequest}
          onAct={(a) => run(() => conn!.act(a))}
          onHint={() =>
            run(async () => {
              const mv = await conn!.hint();
              if (mv) {
                setHint({ move: mv, version: state.version });
                say(t(state.game === "dots" ? "dots.hintShown" : "controls.hintShown"));
              }
            })
          }
        />
      ) : (
        <p class="muted spectating">{t("room.spectating")}</p>
      )}

      {friendRoom ? (
        <p class="muted small">
          {t(mode === "live" ? "room.live" : "room.correspondence")}
          {otherSeat && otherSeat.taken && !otherSeat.connected && !state.is_over
            ? ` ${people[otherSeat.seat].name}: ${t("presence.offline")}.`
            : ""}
        </p>
      ) : null}
    </div>
  );
}

// -- pieces --------------------------------------------------------------------------

interface Person {
  name: string;
  letter: string;
  colour: string;
}

function describeSeats(state: RoomState, mySeat: Seat | null, isPlayer: boolean, tr: Translator): [Person, Person] {
  const { t } = tr;
  const colourName = (s: Seat) =>
    state.game === "dots" ? t(s === 0 ? "dots.seat0" : "dots.seat1") : t(s === 0 ? "seat.gold" : "seat.coral");
  const out = ([0, 1] as Seat[]).map((s): Person => {
    const colour = colourName(s);
    if (state.mode === "computer") {
      const isComputer = state.computer_seat === s;
      return isComputer
        ? { name: t("player.computer"), letter: t("letter.computer"), colour }
        : { name: t("player.you"), letter: t("letter.you"), colour };
    }
    if (state.mode === "local") return { name: t("player.n", { n: s + 1 }), letter: String(s + 1), colour };
    if (isPlayer && mySeat !== null) {
      return { name: s === mySeat ? t("player.you") : t("player.friend"), letter: String(s + 1), colour };
    }
    if (state.game === "dots") return { name: t(s === 0 ? "dots.player0" : "dots.player1"), letter: String(s + 1), colour };
    return { name: t(s === 0 ? "player.gold" : "player.coral"), letter: String(s + 1), colour };
  });
  return [out[0]!, out[1]!];
}

function turnText(
  state: RoomState,
  mySeat: Seat | null,
  isPlayer: boolean,
  people: [Person, Person],
  sending: boolean,
  tr: Translator,
): string {
  const { t } = tr;
  if (state.is_over) return t("over.title");
  if (sending) return t("turn.sending");
  if (state.thinking && state.mode === "computer" && state.to_move === state.computer_seat) return t("turn.computer");
  const mover = people[state.to_move];
  const friendRoom = state.mode === "live" || state.mode === "correspondence";
  if (friendRoom && isPlayer && state.seats.some((s) => s.kind === "human" && !s.taken)) return t("room.waitingGuest");
  const again = movesAgain(state);
  if (state.mode === "local") return `${t("turn.other", { name: `${mover.name} (${mover.colour})` })}${again ? ` ${t("turn.again")}` : ""}`;
  if (isPlayer && state.to_move === mySeat) return again ? t("turn.again") : t("turn.yours");
  if (isPlayer) return t("turn.waitOther", { name: mover.name });
  return t("turn.other", { name: mover.name });
}

/** Whether the side to move also drew the last line (it closed a box and moves again). */
function movesAgain(state: RoomState): boolean {
  const lines = (state.board as { lines?: Array<{ player: number | null }> }).lines;
  if (state.game !== "boxes" || !Array.isArray(lines) || state.move_count === 0) return false;
  const last = lines[lines.length - 1];
  return !!last && last.player === state.to_move;
}

function ConnBadge({ snap, onRetry }: { snap: RoomSnapshot; onRetry: () => void }): JSX.Element {
  const { t } = useI18n();
  const map: Record<string, MessageKey> = {
    idle: "conn.connecting",
    connecting: "conn.connecting",
    online: "conn.online",
    reconnecting: "conn.reconnecting",
    closed: "conn.closed",
    bad_token: "conn.offline",
    gone: "conn.offline",
    taken_over: "conn.offline",
  };
  return (
    <div class={`conn ${snap.status}`} role="status" data-testid="conn" data-conn={snap.status}>
      <span class="conn-dot" aria-hidden="true" />
      <span>{t(map[snap.status] ?? "conn.offline")}</span>
      {snap.status === "reconnecting" && snap.attempt > 1 ? (
        <button type="button" class="btn ghost small" onClick={onRetry}>
          {t("conn.retryNow")}
        </button>
      ) : null}
    </div>
  );
}

function PlayerCards({ state, people, mySeat }: { state: RoomState; people: [Person, Person]; mySeat: Seat | null }): JSX.Element {
  const { t } = useI18n();
  const friendRoom = state.mode === "live" || state.mode === "correspondence";
  return (
    <ol class="players">
      {([0, 1] as Seat[]).map((s) => {
        const seat = state.seats.find((x) => x.seat === s);
        const toMove = !state.is_over && state.to_move === s;
        const presence = !friendRoom || !seat ? null : !seat.taken ? "free" : seat.connected ? "online" : "offline";
        return (
          <li
            key={s}
            class={`player seat${s}${toMove ? " to-move" : ""}${s === mySeat ? " me" : ""}`}
            data-seat={s}
            aria-current={toMove ? "step" : undefined}
          >
            <span class="chip" aria-hidden="true">
              {people[s].letter}
            </span>
            <span class="who">
              <span class="name">{people[s].name}</span>
              <span class="meta">
                {people[s].colour}
                {presence ? (
                  <span class={`presence ${presence}`}>
                    {" · "}
                    {t(`presence.${presence}` as MessageKey)}
                  </span>
                ) : null}
              </span>
            </span>
            <span class="score" aria-label={`${t("player.score")}: ${state.scores[s]}`} data-testid={`score-${s}`}>
              {state.scores[s]}
            </span>
            {toMove ? <span class="sr-only">{t("player.toMove")}</span> : null}
            {toMove ? (
              <span class="turn-flag" aria-hidden="true">
                {t("player.toMove")}
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function Controls(props: {
  state: RoomState;
  mySeat: Seat | null;
  guestFree: boolean;
  hasRequest: boolean;
  onAct: (a: Parameters<RoomConnection["act"]>[0]) => void;
  onHint: () => void;
}): JSX.Element {
  const { t } = useI18n();
  const { state, onAct } = props;
  const [confirmResign, setConfirmResign] = useState(false);
  const mode = state.mode;
  const over = state.is_over;
  const friendRoom = mode === "live" || mode === "correspondence";
  const levels: Level[] = ["easy", "normal", "hard"];
  return (
    <div class="controls">
      {mode === "computer" && !state.daily ? (
        <label class="level">
          <span>{t("controls.level")}</span>
          <select
            value={state.level ?? "normal"}
            onChange={(e) => onAct({ type: "set_level", level: (e.currentTarget as HTMLSelectElement).value as Level })}
          >
            {levels.map((l) => (
              <option key={l} value={l}>
                {t(`level.${l}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {(mode === "computer" || mode === "local") && !state.daily ? (
        <>
          <button type="button" class="btn" onClick={() => onAct({ type: "undo" })} disabled={!(state.allowed[props.mySeat ?? 0] ?? []).includes("undo")}>
            {t("controls.undo")}
          </button>
          <button type="button" class="btn" onClick={props.onHint} disabled={over || state.thinking}>
            {t("controls.hint")}
          </button>
        </>
      ) : null}
      {mode === "computer" || mode === "local" ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "new_game" })}>
          {t("controls.newGame")}
        </button>
      ) : null}
      {friendRoom && !over && !props.hasRequest ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "restart" })}>
          {props.guestFree ? t("controls.restartAlone") : t("controls.restart")}
        </button>
      ) : null}
      {friendRoom && !over && !props.guestFree && !props.hasRequest ? (
        <button type="button" class="btn" onClick={() => onAct({ type: "offer", kind: "end" })}>
          {t(state.game === "dots" ? "dots.offerEnd" : "controls.offerEnd")}
        </button>
      ) : null}
      {!over && mode !== "local" && !(friendRoom && props.guestFree) ? (
        confirmResign ? (
          <span class="confirm" role="group" aria-label={t("controls.resignConfirm")}>
            <span>{t("controls.resignConfirm")}</span>
            <button
              type="button"
              class="btn danger"
              onClick={() => {
                setConfirmResign(false);
                onAct({ type: "resign" });
              }}
            >
              {t("controls.resignYes")}
            </button>
            <button type="button" class="btn" onClick={() => setConfirmResign(false)}>
              {t("controls.cancel")}
            </button>
          </span>
        ) : (
          <button type="button" class="btn ghost" onClick={() => setConfirmResign(true)}>
            {t("controls.resign")}
          </button>
        )
      ) : null}
    </div>
  );
}

function InvitePanel({ url }: { url: string | null }): JSX.Element | null {
  const { t } = useI18n();
  const [copied, setCopied] = useState<"ok" | "fail" | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  if (!url) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("ok");
    } catch {
      inputRef.current?.select();
      setCopied("fail");
    }
  };
  return (
    <section class="card invite" aria-labelledby="invite-h">
      <h2 id="invite-h">{t("room.invite")}</h2>
      <p>{t("room.inviteDesc")}</p>
      <div class="row">
        <input
          ref={inputRef}
          class="invite-url"
          type="text"
          readOnly
          value={url}
          aria-label={t("room.invite")}
          data-testid="invite-url"
          onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
        />
        <button type="button" class="btn primary" onClick={copy}>
          {t("room.copy")}
        </button>
      </div>
      <p class="muted small" aria-live="polite">
        {copied === "ok" ? t("room.copied") : copied === "fail" ? t("room.copyFailed") : t("room.waitingGuest")}
      </p>
    </section>
  );
}

function GameOver(props: {
  state: RoomState;
  people: [Person, Person];
  mySeat: Seat | null;
  onAgain: (() => void) | null;
}): JSX.Element {
  const { t, tn } = useI18n();
  const { state, people, mySeat } = props;
  const outcome = state.outcome;
  const winner = outcome?.winner ?? null;
  const scores = state.scores;
  const headline = useMemo(() => {
    if (winner === null) return t("over.draw");
    if (mySeat !== null && state.mode !== "local") return winner === mySeat ? t("over.youWin") : t("over.youLose");
    return t("over.won", { name: people[winner].name });
  }, [winner, mySeat, state.mode, people, t]);
  const reason =
    outcome?.reason === "resignation" && winner !== null
      ? t("over.resigned", { name: people[winner === 0 ? 1 : 0].name })
      : outcome?.reason === "agreement"
        ? t("over.agreed")
        : null;
  const board = state.board as { rows?: number; cols?: number };
  const total = (board.rows ?? 0) * (board.cols ?? 0);
  return (
    <section class={`card game-over${winner === null ? " draw" : ` winner${winner}`}`} aria-labelledby="over-h" data-testid="game-over">
      <h2 id="over-h">{headline}</h2>
      <p class="final-score" aria-label={t("over.score", { a: `${people[0].name} ${scores[0]}`, b: `${scores[1]} ${people[1].name}` })}>
        <span class="label" aria-hidden="true">
          {t("player.score")}
        </span>
        <span aria-hidden="true">{people[0].name}</span>
        <strong aria-hidden="true">{scores[0]}</strong>
        <span aria-hidden="true">:</span>
        <strong aria-hidden="true">{scores[1]}</strong>
        <span aria-hidden="true">{people[1].name}</span>
      </p>
      {reason ? <p>{reason}</p> : null}
      {state.daily && mySeat !== null && state.game === "boxes" ? (
        <>
          <p>
            {t("over.daily", { n: scores[mySeat], total })} ({tn("boxes", scores[mySeat])})
          </p>
          <DailyCompare date={state.daily} boxes={scores[mySeat]} gameNumber={state.game_number} />
        </>
      ) : null}
      <div class="actions">
        {props.onAgain ? (
          <button type="button" class="btn primary" onClick={props.onAgain}>
            {state.mode === "computer" || state.mode === "local" ? t("over.again") : t("controls.restart")}
          </button>
        ) : null}
        <button type="button" class="btn" onClick={() => navigate("/")}>
          {t("over.home")}
        </button>
      </div>
    </section>
  );
}

/** How the player's daily result compares with everybody else's that day. */
function DailyCompare({ date, boxes, gameNumber }: { date: string; boxes: number; gameNumber: number }): JSX.Element | null {
  const tr = useI18n();
  const [result, setResult] = useState<DailyComparison | "loading" | "failed">("loading");
  useEffect(() => {
    let alive = true;
    setResult("loading");
    loadDailyComparison((d) => api.dailyResults(d), date, boxes).then(
      (c) => alive && setResult(c),
      () => alive && setResult("failed"),
    );
    return () => {
      alive = false;
    };
  }, [date, boxes, gameNumber]);
  if (result === "failed") return null;
  return (
    <p class="daily-compare" aria-live="polite" data-testid="daily-compare" data-state={result === "loading" ? "loading" : "ready"}>
      {result === "loading" ? tr.t("over.dailyLoading") : dailyCompareText(result, tr)}
    </p>
  );
}
