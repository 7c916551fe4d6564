// Small SVG icons for the review's step buttons (fonts lack some media symbols).
import type { JSX } from "preact";

export type IconName = "first" | "prev" | "play" | "pause" | "next" | "last";

const PATHS: Record<IconName, string> = {
  first: "M5 4h2.5v16H5z M20 4v16L8.5 12z",
  prev: "M17 4v16L5 12z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4.5v16H6z M13.5 4H18v16h-4.5z",
  next: "M7 4v16l12-8z",
  last: "M16.5 4H19v16h-2.5z M4 4v16l11.5-8z",
};

export function Icon({ name }: { name: IconName }): JSX.Element {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
