// Routes live in the URL path: "/", "/r/{room}", "/rules", "/settings", "/games" (my
// games), "/bots" (play a bot, open games), "/ladder" (ratings), "/g/{game}" (a finished game's review; "#12" opens the position after 12 moves)
// and "/review" (a record imported in this browser). An invite
// arrives as "/r/{room}#invite=CODE" (the server's invite_url); "?invite=CODE" works too,
// and is moved after "#" at once (inviteOutOfQuery), so that a reload or a shared copy of
// the address does not send the code to the server and its proxy's logs again.
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { name: "home" }
  | { name: "room"; roomId: string; invite: string | null }
  | { name: "rules"; game: "boxes" | "dots" | null }
  | { name: "settings" }
  | { name: "games" }
  | { name: "bots" }
  | { name: "ladder" }
  | { name: "review"; gameId: string | null }
  | { name: "notfound" };

export function parseRoute(loc: { pathname: string; search: string; hash: string }): Route {
  const path = loc.pathname.replace(/\/+$/, "") || "/";
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ""));
  const query = new URLSearchParams(loc.search);
  // Hash routes ("#/r/ID") for hosts that cannot serve the app at every path.
  const hashPath = loc.hash.startsWith("#/") ? loc.hash.slice(1).split("?")[0] ?? "" : "";
  const p = path === "/" && hashPath ? hashPath : path;
  const room = /^\/r\/([A-Za-z0-9_-]{1,64})$/.exec(p);
  if (room?.[1]) return { name: "room", roomId: room[1], invite: hash.get("invite") ?? query.get("invite") };
  const game = /^\/g\/([A-Za-z0-9_-]{1,80})$/.exec(p);
  if (game?.[1]) return { name: "review", gameId: game[1] };
  if (p === "/review") return { name: "review", gameId: null };
  if (p === "/games") return { name: "games" };
  if (p === "/bots") return { name: "bots" };
  if (p === "/ladder") return { name: "ladder" };
  if (p === "/") return { name: "home" };
  if (p === "/rules") return { name: "rules", game: null };
  if (p === "/rules/boxes" || p === "/rules/dots") return { name: "rules", game: p.endsWith("dots") ? "dots" : "boxes" };
  if (p === "/settings") return { name: "settings" };
  return { name: "notfound" };
}

/** The address to show instead of one that carries "?invite=CODE" (the code moved after
 * "#", the rest kept), or null when there is nothing to move. */
export function inviteOutOfQuery(loc: { pathname: string; search: string; hash: string }): string | null {
  const query = new URLSearchParams(loc.search);
  const invite = query.get("invite");
  if (invite === null || loc.hash.startsWith("#/")) return null; // a hash route keeps its own
  query.delete("invite");
  const rest = query.toString();
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ""));
  if (!hash.has("invite")) hash.set("invite", invite);
  return `${loc.pathname}${rest ? `?${rest}` : ""}#${hash.toString()}`;
}

const listeners = new Set<() => void>();

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location));
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return route;
}

/** A link that navigates inside the app without reloading. */
export function onLinkClick(e: MouseEvent, path: string): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(path);
}
