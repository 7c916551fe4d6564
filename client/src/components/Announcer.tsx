// A polite live region for screen readers. Each new message replaces the last; the same
// words said twice are announced twice (the text alternates an invisible mark).
import type { JSX } from "preact";

export interface Announcement {
  text: string;
  serial: number;
}

export function Announcer({ message }: { message: Announcement | null }): JSX.Element {
  const text = message ? `${message.text}${message.serial % 2 ? "\u00a0" : ""}` : "";
  return (
    <div class="sr-only" role="log" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </div>
  );
}
