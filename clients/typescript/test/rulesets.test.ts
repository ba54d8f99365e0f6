// Every ruleset through the client against the live service: a legal and an illegal
// action, the queries (reachable, conquest cost, legal actions), a 422 problem with its
// pointers, a new game's 64-bit seed kept exact, and the GraphQL helper.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  ArbiterClient, ArbiterGraphQLError, ArbiterProblem, API_VERSION, gql,
  type components,
} from "@arbiter/client";
import { arbiterUrl, example, openapi } from "./support.js";

const arbiter = new ArbiterClient({ baseUrl: arbiterUrl() });

describe("validate", () => {
  test("every ruleset's documented example is judged, and the answer names the ruleset", async () => {
    const rulesets = ["area_movement", "hex_maneuver", "phased_orders", "region_conquest", "territory_conquest"] as const;
    const clients = {
      area_movement: arbiter.areaMovement, hex_maneuver: arbiter.hexManeuver, phased_orders: arbiter.phasedOrders,
      region_conquest: arbiter.regionConquest, territory_conquest: arbiter.territoryConquest,
    };
    for (const id of rulesets) {
      const outcome = await clients[id].validate(example(id, "validate"));
      assert.equal(outcome.ruleset, id);
      assert.equal(typeof outcome.legal, "boolean");
      assert.equal(outcome.legal, (outcome.violations ?? []).every((v) => v.severity !== "error"), id);
    }
  });

  test("hex_maneuver: a legal maneuver moves the army; an illegal one names its violation's rule", async () => {
    const body = example("hex_maneuver", "validate");
    const legal = await arbiter.hexManeuver.validate(body);
    assert.equal(legal.legal, true, JSON.stringify(legal.violations));
    // Part of the army marched (a split): some army of the player stands on the last hex.
    const armies = legal.state && "armies" in legal.state ? legal.state.armies ?? [] : [];
    const end = body.action.path.at(-1);
    assert.ok(armies.some((a) => a.owner === body.action.player && a.hex.q === end.q && a.hex.r === end.r), JSON.stringify(armies));

    // Two hexes away in one step: not a neighbour.
    const illegal = await arbiter.hexManeuver.validate({ ...body, action: { ...body.action, path: [{ q: 2, r: -2 }] } });
    assert.equal(illegal.legal, false);
    assert.ok((illegal.violations ?? []).length > 0);
    for (const violation of illegal.violations ?? []) {
      assert.match(violation.rule, /\S/);
      assert.match(violation.code, /\S/);
      assert.match(violation.message, /\S/);
    }
    // The rule a violation names is one the ruleset's metadata lists.
    const described = await arbiter.hexManeuver.describe();
    const rules = JSON.stringify(described.rules);
    for (const violation of illegal.violations ?? []) assert.ok(rules.includes(JSON.stringify(violation.rule)), violation.rule);
  });

  test("region_conquest: conquering a region not at the edge and not adjacent is illegal", async () => {
    const body = example("region_conquest", "validate");
    const legal = await arbiter.regionConquest.validate(body);
    assert.equal(legal.legal, true, JSON.stringify(legal.violations));
    const illegal = await arbiter.regionConquest.validate({ ...body, action: { ...body.action, region: "farmland" } });
    assert.equal(illegal.legal, false);
    assert.ok((illegal.violations ?? []).some((v) => v.rule.length > 0));
  });

  test("validate-batch judges a sequence, one outcome per action", async () => {
    const body = example("hex_maneuver", "validate-batch");
    const batch = await arbiter.hexManeuver.validateBatch(body);
    assert.equal(batch.outcomes.length, body.actions.length);
  });
});

describe("queries", () => {
  test("hex_maneuver reachable: the army's own hex at cost 0 among the destinations", async () => {
    const body = example("hex_maneuver", "reachable");
    const reachable = await arbiter.hexManeuver.reachable(body);
    const army = body.state.armies.find((a: { id: string }) => a.id === body.army);
    const home = reachable.destinations.find((d) => d.hex.q === army.hex.q && d.hex.r === army.hex.r);
    assert.equal(home?.cost, 0);
    assert.ok(reachable.destinations.length > 1);
  });

  test("region_conquest and territory_conquest conquest cost", async () => {
    const region = await arbiter.regionConquest.conquestCost(example("region_conquest", "conquest-cost"));
    assert.ok(Object.keys(region).length > 0);
    assert.ok(JSON.stringify(region).includes("hills"));
    const territory = await arbiter.territoryConquest.conquestCost(example("territory_conquest", "conquest-cost"));
    assert.ok(JSON.stringify(territory).includes("centre"));
  });

  test("legal actions: every conquest listed is legal when validated, and the others are not", async () => {
    const body = example("region_conquest", "legal-actions");
    const listed = await arbiter.regionConquest.legalActions(body);
    const conquests = (listed.actions ?? []).filter((a) => a.type === "conquer").map((a) => a.region);
    assert.ok(conquests.length > 0);
    const regions = (body.state.regions as components["schemas"]["RegionConquestRegion"][]).map((r) => r.id);
    for (const region of regions) {
      const action = { type: "conquer" as const, player: listed.player ?? body.player, region };
      const outcome = await arbiter.regionConquest.validate({ state: body.state, action });
      assert.equal(outcome.legal, conquests.includes(region), `${region}: ${JSON.stringify(outcome.violations)}`);
    }
  });

  test("listRulesets names the five rulesets; the API version is the package's", async () => {
    const listed = await arbiter.listRulesets();
    assert.deepEqual(JSON.stringify(listed).match(/"(hex_maneuver|region_conquest|territory_conquest|area_movement|phased_orders)"/g)?.length! >= 5, true);
    assert.equal(API_VERSION, openapi.info.version);
  });
});

describe("problems", () => {
  test("a malformed state is a 422 ArbiterProblem whose pointers name the bad fields", async () => {
    const body = example("hex_maneuver", "validate");
    body.state.armies[0].units = { cavalrymen: "three" };
    delete body.action.player;
    const error = await arbiter.hexManeuver.validate(body).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterProblem, String(error));
    assert.equal(error.status, 422);
    assert.equal(error.type, "urn:arbiter:problem:invalid-request");
    assert.ok(error.pointers.includes("/state/armies/0/units/cavalrymen"), error.pointers.join(" "));
    assert.ok(error.pointers.includes("/action/player"), error.pointers.join(" "));
    assert.match(error.requestId ?? "", /\S/);
  });

  test("an unknown ruleset route is a 404 problem", async () => {
    const error = await arbiter.regionConquest.getBoard("sha256:" + "0".repeat(64)).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterProblem);
    assert.equal(error.status, 422);
    assert.equal(error.type, "urn:arbiter:problem:board-not-found");
  });
});

describe("numbers", () => {
  test("a new game's 64-bit seed comes back exact, and the next request sends it back exact", async () => {
    const body = example("hex_maneuver", "new-game");
    const started = await arbiter.hexManeuver.newGame({ state: { ...body.state, rng: 0 } });
    const rng: unknown = started.state.rng;
    assert.ok(typeof rng === "bigint" || (typeof rng === "number" && Number.isSafeInteger(rng)), typeof rng);
    // The same state validated twice gives the same state_hash: the seed went back as sent.
    const action = example("hex_maneuver", "validate").action;
    const first = await arbiter.hexManeuver.validate({ state: started.state, action });
    const again = await arbiter.hexManeuver.validate({ state: started.state, action });
    assert.equal(first.state_hash, again.state_hash);
    if (typeof rng === "bigint") {
      // Rounded to a double, the seed is another state.
      const rounded = await arbiter.hexManeuver.validate({ state: { ...started.state, rng: Number(rng) }, action });
      assert.notEqual(rounded.state_hash, first.state_hash);
    }
  });
});

describe("graphql", () => {
  type Reach = { hexManeuver: { reachable: { destinations: { hex: { q: number; r: number }; cost: number }[] } } };
  const REACH = gql<Reach, { state: unknown; army: string }>(
    "query($state: HexManeuverState!, $army: String!) { hexManeuver(state: $state) { reachable(army: $army) { destinations { hex { q r } cost } } } }");

  test("a typed query gives its data", async () => {
    const body = example("hex_maneuver", "reachable");
    const data = await arbiter.graphql(REACH, { state: body.state, army: body.army });
    const rest = await arbiter.hexManeuver.reachable(body);
    assert.deepEqual(
      data.hexManeuver.reachable.destinations.map((d) => `${d.hex.q},${d.hex.r}:${d.cost}`).sort(),
      rest.destinations.map((d) => `${d.hex.q},${d.hex.r}:${d.cost}`).sort());
  });

  test("a GraphQL error throws ArbiterGraphQLError with its extensions and pointers", async () => {
    const body = example("hex_maneuver", "reachable");
    body.state.armies[0].units = { cavalrymen: "three" };
    const error = await arbiter.graphql(REACH, { state: body.state, army: body.army }).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterGraphQLError, String(error));
    assert.ok(error.codes.every((c) => c.length > 0), JSON.stringify(error.errors));
    const pointers = error.errors.flatMap((e) => e.extensions?.problems?.map((p) => p.pointer) ?? []);
    assert.ok(pointers.some((p) => p.includes("/armies/0/units/cavalrymen")), JSON.stringify(error.errors));
  });

  test("a query the schema refuses is an ArbiterGraphQLError too", async () => {
    const error = await arbiter.graphql(gql<unknown>("{ noSuchField }")).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof ArbiterGraphQLError, String(error));
    assert.match(error.message, /noSuchField/);
  });
});
