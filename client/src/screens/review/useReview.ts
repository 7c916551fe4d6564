// Loading a review (a finished game by id, or an imported record) and its analysis,
// polled while the server works on it.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../../net";
import type { Analysis, Review } from "../../review/types";
import { analysisRunning, mergeAnalysis } from "../../review/model";

/** How often a running analysis is asked for its progress. */
const POLL_MS = 700;

const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError("network", String(e)));

export function useReview(gameId: string | null, record: string | null): { review: Review | null; error: ApiError | null } {
  const [review, setReview] = useState<Review | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let alive = true;
    setReview(null);
    setError(null);
    const load = gameId ? api.review(gameId) : record ? api.reviewRecord(recordBody(record)) : null;
    load
      ?.then((r) => alive && setReview(r))
      .catch((e: unknown) => alive && setError(asApiError(e)));
    return () => {
      alive = false;
    };
  }, [gameId, record]);
  return { review, error };
}

export interface AnalysisHandle {
  data: Analysis | null;
  error: ApiError | null;
  busy: boolean;
  start: () => void;
}

/** A pasted record as the API takes it: JSON records as objects, the rest as text. */
export function recordBody(text: string): string | Record<string, unknown> {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : trimmed;
  } catch {
    return trimmed;
  }
}

/** A stored game's analysis is looked up at once (it may be cached); a record's on request. */
export function useAnalysis(gameId: string | null, record: Record<string, unknown>): AnalysisHandle {
  const [data, setData] = useState<Analysis | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    if (gameId) {
      api
        .gameAnalysis(gameId)
        .then((a) => alive.current && setData(a))
        .catch(() => undefined); // none yet: the player starts it
    }
    return () => {
      alive.current = false;
    };
  }, [gameId]);


  // Poll while the server is still at it.
  useEffect(() => {
    if (!analysisRunning(data)) return;
    const id = setTimeout(() => {
      // asks only for the positions analysed since the last poll: a long Dots game's
      // analysis would otherwise come whole, hundreds of kilobytes, every poll
      api
        .analysis(data!.id, data!.done)
        .then((a) => alive.current && setData((held) => mergeAnalysis(held, a)))
        .catch((e: unknown) => alive.current && setError(asApiError(e)));
    }, POLL_MS);
    return () => clearTimeout(id);
  }, [data]);

  const start = () => {
    setBusy(true);
    setError(null);
    (gameId ? api.startAnalysis(gameId) : api.analyseRecord(record))
      .then((a) => alive.current && setData(a))
      .catch((e: unknown) => alive.current && setError(asApiError(e)))
      .finally(() => alive.current && setBusy(false));
  };
  return { data, error, busy, start };
}
