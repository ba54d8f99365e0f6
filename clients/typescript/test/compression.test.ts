// Compression both ways against the live `arbiter serve` (ARBITER_URL): bodies of
// COMPRESS_BYTES or more go gzipped, with the same verdict as when sent as they are, and
// Node's fetch asks for and decodes compressed answers itself.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ArbiterClient, ArbiterProblem, COMPRESS_BYTES } from "@arbiter/client";
import { arbiterUrl, example } from "./support.js";

describe("compression", () => {
  test("a large body goes gzipped and is judged as the same body", async () => {
    const sent: RequestInit[] = [];
    const recording: typeof fetch = (input, init) => (sent.push(init ?? {}), fetch(input, init));
    const body = example("hex_maneuver", "validate");
    assert.ok(JSON.stringify(body).length >= COMPRESS_BYTES);
    const gzipped = await new ArbiterClient({ baseUrl: arbiterUrl(), fetch: recording }).hexManeuver.validate(body);
    const plain = await new ArbiterClient({ baseUrl: arbiterUrl(), compress: false }).hexManeuver.validate(body);
    assert.deepEqual(gzipped, plain);
    const init = sent.at(-1) as RequestInit;
    assert.equal((init.headers as Record<string, string>)["content-encoding"], "gzip");
    const bytes = new Uint8Array(init.body as ArrayBuffer);
    assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b]); // gzip's magic
    assert.ok(bytes.length < JSON.stringify(body).length / 2);
  });

  test("a small body goes as it is", async () => {
    const sent: RequestInit[] = [];
    const recording: typeof fetch = (input, init) => (sent.push(init ?? {}), fetch(input, init));
    const refused = await new ArbiterClient({ baseUrl: arbiterUrl(), fetch: recording }).hexManeuver
      .validate({} as never).then(() => null, (e: unknown) => e);
    assert.ok(refused instanceof ArbiterProblem && refused.status === 422, String(refused));
    const init = sent.at(-1) as RequestInit;
    assert.equal(typeof init.body, "string");
    assert.ok((init.body as string).length < COMPRESS_BYTES);
    assert.equal((init.headers as Record<string, string>)["content-encoding"], undefined);
  });

  test("fetch asks for compressed answers and decodes them", async () => {
    const response = await fetch(`${arbiterUrl()}/openapi.json`);
    assert.ok(["gzip", "br", "zstd"].includes(response.headers.get("content-encoding") ?? ""));
    const document = (await response.json()) as { openapi: string };
    assert.ok(document.openapi.startsWith("3."));
  });
});
