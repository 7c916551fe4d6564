// The review of a game: the board at any move (read-only, drawn as in play), the move
// list with the score at each move, stepping by buttons, keys and autoplay, the analysis,
// export, and continuing from the shown position. A finished game lives at /g/{id}; a
// record imported in this browser at /review.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { useI18n, type MessageKey, type NameKey, type Translator } from "../i18n";
import { storage } from "../storage";
import { Link } from "../components/Link";
import { BOARD_SLOTS } from "./boardSlots";
import { PlayerCards } from "./room/PlayerCards";
import { endingText } from "./room/ResultCard";
import type { People } from "./room/people";
import { captureTimeline, clampPly, lineNotes, mistakesOf, plyFromHash, positionAt, reviewPositions, reviewSize, STEP_KEYS, stepTo, type StepKey } from "../review/model";
import type { Review } from "../review/types";
import { useAnalysis, useReview } from "./review/useReview";
import { Stepper } from "./review/Stepper";
import { MoveList } from "./review/MoveList";
import { AnalysisPanel, PositionNote } from "./review/AnalysisPanel";
import { ExportPanel } from "./review/ExportPanel";
import { ContinuePanel } from "./review/ContinuePanel";
import { ImportForm } from "./review/ImportForm";
import { VariationBanner, VariationMoves, variationWhere } from "./review/Variation";
import { enterVariation, stepVariation, variationAt, type Variation } from "../review/variation";

/** Time each move stays on the board while the review plays itself. */
const AUTOPLAY_MS = 900;

/** The two sides by colour; a computer seat says so, and so does the seat this browser played. */
export function reviewPeople(review: Pick<Review, "game" | "seats" | "mode">, mySeat: 0 | 1 | null, tr: Translator): People {
  const { t } = tr;
  const dots = review.game === "dots";
  const computer = (s: 0 | 1) => review.seats.some((x) => x.seat === s && x.kind === "computer");
  const colourName = (s: 0 | 1): NameKey => (dots ? (s === 0 ? "dots.player0" : "dots.player1") : s === 0 ? "player.gold" : "player.coral");
  const mine = (s: 0 | 1) => s === mySeat && review.mode !== "local";
  const held = (s: 0 | 1) => review.seats.find((x) => x.seat === s);
  const named = (s: 0 | 1) => {
    const name = held(s)?.name;
    if (!name) return null;
    return mine(s) ? `${name} (${t("player.you")})` : name;
  };
  // One-device games call their players Player 1 and 2 while they are played; so does their review.
  const nameKey = (s: 0 | 1): NameKey =>
    computer(s) ? "player.computer" : mine(s) ? "player.you" : review.mode === "local" ? "player.n" : colourName(s);
  const person = (s: 0 | 1) => ({
    name: named(s) ?? t(nameKey(s), { n: s + 1 }),
    bot: !!held(s)?.bot,
    letter: String(s + 1),
    colour: t(dots ? (s === 0 ? "dots.seat0" : "dots.seat1") : s === 0 ? "seat.gold" : "seat.coral"),
    gender: named(s) ? ("other" as const) : tr.gender(nameKey(s)),
  });
  return [person(0), person(1)];
}

export function ReviewScreen({ gameId }: { gameId: string | null }): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const [record, setRecord] = useState<string | null>(() => (gameId ? null : storage.reviewRecord()));
  const { review, error } = useReview(gameId, record);

  const importRecord = (text: string) => {
    storage.saveReviewRecord(text);
    setRecord(text);
  };

  if (!gameId && !record) {
    return (
      <div class="review-empty">
        <h1>{t("review.importTitle")}</h1>
        <ImportForm onRecord={importRecord} />
      </div>
    );
  }
  if (error) {
    return (
      <section class="card narrow" role="alert">
        <h1>{t(gameId ? "review.failed" : "import.failed")}</h1>
        <p>{tr.error(error.code, error.message)}</p>
        {/* What exactly is wrong with a record (a move drawn twice, a field missing) only
            the server can say: its reason, as it wrote it. */}
        {error.code === "bad_record" && error.message ? <p class="error-reason">{t("import.reason", { reason: error.message })}</p> : null}
        {gameId ? null : <ImportForm onRecord={importRecord} />}
        <div class="actions">
          <Link href="/games" class="btn">
            {t("nav.games")}
          </Link>
        </div>
      </section>
    );
  }
  if (!review) {
    return (
      <section class="card narrow" aria-busy="true">
        <h1 class="loading">{t("review.loading")}</h1>
      </section>
    );
  }
  return <ReviewView key={review.notation} review={review} gameId={gameId} />;
}

function ReviewView({ review, gameId }: { review: Review; gameId: string | null }): JSX.Element {
  const tr = useI18n();
  const { t } = tr;
  const positions = useMemo(() => reviewPositions(review), [review]);
  const total = review.moves.length;
  const [ply, setPly] = useState(() => plyFromHash(location.hash, review) ?? total);
  const [playing, setPlaying] = useState(false);
  // The best line after a judged move, played on the board; null: the game itself.
  const [variation, setVariation] = useState<Variation | null>(null);
  const analysis = useAnalysis(gameId, review.record);
  const mistakes = useMemo(() => mistakesOf(analysis.data), [analysis.data]);
  const captures = useMemo(() => captureTimeline(review), [review]);
  const mySeat = useMemo(() => (gameId ? (storage.playedGames().find((g) => g.gameId === gameId)?.seat ?? null) : null), [gameId]);
  const people = reviewPeople(review, mySeat, tr);
  const state = variation ? variation.positions[variation.step]! : positions.at(ply);
  // The analysis's best move (Dots: the hard level's suggestion) is shown on the board.
  const here = positionAt(analysis.data, ply);
  const suggested = variation ? null : (here?.best[0] ?? null);
  // Every undrawn line of an exact position with the boxes it gives away (0: best).
  const notes = useMemo(() => lineNotes(here), [here]);
  // The better line after the move played here, when it can be played on the board.
  const better = useMemo(() => (here ? enterVariation(positions.at(ply), here) : null), [here, positions, ply]);
  const enter = (v: Variation) => {
    setPlaying(false);
    setVariation(v);
  };
  const leave = () => {
    setPlaying(false);
    setVariation(null);
    focusBack.current = true;
  };
  // Leaving a variation gives the focus back to the button that entered it (the banner
  // that held it is gone).
  const focusBack = useRef(false);
  useEffect(() => {
    if (variation || !focusBack.current) return;
    focusBack.current = false;
    document.querySelector<HTMLElement>("[data-variation-enter]")?.focus();
  }, [variation]);
  const Slot = BOARD_SLOTS[review.game];

  const go = (next: number) => {
    setVariation(null);
    setPly(clampPly(next, review));
  };
  const step = (key: StepKey) => {
    setPlaying(false);
    if (variation) setVariation(stepVariation(variation, key));
    else go(stepTo(key, ply, review));
  };

  // A changed fragment (typed in the address bar, a link to "#12") moves the board too, so
  // the address and the board never disagree.
  useEffect(() => {
    const onHash = () => {
      const asked = plyFromHash(location.hash, review);
      setPlaying(false);
      setVariation(null);
      setPly(asked ?? total);
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [review]);

  // The position is part of the address, so a shared link opens the same move.
  useEffect(() => {
    if (gameId) history.replaceState(null, "", `/g/${gameId}${ply === total ? "" : `#${ply}`}`);
  }, [ply]);

  // Arrows, Home and End step through the game (or the variation shown) wherever the focus
  // is, except in fields; Escape leaves a variation.
  // (read from a ref: a key pressed right after entering must not wait for a new listener)
  const inVariation = useRef(false);
  inVariation.current = variation !== null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable]")) return;
      if (e.key === "Escape" && inVariation.current) {
        e.preventDefault();
        leave();
        return;
      }
      const key = STEP_KEYS[e.key];
      if (!key) return;
      e.preventDefault();
      setPlaying(false);
      if (inVariation.current) setVariation((v) => v && stepVariation(v, key));
      else setPly((p) => stepTo(key, p, review));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [review]);

  // Autoplay: one move at a time, stopping at the end (of the variation, in one).
  useEffect(() => {
    if (!playing) return;
    if (variation ? variation.step >= variation.moves.length : ply >= total) {
      setPlaying(false);
      return;
    }
    const id = setTimeout(() => {
      if (variation) setVariation((v) => v && stepVariation(v, "next"));
      else setPly((p) => clampPly(p + 1, review));
    }, AUTOPLAY_MS);
    return () => clearTimeout(id);
  }, [playing, ply, variation?.step]);

  useEffect(() => {
    document.title = `${t("review.title")} · ${t(`game.${review.game}` as MessageKey)} · ${t("app.name")}`;
  }, [tr.lang]);

  const date = review.finished_at ? new Intl.DateTimeFormat(tr.lang, { dateStyle: "medium" }).format(new Date(review.finished_at)) : null;
  const seatName = (s: 0 | 1) => people[s].name;
  const result = resultText(review, people, tr);
  return (
    <div class={`room review game-${review.game}`} data-ply={ply} data-total={total} data-testid="review">
      <div class="room-head">
        <h1 class="room-title">
          {t("review.title")}
          <span class="sub">
            {" · "}
            {t(`game.${review.game}` as MessageKey)} {reviewSize(review)}
            {review.mode ? ` · ${t(`mode.${review.mode}` as MessageKey)}` : ""}
            {date ? ` · ${date}` : ""}
          </span>
        </h1>
        {result ? (
          <p class="review-result" data-testid="review-result">
            {result}
          </p>
        ) : null}
      </div>

      <PlayerCards state={state} people={people} mySeat={mySeat} />

      <div class="board-area">
        <div class={`board-wrap${variation ? " is-variation" : ""}`}>
          <Slot
            state={state}
            interactive={false}
            mover={state.to_move}
            hint={suggested}
            pending={null}
            seatLetter={(s) => people[s].letter}
            onMove={() => undefined}
            onBlocked={() => undefined}
            tapPreview={false}
            lineNotes={variation ? undefined : notes}
            coordinates
          />
        </div>
      </div>

      <div class="room-side review-side">
        <Stepper
          ply={variation ? variation.step : ply}
          total={variation ? variation.moves.length : total}
          playing={playing}
          onStep={step}
          onPlay={(on) => {
            // Played from the end, the game (or the variation) starts over.
            if (on && variation && variation.step >= variation.moves.length) setVariation(variationAt(variation, 0));
            else if (on && !variation && ply >= total) setPly(0);
            setPlaying(on);
          }}
          where={variation ? variationWhere(variation, t) : undefined}
        />
        {variation ? (
          <VariationBanner variation={variation} onLeave={leave} />
        ) : (
          <PositionNote game={review.game} analysis={analysis.data} ply={ply} onVariation={better ? () => enter(better) : undefined} />
        )}
        <MoveList
          moves={review.moves}
          ply={ply}
          mistakes={mistakes}
          seatName={seatName}
          onPick={go}
          nested={variation ? { after: variation.from, content: <VariationMoves variation={variation} onPick={(k) => setVariation(variationAt(variation, k))} /> } : null}
        />
        <AnalysisPanel
          game={review.game}
          analysis={analysis.data}
          error={analysis.error ? tr.error(analysis.error.code, analysis.error.message) : null}
          busy={analysis.busy}
          ply={ply}
          plies={total}
          mistakes={mistakes}
          captures={captures}
          seatName={seatName}
          onStart={analysis.start}
          onPick={go}
        />
        {variation ? null : <ContinuePanel review={review} ply={ply} />}
        <ExportPanel review={review} />
      </div>
    </div>
  );
}

function resultText(review: Review, people: People, tr: Translator): string | null {
  const o = review.result;
  if (!o) return null;
  const score = `${o.scores[0]}:${o.scores[1]}`;
  const who = o.winner === null ? tr.t("over.draw") : tr.t("over.won", { name: people[o.winner].name, gender: people[o.winner].gender });
  // A game resigned or lost on time says so: its score alone would tell another story.
  const why = endingText(o, people, tr.t);
  return why ? `${who} ${why} ${score}` : `${who} ${score}`;
}
