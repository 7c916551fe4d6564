// Write Brotli (.br) and gzip (.gz) copies of the built text files, so the server sends
// them compressed without compressing anything per request (server/static.py).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, dirname, extname } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const TEXT = new Set([".html", ".js", ".mjs", ".css", ".svg", ".json", ".txt", ".webmanifest"]);
// Smaller files gain nothing worth a second request path.
const MIN_BYTES = 512;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let before = 0;
let after = 0;
for (const path of files(dist)) {
  if (!TEXT.has(extname(path))) continue;
  const raw = readFileSync(path);
  if (raw.length < MIN_BYTES) continue;
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gz);
  before += raw.length;
  after += br.length;
}
console.log(`compressed text assets: ${(before / 1024).toFixed(1)} KiB → ${(after / 1024).toFixed(1)} KiB with Brotli`);
