// Opening a room: our seat if this browser holds one, the free seat if an invite is
// given (Dots invitations ask first), else a spectator's view; then the live connection.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, openRoom, type RoomConnection, type RoomSnapshot, type Seat, type ServerSnapshot } from "../../net";
import { storage, type SeatRecord } from "../../storage";
import { rememberGrant } from "../session";

export interface RoomHandlers {
  onEvent: Parameters<RoomConnection["subscribe"]>[0]["onEvent"];
  onError: (err: ApiError) => void;
}

export interface OpenRoom {
  snap: RoomSnapshot | null;
  conn: RoomConnection | null;
  fatal: ApiError | null;
  joining: boolean;
  inviteUrl: string | null;
  /** A Dots invitation waiting for the guest to press "Join". */
  canJoin: boolean;
  join: () => void;
  /** The seat this browser held here when the room was opened (kept after it is gone). */
  known: SeatRecord | null;
  reload: () => void;
}

export function useRoom(roomId: string, invite: string | null, handlers: RoomHandlers): OpenRoom {
  const [snap, setSnap] = useState<RoomSnapshot | null>(null);
  const [fatal, setFatal] = useState<ApiError | null>(null);
  const [joining, setJoining] = useState(false);
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);
  const [canJoin, setCanJoin] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [known] = useState<SeatRecord | null>(() => storage.getSeat(roomId));
  const joinAsked = useRef(false);
  const connRef = useRef<RoomConnection | null>(null);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  useEffect(() => {
    let alive = true;
    let conn: RoomConnection | null = null;
    setSnap(null);
    setFatal(null);
    (async () => {
      const rec = storage.getSeat(roomId);
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
          const grant = await api.joinRoom(roomId, invite, null, storage.settings().name);
          rememberGrant(grant);
          token = grant.token;
          seat = grant.seat;
          role = grant.role;
          state = grant.state;
          setInviteUrl(grant.invite_url);
          setJoining(false);
        }
        if (!state) state = (await api.getRoom(roomId)).state;
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
        onEvent: (ev, st) => handlersRef.current.onEvent?.(ev, st),
        onError: (err) => handlersRef.current.onError(err),
      });
      setSnap(conn.snapshot());
      conn.start();
    })();
    return () => {
      alive = false;
      conn?.stop();
      connRef.current = null;
    };
  }, [roomId, generation]);

  return {
    snap,
    conn: connRef.current,
    fatal,
    joining,
    inviteUrl,
    canJoin,
    known,
    join: () => {
      joinAsked.current = true;
      setCanJoin(false);
      setGeneration((n) => n + 1);
    },
    reload: () => setGeneration((n) => n + 1),
  };
}
