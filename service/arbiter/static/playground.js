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

function examplesOf(ruleset) {
  const paths = app.openapi.paths;
  const base = `/v1/rulesets/${ruleset.id}`;
  const out = bodyExamples(paths[`${base}/render`]).map((body, i) => {
    const overlay = Object.assign({}, body.overlay || {});
    const action = overlay.action || null;
    delete overlay.action;
    const what = Object.keys(overlay).concat(action ? ["action"] : []);
    return {
      label: `example ${i + 1}` + (what.length ? ` (${what.join(", ")})` : " (board)"),
      state: body.state, overlay: Object.keys(overlay).length ? overlay : null, action,
    };
  });
  if (!out.length) {
    for (const body of bodyExamples(paths[`${base}/validate`])) {
      out.push({ label: "example", state: body.state, overlay: null, action: body.action });
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

function bindPicture(svg) {
  for (const piece of svg.querySelectorAll(".piece[data-select]")) {
    const choose = () => selectPiece(JSON.parse(piece.getAttribute("data-select")));
    piece.addEventListener("click", choose);
    piece.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") choose(); });
  }
  for (const shade of svg.querySelectorAll(".shade[data-action]")) {
    shade.addEventListener("click", () => propose(JSON.parse(shade.getAttribute("data-action"))));
  }
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
async function check() {
  clearProblem();
  let action;
  try {
    action = JSON.parse($("action").value);
  } catch (error) {
    showProblem("The action is not JSON: " + error.message);
    return;
  }
  try {
    app.outcome = await api(`/v1/rulesets/${app.ruleset.id}/validate`, { state: app.state, action });
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
  if (!outcome.legal || outcome.applied || derived.status !== "pending") return [];
  return derived.pending_decisions || [];
}

function showVerdict(outcome) {
  const box = $("verdict");
  const pending = pendingDecisions(outcome);
  if (pending.length) {
    box.replaceChildren(element("p", `Pending: ${pending.length} decision(s) to answer; ` +
                                "nothing is applied until the action carries them.", "pending"));
    const questions = element("ol");
    for (const d of pending) {
      const options = d.options.map((o) => JSON.stringify(o)).join(" or ");
      const item = element("li", undefined, "decision");
      item.append(element("code", d.id), " ", element("span", d.rule, "rule"), ": ",
                  element("span", d.question, "message"), ` (${d.player || "the game master"}: ${options})`);
      questions.append(item);
    }
    box.append(questions);
  } else {
    box.replaceChildren(element("p", outcome.legal ? "Legal." : "Illegal.",
                                outcome.legal ? "legal" : "illegal"));
  }
  const list = element("ol");
  for (const v of outcome.violations) {
    const item = element("li", undefined, "violation");
    item.append(element("code", v.code), " ", element("span", v.rule, "rule"), ": ",
                element("span", v.message, "message"));
    list.append(item);
  }
  if (outcome.violations.length) box.append(list);
  if (outcome.events.length) {
    box.append(element("p", "Events:"));
    const events = element("ul");
    for (const e of outcome.events) events.append(element("li", e.message));
    box.append(events);
  }
  if (!outcome.reversible) box.append(element("p", "Not reversible: something was drawn or rolled."));
}

function apply() {
  if (!app.outcome || !app.outcome.state) return;
  app.history.push({ state: app.state, overlay: app.overlay, action: app.action });
  app.state = app.outcome.state;
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
}

function chooseExample(example) {
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
  const linked = fromFragment();
  const start = linked.state ? { state: linked.state, overlay: linked.overlay, action: linked.action } : null;
  chooseRuleset(linked.ruleset || app.rulesets[0].id, start);
}

start();
