#!/usr/bin/env node
// npm test: the drift check, the build (dist/), the tests compiled against the built
// package, then node's test runner over them with a live `arbiter serve` this script
// starts on a free port of 127.0.0.1 (ARBITER_URL tells the tests where) and stops at the
// end, whatever happened. ARBITER_BIN overrides the service's command (default: the
// repository's .venv/bin/arbiter, which `make test-clients-ts` installs).
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (args) => {
  const done = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (done.status !== 0) process.exit(done.status ?? 1);
};

run(["scripts/generate.mjs", "--check"]);
rmSync(`${root}/dist`, { recursive: true, force: true });
rmSync(`${root}/build`, { recursive: true, force: true });
run(["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"]);
run(["node_modules/typescript/bin/tsc", "-p", "tsconfig.test.json"]);

const { startArbiter } = await import("../build/test/support.js");
const server = await startArbiter();
let status = 1;
try {
  const files = readdirSync(`${root}/build/test`).filter((f) => f.endsWith(".test.js")).sort()
    .map((f) => `build/test/${f}`);
  const tests = spawnSync(process.execPath, ["--test", ...files], {
    cwd: root, stdio: "inherit", env: { ...process.env, ARBITER_URL: server.url },
  });
  status = tests.status ?? 1;
} finally {
  await server.stop();
}
process.exit(status);
