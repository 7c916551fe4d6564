// A QR code of a text (the invite link), drawn as SVG. The encoder is loaded only when a
// code is shown, so it never weighs on the first page load.
import { useEffect, useState } from "preact/hooks";
import type { JSX } from "preact";

type Matrix = boolean[][];

async function encode(text: string): Promise<Matrix> {
  const { encode: qr } = await import("uqr");
  return qr(text, { ecc: "M", border: 0 }).data;
}

function pathOf(m: Matrix): string {
  let d = "";
  m.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x += 1;
      d += `M${start} ${y}h${x - start}v1h-${x - start}z`;
    }
  });
  return d;
}

export function QrCode({ text, label, size = 148 }: { text: string; label: string; size?: number }): JSX.Element | null {
  const [matrix, setMatrix] = useState<Matrix | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let alive = true;
    encode(text).then(
      (m) => alive && setMatrix(m),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [text]);
  if (failed) return null;
  const n = matrix?.length ?? 25;
  const quiet = 2;
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`${-quiet} ${-quiet} ${n + 2 * quiet} ${n + 2 * quiet}`}
      shape-rendering="crispEdges"
      data-testid="invite-qr"
      data-ready={matrix ? "true" : "false"}
    >
      <rect x={-quiet} y={-quiet} width={n + 2 * quiet} height={n + 2 * quiet} fill="#fff" />
      {matrix ? <path d={pathOf(matrix)} fill="#000" /> : null}
    </svg>
  );
}
