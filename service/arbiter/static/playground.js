// The playground: pick a ruleset and an example (or paste a state), see the board (POST
// /v1/rulesets/{id}/render), click a piece for where it can go (the piece's data-select
// overlay), click a shaded place or type an action and check it (POST .../validate),
// apply a legal one, undo. The permalink keeps the ruleset, the state, the overlay and
// the action in the URL fragment (base64url JSON), so nothing is stored anywhere.
// Plain script, no build step; every text from a state goes in as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

const app = {
  rulesets: [],      // GET /v1/rulesets
  openapi: null,     // GET /openapi.json: the examples of each ruleset's operations
  ruleset: null,     // the chosen ruleset's listing
  examples: [],      // [{label, state, overlay, action}]
  state: null,
  overlay: null,     // the ruleset's overlay without the action
  action: null,      // the proposed action (object) or null
  outcome: null,     // the last verdict
  history: [],       // earlier states, for undo
  information: {},   // each ruleset's information structure (GET /v1/rulesets/{id})
  envelopes: [],     // sealed orders for the state shown (POST .../seal-orders)
  ticket: 0,         // the latest draw asked for
  whyNotTicket: 0,   // the latest why-not asked for (hovering)
  drawn: 0,          // pictures drawn so far (body[data-drawn]: tests wait on it)
};

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((data && data.detail) || `HTTP ${response.status}`);
    error.problem = data;
    throw error;
  }
  return data;
}

// -- base64url JSON for the permalink ---------------------------------------------------
function encode(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(raw, (c) => c.charCodeAt(0))));
}

function permalink() {
  const parts = [`r=${encodeURIComponent(app.ruleset.id)}`, `s=${encode(app.state)}`];
  if (app.overlay) parts.push(`o=${encode(app.overlay)}`);
  if (app.action) parts.push(`a=${encode(app.action)}`);
  return "#" + parts.join("&");
}

function fromFragment() {
  const found = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [key, value] = part.split("=");
    if (value !== undefined) found[key] = value;
  }
  try {
    return {
      ruleset: found.r ? decodeURIComponent(found.r) : null,
      state: found.s ? decode(found.s) : null,
      overlay: found.o ? decode(found.o) : null,
      action: found.a ? decode(found.a) : null,
    };
  } catch (error) {
    showProblem("The link's fragment could not be read: " + error.message);
    return { ruleset: found.r ? decodeURIComponent(found.r) : null };
  }
}

// -- examples from the OpenAPI document -------------------------------------------------
function bodyExamples(operation) {
  const media = operation && operation.post && operation.post.requestBody.content["application/json"];
  if (!media) return [];
  if (media.examples) return Object.values(media.examples).map((e) => e.value);
  return media.example ? [media.example] : [];
}

// What an example shows, in words: "the board", "where army red-1 can go", ...
function describeExample(overlay, action) {
  const said = [];
  if (overlay.reachable) {
    const r = overlay.reachable;
    const who = r.army ? `army ${r.army}` : r.unit ? `unit ${r.unit}`
      : r.ship ? `${r.player}'s ship ${r.ship}` : r.from_area ? `${r.player}'s tokens in ${r.from_area}`
      : r.player ? `${r.player}'s tokens` : "a piece";
    said.push(`where ${who} can go`);
  }
  if (overlay.costs) said.push(`what each conquest costs ${overlay.costs.player}`);
  if (overlay.trace) said.push(`the turn of ${overlay.trace.orders.length} orders, step by step`);
  for (const key of Object.keys(overlay)) {
    if (!["reachable", "costs", "trace"].includes(key)) said.push(key.replace(/_/g, " "));
  }
  if (action) {
    const players = action.player ? ` by ${action.player}` : action.orders
      ? ` (${action.orders.length} orders)` : "";
    said.push(`a ${action.type || "proposed"} action${players} and its verdict`);
  }
  return said.length ? said.join("; ") : "the board as it stands";
}

function examplesOf(ruleset) {
  const paths = app.openapi.paths;
  const base = `/v1/rulesets/${ruleset.id}`;
  const out = bodyExamples(paths[`${base}/render`]).map((body) => {
    const overlay = Object.assign({}, body.overlay || {});
    const action = overlay.action || null;
    delete overlay.action;
    return {
      label: describeExample(overlay, action),
      state: body.state, overlay: Object.keys(overlay).length ? overlay : null, action,
    };
  });
  if (!out.length) {
    for (const body of bodyExamples(paths[`${base}/validate`])) {
      out.push({ label: describeExample({}, body.action), state: body.state, overlay: null,
                 action: body.action });
    }
  }
  return out;
}

// -- drawing ----------------------------------------------------------------------------
function hasPicture() {
  return app.ruleset.queries.includes("render");
}

async function draw() {
  clearProblem();
  $("undo").disabled = app.history.length === 0;
  $("permalink").href = permalink();
  $("state").value = JSON.stringify(app.state, null, 2);
  const board = $("board");
  if (!hasPicture()) {
    board.textContent = `${app.ruleset.id} has no picture yet: its state is in "Paste a state".`;
    drawn();
    return;
  }
  const overlay = Object.assign({}, app.overlay || {});
  if (app.action) overlay.action = app.action;
  const body = { state: app.state };
  if (Object.keys(overlay).length) body.overlay = overlay;
  const ticket = ++app.ticket;
  try {
    const picture = await api(`/v1/rulesets/${app.ruleset.id}/render`, body);
    if (ticket !== app.ticket) return;   // a later draw has started: it shows the board
    const parsed = new DOMParser().parseFromString(picture.svg, "image/svg+xml");
    board.replaceChildren(document.importNode(parsed.documentElement, true));
    bindPicture(board.firstElementChild);
  } catch (error) {
    showProblem(error.message, error.problem);
  }
  drawn();
}

function drawn() {
  app.drawn += 1;
  document.body.dataset.drawn = String(app.drawn);
}

// A click anywhere in a shaded place (its shade, the node or hex under it, a piece, a
// count or a note drawn there, an arrow passing over it) proposes going there; elsewhere,
// a click on a piece asks for where it can go. Every drawing of a place names it
// (data-at, data-node or data-hex); an arrow names none, so the click looks under it.
function placeOf(event, svg) {
  for (const hit of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!svg.contains(hit) || hit.closest(".legend")) continue;
    const drawn = hit.closest("[data-at], [data-node], [data-hex]");
    if (drawn) {
      return drawn.getAttribute("data-at") || drawn.getAttribute("data-node") ||
        drawn.getAttribute("data-hex");
    }
  }
  return null;
}

function shadeAt(svg, place) {
  for (const shade of svg.querySelectorAll(".shade[data-action]")) {
    if (shade.getAttribute("data-at") === place) return shade;
  }
  return null;
}

function bindPicture(svg) {
  svg.addEventListener("click", (event) => {
    if (event.target.closest(".legend")) return;
    const place = placeOf(event, svg);
    const shade = place === null ? null : shadeAt(svg, place);
    if (shade) {
      propose(JSON.parse(shade.getAttribute("data-action")));
      return;
    }
    const piece = event.target.closest(".piece[data-select]");
    if (piece) selectPiece(JSON.parse(piece.getAttribute("data-select")));
  });
  svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const shade = event.target.closest(".shade[data-action]");
    const piece = event.target.closest(".piece[data-select]");
    if (shade) propose(JSON.parse(shade.getAttribute("data-action")));
    else if (piece) selectPiece(JSON.parse(piece.getAttribute("data-select")));
    else return;
    event.preventDefault();
  });
  bindWhyNot(svg);
}

// -- why not: hovering over a place the overlay does not shade --------------------------
// The why-not request names the place by the ruleset's own word for it; the overlay's
// selection (an army, a unit, a player) says who asks.
const WHY_NOT_PLACE = { region_conquest: "region", territory_conquest: "territory", area_movement: "area" };
const WHY_NOT_WHO = ["army", "units", "march", "unit", "player"];

function bindWhyNot(svg) {
  if (!app.overlay || !app.ruleset.queries.includes("why-not")) return;
  const shaded = new Set([...svg.querySelectorAll(".shade[data-at]")].map((s) => s.getAttribute("data-at")));
  for (const place of svg.querySelectorAll(".cell[data-hex], .node[data-node]")) {
    const key = place.getAttribute("data-hex") || place.getAttribute("data-node");
    if (shaded.has(key)) continue;
    place.addEventListener("mouseenter", () => whyNot(place));
  }
}

function whyNotBody(place) {
  const selected = Object.values(app.overlay)[0] || {};
  const body = { state: app.state };
  for (const name of WHY_NOT_WHO) if (name in selected) body[name] = selected[name];
  const hex = place.getAttribute("data-hex");
  if (hex) {
    const [q, r] = hex.split(",").map(Number);
    body.hex = { q, r };
  } else {
    body[WHY_NOT_PLACE[app.ruleset.id] || "area"] = place.getAttribute("data-node");
  }
  return body;
}

async function whyNot(place) {
  const body = whyNotBody(place);
  const ticket = ++app.whyNotTicket;
  try {
    const answer = await api(`/v1/rulesets/${app.ruleset.id}/why-not`, body);
    if (ticket === app.whyNotTicket) showWhyNot(place, answer);
  } catch (error) {
    if (ticket === app.whyNotTicket) showProblem(error.message, error.problem);
  }
}

function showWhyNot(place, answer) {
  const box = $("verdict");
  const name = place.getAttribute("data-hex") ? `(${place.getAttribute("data-hex")})` : place.getAttribute("data-node");
  const cost = answer.cost !== undefined && answer.cost !== null && typeof answer.cost !== "object" ? ` for ${answer.cost}` : "";
  box.replaceChildren(element("p", answer.possible ? `Why not ${name}? It is possible${cost}.` : `Why not ${name}?`,
                              answer.possible ? "legal why-not" : "illegal why-not"));
  const reasons = element("ol");
  for (const v of answer.violations) {
    const item = element("li", undefined, "violation");
    item.append(element("code", v.code), " ", element("span", v.rule, "rule"), ": ", element("span", v.message, "message"));
    reasons.append(item);
  }
  if (answer.violations.length) box.append(reasons);
  if (answer.changes.length) {
    box.append(element("p", "What would change it:"));
    const changes = element("ul");
    for (const c of answer.changes) changes.append(element("li", c.message, "change"));
    box.append(changes);
  }
  box.dataset.whyNot = name;
}

function selectPiece(overlay) {
  app.overlay = overlay;
  app.action = null;
  $("action").value = "";
  $("verdict").replaceChildren();
  draw();
}

function propose(action) {
  $("action").value = JSON.stringify(action, null, 2);
  check();
}

// -- verdicts ---------------------------------------------------------------------------
// The action typed, or null (said why) when it is not JSON.
function typedAction() {
  clearProblem();
  try {
    return JSON.parse($("action").value);
  } catch (error) {
    showProblem("The action is not JSON: " + error.message);
    return null;
  }
}

async function check() {
  const action = typedAction();
  if (action !== null) await judge(action, {});
}

// POST .../validate (with ``extra`` members: the envelopes of sealed orders), its verdict
// shown and the picture drawn with it.
async function judge(action, extra) {
  try {
    app.outcome = await api(`/v1/rulesets/${app.ruleset.id}/validate`,
                            { state: app.state, action, ...extra });
  } catch (error) {
    showProblem(error.message, error.problem);
    return;
  }
  app.action = action;
  app.overlay = null;
  showVerdict(app.outcome);
  $("apply").disabled = !(app.outcome.legal && app.outcome.state);
  draw();
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// A legal action may wait for decisions before anything is applied (a phased_orders turn
// whose derived.status is "pending"): neither "Legal." (nothing to apply) nor "Illegal.".
function pendingDecisions(outcome) {
  const derived = outcome.derived || {};
  if (derived.status !== "pending" && !(derived.pending_decisions || []).length) return [];
  return derived.pending_decisions || [];
}

function optionWords(option) {
  const words = [option.choice];
  if (option.unit) words.push(option.unit);
  if (option.hex) words.push(`(${option.hex.q},${option.hex.r})`);
  return words.join(" ");
}

// Each pending decision as a question with its options; "Answer" adds the chosen answers to
// the action's decisions and checks the turn again.
function showQuestions(box, pending) {
  box.append(element("p", `The turn stopped for ${pending.length} decision(s): ` +
                     "nothing is applied until the action carries the answers.", "pending"));
  const questions = element("ol", undefined, "questions");
  const choices = [];
  for (const d of pending) {
    const item = element("li", undefined, "decision");
    item.append(element("span", `${d.player || "The game master"}: ${d.question}`, "message"),
                " ", element("span", d.rule, "rule"), " ", element("code", d.id));
    const select = element("select");
    select.setAttribute("aria-label", `Answer to ${d.id}`);
    d.options.forEach((o, i) => {
      const option = element("option", optionWords(o));
      option.value = String(i);
      select.append(option);
    });
    choices.push({ decision: d, select });
    item.append(element("br"), select);
    questions.append(item);
  }
  const answer = element("button", "Answer and check again");
  answer.type = "button";
  answer.id = "answer";
  answer.addEventListener("click", () => {
    let action;
    try { action = JSON.parse($("action").value); } catch (error) { return showProblem(error.message); }
    const answered = new Set(choices.map((c) => c.decision.id));
    action.decisions = (action.decisions || []).filter((d) => !answered.has(d.id));
    for (const { decision, select } of choices) {
      action.decisions.push(Object.assign({ id: decision.id }, decision.options[Number(select.value)]));
    }
    $("action").value = JSON.stringify(action, null, 2);
    check();
  });
  box.append(questions, answer);
}

// A resolved turn (phased_orders): what became of each order, then the trace of events
// phase by phase.
function showTurn(box, outcome) {
  const derived = outcome.derived || {};
  if (derived.results && derived.results.length) {
    box.append(element("h3", "Orders"));
    const list = element("ol", undefined, "results");
    list.start = 0;
    for (const r of derived.results) {
      const item = element("li", undefined, `result ${r.status}`);
      item.append(element("strong", `${r.player} ${r.kind} ${r.subject}: `),
                  element("span", r.status.replace(/_/g, " "), "status"), " — ",
                  element("span", r.message, "message"), " ", element("span", r.rule, "rule"));
      list.append(item);
    }
    box.append(list);
  }
  if (derived.unordered && derived.unordered.length) {
    box.append(element("p", `Without an order: ${derived.unordered.join(", ")}.`));
  }
  const names = {};
  for (const p of derived.phases || []) names[p.phase] = p.name;
  const byPhase = outcome.events.some((e) => e.params && e.params.phase !== undefined);
  if (!outcome.events.length) return;
  box.append(element("h3", byPhase ? "Trace, phase by phase" : "Events"));
  if (!byPhase) {
    const events = element("ul", undefined, "events");
    for (const e of outcome.events) events.append(element("li", e.message));
    box.append(events);
    return;
  }
  const phases = element("ol", undefined, "trace");
  let current = null;
  let events = null;
  for (const e of outcome.events) {
    const phase = e.params.phase;
    if (phase !== current) {
      current = phase;
      const item = element("li");
      item.value = Number(phase) || 0;
      item.append(element("span", names[phase] || `phase ${phase}`, "phase"));
      events = element("ul");
      item.append(events);
      phases.append(item);
    }
    const line = element("li");
    line.append(element("span", e.message), " ", element("span", e.rule, "rule"));
    events.append(line);
  }
  box.append(phases);
}

function showVerdict(outcome) {
  const box = $("verdict");
  const pending = pendingDecisions(outcome);
  const status = (outcome.derived || {}).status;
  let headline = outcome.legal ? "Legal." : "Illegal.";
  if (outcome.legal && status === "resolved") headline = "Legal: the turn resolved.";
  if (pending.length && outcome.legal) headline = "Legal so far: the turn waits for answers.";
  box.replaceChildren(element("p", headline,
                              pending.length && outcome.legal ? "pending" : outcome.legal ? "legal" : "illegal"));
  const list = element("ol");
  for (const v of outcome.violations) {
    const item = element("li", undefined, "violation");
    item.append(element("code", v.code), " ", element("span", v.rule, "rule"), ": ",
                element("span", v.message, "message"));
    list.append(item);
  }
  if (outcome.violations.length) box.append(list);
  if (pending.length) showQuestions(box, pending);
  showTurn(box, outcome);
  if (!outcome.reversible) box.append(element("p", "Not reversible: something was drawn or rolled."));
}

function apply() {
  if (!app.outcome || !app.outcome.state) return;
  app.history.push({ state: app.state, overlay: app.overlay, action: app.action });
  app.state = app.outcome.state;
  forgetEnvelopes();
  app.overlay = null;
  app.action = null;
  app.outcome = null;
  $("apply").disabled = true;
  $("action").value = "";
  $("verdict").replaceChildren(element("p", "Applied: the board shows the resulting state."));
  draw();
}

function undo() {
  const previous = app.history.pop();
  if (!previous) return;
  Object.assign(app, previous, { outcome: null });
  $("apply").disabled = true;
  $("action").value = app.action ? JSON.stringify(app.action, null, 2) : "";
  $("verdict").replaceChildren();
  draw();
}

function clearAction() {
  app.action = null;
  app.overlay = null;
  app.outcome = null;
  $("action").value = "";
  $("apply").disabled = true;
  $("verdict").replaceChildren();
  draw();
}

function showProblem(message, problem) {
  const box = $("problem");
  box.replaceChildren(element("p", message));
  const errors = (problem && problem.errors) || [];
  if (errors.length) {
    const list = element("ul");
    for (const e of errors) {
      const item = element("li");
      item.append(element("code", e.pointer || "(the body)"), " " + e.detail);
      list.append(item);
    }
    box.append(list);
  }
}

function clearProblem() {
  $("problem").replaceChildren();
}

// -- hidden information -------------------------------------------------------------------
// A ruleset whose states hide something (or whose players give orders in secret) offers
// its view (each hidden field as a handle with its count) and, for sealed orders, the
// whole flow: each player's submit sealed as an envelope, the turn resolved from them.
async function showInformation() {
  const id = app.ruleset.id;
  if (!app.information[id]) {
    app.information[id] = (await api(`/v1/rulesets/${id}`)).information;
  }
  const info = app.information[id];
  $("hidden").hidden = info.perfect;
  $("sealing").hidden = !info.private.length;
  const words = info.hidden.map((h) => `${h.pointer} (${h.holds})`);
  if (info.private.length) words.push(`each player's ${info.private[0].action} until ${info.private[0].revealed}`);
  $("hidden-words").textContent = info.perfect ? "" : "Nobody may read: " + words.join("; ") + ".";
  forgetEnvelopes();
}

function forgetEnvelopes() {
  app.envelopes = [];
  $("envelopes").replaceChildren();
  $("resolve-sealed").disabled = true;
}

async function showView() {
  clearProblem();
  let view;
  try {
    view = await api(`/v1/rulesets/${app.ruleset.id}/view`, { state: app.state });
  } catch (error) {
    showProblem(error.message, error.problem);
    return;
  }
  app.history.push({ state: app.state, overlay: app.overlay, action: app.action });
  app.state = view.state;
  forgetEnvelopes();
  const box = $("verdict");
  box.replaceChildren(element("p", "The board shows the state as a player sees it:"));
  const list = element("ul");
  for (const h of view.hidden) {
    const count = h.count === null ? "" : `, ${h.count}`;
    list.append(element("li", `${h.pointer}: ${h.sealed ? "sealed" : "withheld"}${count}`));
  }
  box.append(list);
  draw();
}

async function sealOrders() {
  const action = typedAction();
  if (action === null) return;
  let sealed;
  try {
    sealed = await api(`/v1/rulesets/${app.ruleset.id}/seal-orders`, { state: app.state, action });
  } catch (error) {
    showProblem(error.message, error.problem);
    return;
  }
  if (!sealed.legal) {
    showVerdict({ legal: false, violations: sealed.violations, events: [], derived: {}, reversible: true });
    return;
  }
  app.envelopes = app.envelopes.filter((e) => e.player !== sealed.envelope.player);
  app.envelopes.push(sealed.envelope);
  $("envelopes").replaceChildren(...app.envelopes.map((e) =>
    element("li", `${e.player}: sealed (${e.sealed.length} characters nobody else can read)`)));
  $("resolve-sealed").disabled = false;
  $("action").value = "";
}

async function resolveSealed() {
  clearProblem();
  const into = app.information[app.ruleset.id].private[0].into;
  await judge({ type: into }, { envelopes: app.envelopes });
}

// -- choosing ---------------------------------------------------------------------------
function chooseRuleset(id, start) {
  app.ruleset = app.rulesets.find((r) => r.id === id) || app.rulesets[0];
  $("ruleset").value = app.ruleset.id;
  app.examples = examplesOf(app.ruleset);
  const select = $("example");
  select.replaceChildren(...app.examples.map((e, i) => {
    const option = element("option", e.label);
    option.value = String(i);
    return option;
  }));
  chooseExample(start || app.examples[0] || { state: {}, overlay: null, action: null });
  showInformation().catch((error) => showProblem(error.message, error.problem));
}

function chooseExample(example) {
  forgetEnvelopes();
  app.state = example.state;
  app.overlay = example.overlay || null;
  app.action = example.action || null;
  app.history = [];
  app.outcome = null;
  $("apply").disabled = true;
  $("verdict").replaceChildren();
  $("action").value = app.action ? JSON.stringify(app.action, null, 2) : "";
  if (app.action) check();   // an example with an action shows its verdict at once
  else draw();
}

function loadPasted() {
  try {
    const state = JSON.parse($("state").value);
    chooseExample({ state, overlay: null, action: null });
  } catch (error) {
    showProblem("The state is not JSON: " + error.message);
  }
}

async function start() {
  try {
    [app.rulesets, app.openapi] = await Promise.all([
      api("/v1/rulesets").then((r) => r.rulesets), api("/openapi.json")]);
  } catch (error) {
    showProblem("The service did not answer: " + error.message, error.problem);
    return;
  }
  $("ruleset").replaceChildren(...app.rulesets.map((r) => {
    const option = element("option", `${r.title} (${r.id})`);
    option.value = r.id;
    return option;
  }));
  $("ruleset").addEventListener("change", (e) => chooseRuleset(e.target.value));
  $("example").addEventListener("change", (e) => chooseExample(app.examples[Number(e.target.value)]));
  $("check").addEventListener("click", check);
  $("apply").addEventListener("click", apply);
  $("undo").addEventListener("click", undo);
  $("clear").addEventListener("click", clearAction);
  $("load-state").addEventListener("click", loadPasted);
  $("view").addEventListener("click", showView);
  $("seal").addEventListener("click", sealOrders);
  $("resolve-sealed").addEventListener("click", resolveSealed);
  followFragment();
  // A fragment edited in the address bar (or a permalink followed in this tab) is shown too.
  // The permalink itself, followed here, is what is shown already: nothing to redo.
  window.addEventListener("hashchange", () => {
    if (location.hash !== permalink()) followFragment();
  });
}

function followFragment() {
  const linked = fromFragment();
  const start = linked.state ? { state: linked.state, overlay: linked.overlay, action: linked.action } : null;
  chooseRuleset(linked.ruleset || app.rulesets[0].id, start);
}

start();
