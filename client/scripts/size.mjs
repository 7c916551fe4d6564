// Print the gzipped size of the JavaScript that index.html loads first.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const html = readFileSync(join(dist, "index.html"), "utf8");
const scripts = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
for (const src of scripts) {
  const bytes = gzipSync(readFileSync(join(dist, src.replace(/^\//, "")))).length;
  total += bytes;
  console.log(`${src}: ${(bytes / 1024).toFixed(1)} KiB gzipped`);
}
console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} KiB gzipped (budget 100 KiB)`);
if (total > 100 * 1024) process.exit(1);
