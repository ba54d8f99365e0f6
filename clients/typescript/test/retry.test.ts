// The retry rules against a small real HTTP server on loopback (real sockets): what it
// answers is scripted per request, and it records when each request came and its headers.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { ArbiterClient, ArbiterNetworkError, ArbiterProblem, ArbiterTimeoutError } from "@arbiter/client";
import { arbiterUrl, example, startArbiter } from "./support.js";

type Step = (response: ServerResponse) => void;
const problem = (status: number, headers: Record<string, string> = {}): Step => (response) => {
  response.writeHead(status, { "content-type": "application/problem+json", ...headers });
  response.end(JSON.stringify({ type: `urn:test:${status}`, title: "scripted", status, detail: "scripted" }));
};
const ok: Step = (response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end('{"legal": true, "seed": 18446744073709551615}');
};
const hangUp: Step = (response) => response.socket?.destroy();
const never: Step = () => undefined;

/** A server answering its n-th request with steps[n] (the last step from then on). */
async function scripted(steps: Step[]): Promise<{ url: string; requests: { at: number; headers: IncomingHttpHeaders; body: string }[] }> {
  const requests: { at: number; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      requests.push({ at: performance.now(), headers: request.headers, body });
      (steps[Math.min(requests.length - 1, steps.length - 1)] as Step)(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const validate = (client: ArbiterClient) => client.hexManeuver.validate(example("hex_maneuver", "validate"));

describe("retries", () => {
  test("a 503 is retried, then the answer comes", async () => {
    const server = await scripted([problem(503), problem(503), ok]);
    const answer = await validate(new ArbiterClient({ baseUrl: server.url, backoffMs: 20 }));
    assert.equal(server.requests.length, 3);
    assert.equal((answer as unknown as { seed: bigint }).seed, 18446744073709551615n);
    assert.equal(server.requests[2]?.body, server.requests[0]?.body, "the same request again");
  });

  test("a 429 waits its Retry-After before the next attempt", async () => {
    const server = await scripted([problem(429, { "retry-after": "1" }), ok]);
    await validate(new ArbiterClient({ baseUrl: server.url, backoffMs: 20 }));
    assert.equal(server.requests.length, 2);
    const [first, second] = server.requests;
    assert.ok(second!.at - first!.at >= 1000, `the retry came ${second!.at - first!.at} ms after`);
  });

  test("a 503 with Retry-After as an HTTP date is honoured too", async () => {
    const server = await scripted([problem(503, { "retry-after": new Date(Date.now() + 2000).toUTCString() }), ok]);
    await validate(new ArbiterClient({ baseUrl: server.url }));
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests[1]!.at - server.requests[0]!.at >= 900);
  });

  test("a Retry-After longer than the call's time left is not waited for: the 429 is thrown", async () => {
    const server = await scripted([problem(429, { "retry-after": "120" }), ok]);
    const error = await validate(new ArbiterClient({ baseUrl: server.url, timeoutMs: 5000 })).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterProblem && error.status === 429, String(error));
    assert.equal(server.requests.length, 1);
  });

  test("retries run out: the last problem is thrown after 1 + retries attempts", async () => {
    const server = await scripted([problem(503)]);
    const error = await validate(new ArbiterClient({ baseUrl: server.url, retries: 2, backoffMs: 10 })).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterProblem && error.status === 503, String(error));
    assert.equal(server.requests.length, 3);
  });

  test("a connection cut before the answer is retried", async () => {
    const server = await scripted([hangUp, hangUp, ok]);
    const answer = await validate(new ArbiterClient({ baseUrl: server.url, backoffMs: 10 }));
    assert.equal(answer.legal, true);
    assert.equal(server.requests.length, 3);
  });

  test("no server at all: ArbiterNetworkError once the retries are spent", async () => {
    const server = await scripted([ok]);
    const port = Number(new URL(server.url).port);
    const closed = `http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}`;
    const error = await validate(new ArbiterClient({ baseUrl: closed, retries: 1, backoffMs: 10 })).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterNetworkError, String(error));
  });

  for (const status of [400, 401, 404, 413, 422, 500]) {
    test(`a ${status} is never retried`, async () => {
      const server = await scripted([problem(status), ok]);
      const error = await validate(new ArbiterClient({ baseUrl: server.url, backoffMs: 10 })).then(() => null, (e: unknown) => e);
      assert.ok(error instanceof ArbiterProblem && error.status === status, String(error));
      assert.equal(error.problem.type, `urn:test:${status}`);
      assert.equal(server.requests.length, 1);
    });
  }

  test("the live service's 422 is thrown after one request, its illegal-move verdicts are answers", async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const arbiter = new ArbiterClient({ baseUrl: arbiterUrl(), fetch: counting });
    const body = example("hex_maneuver", "validate");
    await assert.rejects(arbiter.hexManeuver.validate({ ...body, action: { ...body.action, army: 7 } as never }), ArbiterProblem);
    assert.equal(calls, 1);
    const illegal = await arbiter.hexManeuver.validate({ ...body, action: { ...body.action, path: [{ q: 2, r: -2 }] } });
    assert.equal(illegal.legal, false);
    assert.equal(calls, 2);
  });
});

describe("deadlines and keys", () => {
  test("no answer within timeoutMs: ArbiterTimeoutError", async () => {
    const server = await scripted([never]);
    const error = await validate(new ArbiterClient({ baseUrl: server.url, timeoutMs: 300 })).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterTimeoutError, String(error));
  });

  test("the caller's AbortSignal cancels the call with its reason", async () => {
    const server = await scripted([never]);
    const controller = new AbortController();
    const call = new ArbiterClient({ baseUrl: server.url }).hexManeuver.validate(example("hex_maneuver", "validate"), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the player left")), 50);
    await assert.rejects(call, /the player left/);
  });

  test("the API key goes as a Bearer token, or as X-API-Key", async () => {
    const server = await scripted([ok]);
    await validate(new ArbiterClient({ baseUrl: server.url, apiKey: "k-1" }));
    await validate(new ArbiterClient({ baseUrl: server.url, apiKey: "k-2", apiKeyHeader: "x-api-key" }));
    assert.equal(server.requests[0]?.headers.authorization, "Bearer k-1");
    assert.equal(server.requests[1]?.headers["x-api-key"], "k-2");
    assert.equal(server.requests[1]?.headers.authorization, undefined);
  });

  test("a service with API keys: both headers pass, a missing key is a 401 problem, not retried", async () => {
    const key = "a-key-for-the-typescript-client-tests";
    const server = await startArbiter({ ARBITER_API_KEYS: key });
    try {
      for (const apiKeyHeader of ["authorization", "x-api-key"] as const) {
        const outcome = await validate(new ArbiterClient({ baseUrl: server.url, apiKey: key, apiKeyHeader }));
        assert.equal(outcome.legal, true);
      }
      let calls = 0;
      const counting: typeof fetch = (input, init) => (calls++, fetch(input, init));
      const error = await validate(new ArbiterClient({ baseUrl: server.url, fetch: counting })).then(() => null, (e: unknown) => e);
      assert.ok(error instanceof ArbiterProblem && error.status === 401, String(error));
      assert.equal(calls, 1);
    } finally {
      await server.stop();
    }
  });
});
