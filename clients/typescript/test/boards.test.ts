// Board ids computed here against the ones the service computes, canonical JSON against
// the service's own orjson, and boards by reference with the retry on an unknown board.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { ArbiterClient, ArbiterProblem, BOARD_FIELDS, boardId, boardOf, canonicalJson, parseJson, type RulesetId } from "@arbiter/client";
import { arbiterUrl, example, recordingFetch, repository, startArbiter } from "./support.js";

const RULESETS = Object.keys(BOARD_FIELDS) as RulesetId[];

/** orjson.dumps(orjson.loads(text), option=OPT_SORT_KEYS) for each text, by the service's
 * own Python and orjson. */
function orjsonCanonical(texts: string[]): string[] {
  const script = "import sys, orjson\nfor line in sys.stdin.read().split('\\n'):\n" +
    "    sys.stdout.write(orjson.dumps(orjson.loads(line), option=orjson.OPT_SORT_KEYS).decode() + '\\n')\n";
  const done = spawnSync(`${repository}.venv/bin/python`, ["-c", script], { input: texts.join("\n"), encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  return done.stdout.split("\n").slice(0, texts.length);
}

/** A random JSON value: keys and strings from every plane (controls, quotes, accents,
 * U+2028, U+E000..U+FFFF, astral), integers, floats of every magnitude. */
function randomValue(random: () => number, depth = 0): unknown {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = () => Array.from({ length: Math.floor(random() * 6) }, () =>
    pick(["a", "Z", "é", "\"", "\\", "\n", "\u0001", "\u001f", "\u007f", "\u2028", "\ue000", "\uffff", "😀", "𝄞", "/", " "])).join("");
  const kind = depth > 3 ? Math.floor(random() * 4) : Math.floor(random() * 6);
  switch (kind) {
    case 0: return text();
    case 1: return Math.floor((random() - 0.5) * 2 ** Math.floor(random() * 70));
    case 2: return (random() - 0.5) * 10 ** Math.floor(random() * 60 - 30);
    case 3: return pick([true, false, null, 0, -1, 1e21, 1e-7, 0.1, 100.5, 2 ** 64, 2 ** 63, -(2 ** 63), -(2 ** 63) - 4096]);
    case 4: return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default: return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [text(), randomValue(random, depth + 1)]));
  }
}

function seeded(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe("canonical JSON and ids", () => {
  test("canonicalJson writes what orjson writes, for 2000 random values", () => {
    const random = seeded(18);
    const values = Array.from({ length: 2000 }, () => randomValue(random));
    const expected = orjsonCanonical(values.map((v) => JSON.stringify(v)));
    values.forEach((value, i) => assert.equal(canonicalJson(value), expected[i], JSON.stringify(value)));
  });

  test("the SHA-256 is node:crypto's, for strings of every length around the block size", () => {
    for (let length = 0; length < 200; length++) {
      const text = "é😀a".repeat(length).slice(0, length);
      const board = { text };
      assert.equal(boardId(board), "sha256:" + createHash("sha256").update(canonicalJson(board), "utf8").digest("hex"));
    }
  });

  test("parseJson keeps integers past 2^53 exact, and reads everything else as JSON.parse", () => {
    assert.deepEqual(parseJson('{"rng": 18446744073709551615, "n": [1, -2.5e3, 9007199254740991], "s": "1234567890123456789"}'),
      { rng: 18446744073709551615n, n: [1, -2500, 9007199254740991], s: "1234567890123456789" });
    const random = seeded(7);
    for (let i = 0; i < 300; i++) {
      const text = JSON.stringify(randomValue(random));
      // JSON.parse, but an integer literal it cannot hold exactly is that integer, exact.
      const exact = (_: string, v: unknown) =>
        typeof v === "number" && !Number.isSafeInteger(v) && /^-?\d+$/.test(String(v)) ? BigInt(String(v)) : v;
      assert.deepEqual(parseJson(text.replace(/,/g, ", ")), JSON.parse(text, exact));
    }
    assert.throws(() => parseJson('{"a": 12345678901234567890,}'), SyntaxError);
  });

  test("every ruleset's example board: the service stores it under the id computed here", async () => {
    const arbiter = new ArbiterClient({ baseUrl: arbiterUrl() });
    const clients = {
      area_movement: arbiter.areaMovement, hex_maneuver: arbiter.hexManeuver, phased_orders: arbiter.phasedOrders,
      region_conquest: arbiter.regionConquest, territory_conquest: arbiter.territoryConquest,
    };
    for (const ruleset of RULESETS) {
      const board = boardOf(ruleset, example(ruleset, "validate").state);
      assert.ok(board, ruleset);
      const id = boardId(board);
      // PUT refuses a board whose id is not its content's (422 at the id).
      const stored = await (clients[ruleset].putBoard as (id: string, board: unknown) => Promise<{ board: string }>)(id, board);
      assert.equal(stored.board, id);
      assert.equal((await clients[ruleset].getBoard(id)).board, id);
      // The check is real: an id off by one digit is refused.
      const wrong = id.slice(0, -1) + (id.endsWith("0") ? "1" : "0");
      const refused = await (clients[ruleset].putBoard as (id: string, board: unknown) => Promise<unknown>)(wrong, board).then(() => null, (e: unknown) => e);
      assert.ok(refused instanceof ArbiterProblem && refused.status === 422, `${ruleset}: ${String(refused)}`);
    }
  });

  test("a board with escapes, accents and astral characters in its names has the service's id", async () => {
    const arbiter = new ArbiterClient({ baseUrl: arbiterUrl() });
    const state = example("region_conquest", "validate").state;
    const names = ["tab\there", "quote\"back\\slash", "é U+2028\u2028 and 😀", "\ue000 private", "\u0001"];
    state.regions[2].id = names[Math.floor(Math.random() * names.length)];
    for (const region of state.regions) region.adjacent = region.adjacent.map((r: string) => (r === "farmland" ? state.regions[2].id : r));
    const board = boardOf("region_conquest", state)!;
    const stored = await arbiter.regionConquest.putBoard(boardId(board), board as never);
    assert.equal(stored.board, boardId(board));
  });
});

describe("boards by reference", () => {
  test("sent once with its id, then by reference alone; the answer's state comes back whole with wholeState", async () => {
    const { fetch, sent } = recordingFetch();
    const arbiter = new ArbiterClient({ baseUrl: arbiterUrl(), boards: "reference", fetch });
    const body = example("hex_maneuver", "validate");
    body.state.hexes[0].province = `province-${Math.random()}`; // a board the service has never seen
    const first = await arbiter.hexManeuver.validate(body);
    const second = await arbiter.hexManeuver.validate(body);
    assert.equal(first.legal, true);
    assert.equal(second.state_hash, first.state_hash);
    const id = arbiter.boardId("hex_maneuver", body.state);
    assert.equal(sent[0]?.body.state.board, id);
    assert.ok(Array.isArray(sent[0]?.body.state.hexes), "the first request registers the board");
    assert.equal(sent[1]?.body.state.board, id);
    assert.equal(sent[1]?.body.state.hexes, undefined, "the second names it alone");
    assert.equal(sent.length, 2);
    // The resulting state names the board; wholeState fills it in.
    const next = second.state as Record<string, unknown>;
    assert.equal(next["board"], id);
    const whole = arbiter.wholeState("hex_maneuver", next);
    assert.deepEqual(whole["hexes"], body.state.hexes);
    assert.equal(whole["board"], undefined);
  });

  test("an unknown board: the client sends the request once more with the board inline, which stores it", async () => {
    const { fetch, sent } = recordingFetch();
    const arbiter = new ArbiterClient({ baseUrl: arbiterUrl(), fetch });
    const body = example("territory_conquest", "validate");
    body.state.territories[0].id = `castle-${Math.random()}`;
    body.state.adjacent[0][0] = body.state.territories[0].id;
    body.state.players[0].castle = body.state.territories[0].id;
    body.state.players[0].armies = { [body.state.territories[0].id]: 1, south: 3 };
    const id = arbiter.boardId("territory_conquest", body.state)!; // remembered, never sent
    const { adjacent: _a, territories: _t, ...lean } = body.state;
    const outcome = await arbiter.territoryConquest.validate({ ...body, state: { ...lean, board: id } });
    assert.equal(typeof outcome.legal, "boolean");
    assert.deepEqual(sent.map((s) => s.status), [422, 200]);
    assert.equal(sent[0]?.body.state.territories, undefined);
    assert.deepEqual(sent[1]?.body.state.territories, body.state.territories);
    assert.equal(sent[1]?.body.state.board, id);
    // Stored now: by reference alone it passes at once.
    await arbiter.territoryConquest.validate({ ...body, state: { ...lean, board: id } });
    assert.deepEqual(sent.map((s) => s.status), [422, 200, 200]);
  });

  test("a board the client never saw: the board-not-found problem is thrown, not retried", async () => {
    const { fetch, sent } = recordingFetch();
    const arbiter = new ArbiterClient({ baseUrl: arbiterUrl(), fetch });
    const body = example("hex_maneuver", "validate");
    const { hexes: _h, ...lean } = body.state;
    const error = await arbiter.hexManeuver.validate({ ...body, state: { ...lean, board: "sha256:" + "ab".repeat(32) } })
      .then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterProblem && error.type === "urn:arbiter:problem:board-not-found", String(error));
    assert.deepEqual(error.pointers, ["/state/board"]);
    assert.equal(sent.length, 1);
  });

  test("a service that keeps no boards: every request by reference is answered, after its one retry", async () => {
    const server = await startArbiter({ ARBITER_BOARD_CACHE_BYTES: "0" });
    try {
      const { fetch, sent } = recordingFetch();
      const arbiter = new ArbiterClient({ baseUrl: server.url, boards: "reference", fetch });
      const body = example("phased_orders", "validate");
      const inline = await new ArbiterClient({ baseUrl: server.url }).phasedOrders.validate(body);
      for (let i = 0; i < 3; i++) {
        const outcome = await arbiter.phasedOrders.validate(body);
        assert.equal(outcome.state_hash, inline.state_hash);
      }
      // The first carries the board (the service judges it, keeps nothing); the next
      // ones name it, are told it is unknown, and carry it again.
      assert.deepEqual(sent.map((s) => s.status), [200, 422, 200, 422, 200]);
    } finally {
      await server.stop();
    }
  });
});
