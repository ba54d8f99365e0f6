// One request to the service, whatever the operation: the URL, the headers (an API key),
// a deadline for the whole call, retries, boards by reference, and what comes back
// (an answer, or an ArbiterProblem). Only the global `fetch` and AbortController are
// used, so the same code runs in browsers, Node (18 and later) and React Native.
//
// Retries: a request is sent again after a connection error (no answer, or an answer cut
// off), a 429 (after its Retry-After) or a 503 (after its Retry-After, else a backoff) -
// never after any other answer: a 4xx problem is about the request, which would fail the
// same way again, and a verdict is an answer. Every route is safe to repeat: the service
// keeps no game state, and storing a board twice stores the same board.

import type { operations } from "./generated/openapi.js";
import { BOARD_FIELDS, type RulesetId } from "./generated/operations.js";
import { BoardMemory } from "./boards.js";
import {
  ArbiterNetworkError, ArbiterProblem, ArbiterTimeoutError, BOARD_NOT_FOUND, type ProblemDocument,
} from "./errors.js";
import { parseJson, toJson } from "./json.js";

export type OperationId = keyof operations;
type JsonContent<T> = T extends { content: { "application/json": infer B } } ? B : unknown;
/** The JSON body an operation takes. */
export type RequestBody<K extends OperationId> =
  operations[K] extends { requestBody?: infer R } ? JsonContent<NonNullable<R>> : never;
/** What an operation answers when it succeeds (its 200, or 201 when that is all it has). */
export type Answer<K extends OperationId> = operations[K] extends { responses: infer R }
  ? R extends { 200: infer A } ? JsonContent<A> : R extends { 201: infer A } ? JsonContent<A> : unknown
  : unknown;

export interface Operation {
  operationId: string;
  method: string;
  path: string;
}

export interface ClientOptions {
  /** Where the service is, e.g. "http://127.0.0.1:8000" (no trailing path). */
  baseUrl: string;
  /** An API key (ARBITER_API_KEYS on the service), sent with every request. */
  apiKey?: string;
  /** How the key travels: `Authorization: Bearer <key>` (the default) or `X-API-Key`. */
  apiKeyHeader?: "authorization" | "x-api-key";
  /** Milliseconds a call may take, its retries and their waits included (default 30000). */
  timeoutMs?: number;
  /** How many times a request is sent again (default 3; 0: never). */
  retries?: number;
  /** The first backoff's ceiling in milliseconds, doubled at each retry (default 250). */
  backoffMs?: number;
  /** The largest backoff ceiling (default 8000). A Retry-After is honoured as it is. */
  maxBackoffMs?: number;
  /** "reference": send each state's board by its id once the service has it (and inline
   * again whenever the service says it lacks it); "inline" (the default): as given. */
  boards?: "inline" | "reference";
  /** How many boards the client keeps to resend inline (default 32). */
  boardMemory?: number;
  /** Headers for every request. */
  headers?: Record<string, string>;
  /** A fetch to use in place of the global one. */
  fetch?: typeof fetch;
  /** Send bodies of `COMPRESS_BYTES` or more gzipped (default true), where the platform
   * has `CompressionStream` (browsers, Node 18 and later; React Native sends them as they
   * are). Answers come compressed whatever this says: fetch asks for and decodes them. */
  compress?: boolean;
}

/** Bodies from this size on go gzipped: a 20 KB validate body of 331 hexes goes as about
 * 2.1 KB; a smaller one fits in a packet or two as it is (the service sends answers under
 * 1 KiB as they are for the same reason). */
export const COMPRESS_BYTES = 1024;

export interface CallOptions {
  /** Cancels the call (the AbortSignal's reason is thrown). */
  signal?: AbortSignal;
  /** This call's time, in place of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** This call's retries, in place of the client's `retries`. */
  retries?: number;
  /** Headers for this call (an X-Request-ID, say). */
  headers?: Record<string, string>;
}

const RULESET_ROUTE = /^\/v1\/rulesets\/([a-z0-9_]+)\//;
const RETRIED = new Set([429, 503]);

/** A body whose `state` may carry a board. */
type StateBody = { state: Record<string, unknown> } & Record<string, unknown>;

/** Why a retry waits, and for how long. */
type Retry = { delayMs: number; last: () => Error };

export class Transport {
  readonly boards: BoardMemory;
  private readonly baseUrl: string;
  private readonly options: Required<Pick<ClientOptions, "timeoutMs" | "retries" | "backoffMs" | "maxBackoffMs">>;
  private readonly fetcher: typeof fetch;

  constructor(private readonly config: ClientOptions) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, "");
    this.options = {
      timeoutMs: config.timeoutMs ?? 30_000,
      retries: config.retries ?? 3,
      backoffMs: config.backoffMs ?? 250,
      maxBackoffMs: config.maxBackoffMs ?? 8_000,
    };
    this.boards = new BoardMemory(config.boardMemory ?? 32);
    const found = config.fetch ?? globalThis.fetch;
    if (typeof found !== "function") throw new TypeError("no fetch: pass ClientOptions.fetch");
    this.fetcher = found.bind(globalThis);
  }

  /** Send `body` to one operation; the answer, parsed (JSON numbers past 2^53 as bigint). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(operation: Operation, body: unknown, options: CallOptions = {}, params: Record<string, string> = {}): Promise<any> {
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new TypeError(`${operation.operationId}: no ${name}`);
      return encodeURIComponent(params[name] as string);
    });
    const ruleset = RULESET_ROUTE.exec(operation.path)?.[1];
    return this.withDeadline(options, (signal, deadline) => {
      const send = (sent: unknown) => this.send(operation.method, path, sent, signal, deadline, options);
      if (ruleset && ruleset in BOARD_FIELDS && isStateBody(body)) {
        return this.withBoard(ruleset as RulesetId, body, send);
      }
      return send(body);
    });
  }

  /** A state's board by reference when asked for, and the one retry with the board inline
   * when the service says it does not have the board the state names. */
  private async withBoard(ruleset: RulesetId, body: StateBody, send: (sent: unknown) => Promise<unknown>): Promise<unknown> {
    const prepared = this.boards.prepare(ruleset, body.state, this.config.boards === "reference");
    try {
      const answer = await send({ ...body, state: prepared.state });
      if (prepared.boardId !== null) this.boards.confirm(ruleset, prepared.boardId);
      return answer;
    } catch (error) {
      const id = prepared.boardId;
      const missing = error instanceof ArbiterProblem && error.type === BOARD_NOT_FOUND && id !== null
        && (error.problem["board"] === undefined || error.problem["board"] === id);
      if (!missing) throw error;
      this.boards.dropped(ruleset, id);
      if (prepared.inline === null) throw error; // a board this client never saw
      const answer = await send({ ...body, state: prepared.inline });
      this.boards.confirm(ruleset, id);
      return answer;
    }
  }

  /** `work` under the call's deadline and the caller's AbortSignal. */
  private async withDeadline<T>(options: CallOptions, work: (signal: AbortSignal, deadline: number) => Promise<T>): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const outer = options.signal;
    const cancel = () => controller.abort();
    if (outer?.aborted) cancel();
    outer?.addEventListener("abort", cancel);
    try {
      return await work(controller.signal, Date.now() + timeoutMs);
    } catch (error) {
      if (timedOut) throw new ArbiterTimeoutError(timeoutMs);
      if (outer?.aborted) throw outer.reason ?? error;
      throw error;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", cancel);
    }
  }

  /** One request, sent again on a connection error, a 429 or a 503 while retries and time
   * last. */
  async send(method: string, path: string, body: unknown, signal: AbortSignal, deadline: number,
    options: CallOptions): Promise<unknown> {
    const retries = options.retries ?? this.options.retries;
    const headers = this.headers(body !== undefined, options);
    const init: RequestInit = { method, headers, signal };
    if (body !== undefined) {
      const json = toJson(body);
      const gzipped = this.config.compress === false ? null : await gzip(json);
      init.body = gzipped ?? json;
      if (gzipped) headers["content-encoding"] = "gzip";
    }
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(path, init, attempt);
      if (!("delayMs" in outcome)) return outcome.answer;
      if (attempt >= retries || signal.aborted || Date.now() + outcome.delayMs > deadline) throw outcome.last();
      await sleep(outcome.delayMs, signal);
    }
  }

  private async attempt(path: string, init: RequestInit, attempt: number): Promise<{ answer: unknown } | Retry> {
    let response: Response;
    let text: string;
    try {
      response = await this.fetcher(this.baseUrl + path, init);
      text = await response.text();
    } catch (error) {
      if (init.signal?.aborted) throw error;
      const last = () => new ArbiterNetworkError(`${init.method} ${path}: ${describe(error)}`, error);
      return { delayMs: this.backoff(attempt), last };
    }
    if (response.ok) return { answer: answer(response, text) };
    const problem = () => problemOf(response, text);
    if (RETRIED.has(response.status)) {
      const after = retryAfterMs(response.headers.get("retry-after"));
      return { delayMs: after === null ? this.backoff(attempt) : after + Math.random() * this.options.backoffMs, last: problem };
    }
    throw problem();
  }

  /** Full jitter: anywhere from 0 to a ceiling that doubles with each retry. */
  private backoff(attempt: number): number {
    return Math.random() * Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** attempt);
  }

  private headers(json: boolean, options: CallOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
    if (json) headers["content-type"] = "application/json";
    const key = this.config.apiKey;
    if (key !== undefined) {
      if (this.config.apiKeyHeader === "x-api-key") headers["x-api-key"] = key;
      else headers["authorization"] = `Bearer ${key}`;
    }
    return { ...headers, ...this.config.headers, ...options.headers };
  }
}

function isStateBody(body: unknown): body is StateBody {
  if (typeof body !== "object" || body === null) return false;
  const state = (body as { state?: unknown }).state;
  return typeof state === "object" && state !== null && !Array.isArray(state);
}

function answer(response: Response, text: string): unknown {
  const type = response.headers.get("content-type") ?? "";
  if (!/json/i.test(type)) return text;
  return text === "" ? undefined : parseJson(text);
}

/** The problem an answer carries, or one made from its status when it carries none. */
export function problemOf(response: Response, text: string): ArbiterProblem {
  let body: unknown = null;
  try {
    body = parseJson(text);
  } catch {
    // not JSON: a proxy's page, say
  }
  const sent = typeof body === "object" && body !== null && !Array.isArray(body) ? body as Record<string, unknown> : {};
  const problem: ProblemDocument = {
    ...sent,
    type: typeof sent["type"] === "string" ? sent["type"] : "about:blank",
    title: typeof sent["title"] === "string" ? sent["title"] : (response.statusText || `HTTP ${response.status}`),
    status: response.status,
    detail: typeof sent["detail"] === "string" ? sent["detail"] : text.slice(0, 500),
  };
  return new ArbiterProblem(response.status, problem, response.headers.get("x-request-id"));
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function retryAfterMs(value: string | null): number | null {
  if (value === null) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", done);
      resolve();
    }, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/** `json` gzipped, or null: too small to gain, or no CompressionStream here. */
async function gzip(json: string): Promise<ArrayBuffer | null> {
  if (json.length < COMPRESS_BYTES || typeof CompressionStream !== "function") return null;
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}
