// The drift check: the committed generated files and package.json's version agree with
// schema/openapi.json, and the check does fail when the document changes under them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { API_VERSION } from "@arbiter/client";
import { openapi, packageRoot } from "./support.js";

function check(document?: string): { status: number | null; output: string } {
  const args = ["scripts/generate.mjs", "--check", ...(document ? ["--document", document] : [])];
  const done = spawnSync(process.execPath, args, { cwd: packageRoot, encoding: "utf8" });
  return { status: done.status, output: done.stdout + done.stderr };
}

test("the generated files and the version agree with schema/openapi.json", () => {
  const { status, output } = check();
  assert.equal(status, 0, output);
  const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
  assert.equal(pkg.version, openapi.info.version);
  assert.equal(API_VERSION, openapi.info.version);
});

test("a document with a new route, or a new version, is stale until regenerated", () => {
  const dir = mkdtempSync(join(tmpdir(), "arbiter-drift-"));
  const routed = structuredClone(openapi);
  const validate = routed.paths["/v1/rulesets/hex_maneuver/validate"]!;
  routed.paths["/v1/rulesets/hex_maneuver/judge-again"] = { post: { ...validate["post"], operationId: "judgeAgainHexManeuver" } };
  writeFileSync(join(dir, "routed.json"), JSON.stringify(routed));
  const stale = check(join(dir, "routed.json"));
  assert.equal(stale.status, 1);
  assert.match(stale.output, /src\/generated\/operations\.ts/);
  assert.match(stale.output, /src\/generated\/openapi\.ts/);

  const versioned = { ...structuredClone(openapi), info: { ...openapi.info, version: "9.9.9" } };
  writeFileSync(join(dir, "versioned.json"), JSON.stringify(versioned));
  const old = check(join(dir, "versioned.json"));
  assert.equal(old.status, 1);
  assert.match(old.output, /package\.json version .* \(the API is 9\.9\.9\)/);
});
