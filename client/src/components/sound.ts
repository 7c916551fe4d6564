// Short synthesised sounds for a move, a capture, "your move" and the end of a game.
// Made with Web Audio on the fly: no files to download, nothing played until asked.

export type SoundName = "move" | "capture" | "turn" | "over";

// (frequency in Hz, start in s, length in s) per note.
const NOTES: Record<SoundName, Array<[number, number, number]>> = {
  move: [[660, 0, 0.06]],
  capture: [
    [784, 0, 0.08],
    [1046, 0.07, 0.12],
  ],
  turn: [
    [523, 0, 0.1],
    [659, 0.1, 0.16],
  ],
  over: [
    [523, 0, 0.14],
    [659, 0.13, 0.14],
    [784, 0.26, 0.3],
  ],
};

type AudioCtor = typeof AudioContext;

let ctx: AudioContext | null = null;

function audio(): AudioContext | null {
  if (ctx) return ctx;
  const Ctor: AudioCtor | undefined =
    (globalThis as { AudioContext?: AudioCtor }).AudioContext ?? (globalThis as { webkitAudioContext?: AudioCtor }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    return null;
  }
  return ctx;
}

/** Let sound play from now on: browsers allow audio only after a click or a key. */
export function unlockSound(): void {
  const a = audio();
  if (a && a.state === "suspended") void a.resume().catch(() => undefined);
}

export function playSound(name: SoundName): void {
  const a = audio();
  if (!a || a.state !== "running") return;
  const t0 = a.currentTime + 0.01;
  for (const [freq, start, length] of NOTES[name]) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = "triangle";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(a.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
}
