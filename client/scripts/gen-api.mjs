// Regenerate src/net/api-types.ts from the server's OpenAPI document, or with `--check`,
// fail if the committed file differs from what the server's models generate (CI runs it).
// The document is dumped by Python straight from the FastAPI app (no server is started);
// the generated file is committed so that the client builds without Python.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const client = resolve(here, "..");
const repo = resolve(client, "..");
const venvPython = join(repo, ".venv", "bin", "python");
const python = process.env.PYTHON ?? (existsSync(venvPython) ? venvPython : "python3");
const target = join(client, "src", "net", "api-types.ts");
const check = process.argv.includes("--check");

const dump = [
  "import json",
  "from server.app import create_app",
  "from server.settings import Settings",
  "app = create_app(Settings(log_json=False, log_level='WARNING'))",
  "print(json.dumps(app.openapi(), sort_keys=True))",
].join("; ");

const json = execFileSync(python, ["-c", dump], { cwd: repo, encoding: "utf8", maxBuffer: 32 * 1024 * 1024 });
const dir = mkdtempSync(join(tmpdir(), "tetrad-openapi-"));
const file = join(dir, "openapi.json");
writeFileSync(file, json);
try {
  const bin = join(client, "node_modules", ".bin", "openapi-typescript");
  const out = check ? join(dir, "api-types.ts") : target;
  execFileSync(bin, [file, "--default-non-nullable", "false", "-o", out], { stdio: check ? "pipe" : "inherit" });
  if (check && readFileSync(out, "utf8") !== readFileSync(target, "utf8")) {
    console.error("src/net/api-types.ts is out of date with the server's models: run `npm run gen:api`");
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
