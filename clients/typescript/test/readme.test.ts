// Every TypeScript example of README.md, as pasted: each ```ts block becomes a module of
// its own, type-checked by tsc against this package, then run with the README's command,
// `npx tsx example-N.mts`, against the live service; what it prints must be its
// `// prints:` lines, in order.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { arbiterUrl, packageRoot } from "./support.js";

const readme = readFileSync(join(packageRoot, "README.md"), "utf8");
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
// Inside the package, so that `import ... from "@arbiter/client"` is the package itself.
const dir = join(packageRoot, "build", "readme");

test("the README has an example per ruleset", () => {
  for (const ruleset of ["hexManeuver", "regionConquest", "territoryConquest", "areaMovement", "phasedOrders"]) {
    assert.ok(blocks.some((b) => b.includes(`arbiter.${ruleset}.validate(`)), ruleset);
  }
});

test("the README's examples type-check", () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(dir, "src"));
  blocks.forEach((code, i) => {
    writeFileSync(join(dir, "src", `example-${i + 1}.ts`), code);
    writeFileSync(join(dir, `example-${i + 1}.mts`), code);
  });
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true,
      types: ["node"], lib: ["ES2022", "DOM"], outDir: "out", rootDir: "src", skipLibCheck: true,
    },
    include: ["src/*.ts"],
  }));
  const tsc = spawnSync(process.execPath, [join(packageRoot, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});

blocks.forEach((code, i) => {
  const expected = [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => m[1] as string);
  const first = code.split("\n").find((line) => line.includes("arbiter.") && !line.startsWith("import")) ?? "";
  test(`README example ${i + 1} runs and prints what it says (${first.trim().slice(0, 60)})`, () => {
    assert.ok(expected.length > 0, "an example says what it prints");
    // The README's command, as a reader types it (npx finds tsx in this package's devDependencies).
    const run = spawnSync("npx", ["tsx", `example-${i + 1}.mts`], {
      cwd: dir, encoding: "utf8", env: { ...process.env, ARBITER_URL: arbiterUrl() }, timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split("\n"), expected);
  });
});
