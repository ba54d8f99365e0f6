// What the tests share: a live `arbiter serve` (the one scripts/test.mjs starts, at
// ARBITER_URL, or one a test starts with its own settings), the service's OpenAPI document
// for its examples, and a fetch that records what the client sent (gzipped bodies decoded).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

export const repository = fileURLToPath(new URL("../../../../", import.meta.url));
export const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
export const arbiterBin = process.env["ARBITER_BIN"] ?? `${repository}.venv/bin/arbiter`;

/** The server scripts/test.mjs started. */
export function arbiterUrl(): string {
  const url = process.env["ARBITER_URL"];
  if (!url) throw new Error("ARBITER_URL is not set: run the tests with npm test");
  return url;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    }).on("error", reject);
  });
}

/** An `arbiter serve` on a free port with `env` on top of the environment. */
export async function startArbiter(env: Record<string, string> = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  if (!existsSync(arbiterBin)) throw new Error(`no ${arbiterBin}: run make .venv/.installed-test at the repository's root`);
  const port = await freePort();
  const child = spawn(arbiterBin, ["serve", "--host", "127.0.0.1", "--port", String(port)], {
    env: { ...process.env, ARBITER_LOG_LEVEL: "warning", ARBITER_REDIS_URL: "", ARBITER_WORKERS: "1", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`arbiter serve exited with ${child.exitCode}`);
    try {
      if ((await fetch(url + "/healthz")).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    if (waited > 60_000) {
      await stop();
      throw new Error(`arbiter serve did not answer /healthz at ${url} within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Document = { info: { version: string }; paths: Record<string, Record<string, any>> };
export const openapi: Document = JSON.parse(readFileSync(`${repository}schema/openapi.json`, "utf8"));

/** The request example the document gives for one ruleset's route (a deep copy). */
export function example(ruleset: string, route: string): any {
  const content = openapi.paths[`/v1/rulesets/${ruleset}/${route}`]?.["post"]?.requestBody?.content?.["application/json"];
  const found = content?.example ?? (Object.values(content?.examples ?? {})[0] as { value?: unknown } | undefined)?.value;
  if (found === undefined) throw new Error(`no example for ${ruleset} ${route}`);
  return structuredClone(found);
}

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: any;
  status: number;
}

/** The global fetch, recording each request it sends and the status it got. */
export function recordingFetch(): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const recording = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    sent.push({
      method: init?.method ?? "GET",
      url: String(input),
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === "string" ? JSON.parse(init.body)
        : init?.body instanceof ArrayBuffer ? JSON.parse(gunzipSync(init.body).toString()) : undefined,
      status: response.status,
    });
    return response;
  };
  return { fetch: recording as typeof fetch, sent };
}
