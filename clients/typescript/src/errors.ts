// What a call throws. A verdict is never an error: an illegal action is an answer
// (`legal: false` with its violations). These are for requests the service did not judge.

import type { components } from "./generated/openapi.js";

/** An RFC 9457 problem document as the service sends it (application/problem+json):
 * `errors` names the JSON pointer (RFC 6901) of every bad field of the request body; a
 * problem may carry more members (`board`, `limit`, `maximum`, `retry_after`, ...). */
export type ProblemDocument = components["schemas"]["Problem"] & { [member: string]: unknown };

export const BOARD_NOT_FOUND = "urn:arbiter:problem:board-not-found";

/** The root of everything this client throws. */
export class ArbiterError extends Error {
  override name = "ArbiterError";
}

/** The service answered with a problem: 4xx (a malformed request, an unknown ruleset, a
 * missing API key, ...) or a 429/503 that outlasted the retries. */
export class ArbiterProblem extends ArbiterError {
  override name = "ArbiterProblem";

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The problem document (one made from the status when the body was not one). */
    readonly problem: ProblemDocument,
    /** The X-Request-ID of the answer: quote it when reporting a problem. */
    readonly requestId: string | null = null,
  ) {
    super(`${status} ${problem.title}: ${problem.detail}` +
      (problem.errors?.length ? ` (${problem.errors.map((e) => `${e.pointer || "/"}: ${e.detail}`).join("; ")})` : ""));
  }

  /** The problem's type URI, e.g. urn:arbiter:problem:invalid-request. */
  get type(): string {
    return this.problem.type;
  }

  /** Each bad field: its JSON pointer into the request body, and what is wrong with it. */
  get errors(): { pointer: string; detail: string }[] {
    return this.problem.errors ?? [];
  }

  /** The JSON pointers of the bad fields. */
  get pointers(): string[] {
    return this.errors.map((e) => e.pointer);
  }
}

/** No answer: the connection failed (after the retries), or the answer was cut off. */
export class ArbiterNetworkError extends ArbiterError {
  override name = "ArbiterNetworkError";

  constructor(message: string, override readonly cause: unknown) {
    super(message);
  }
}

/** The call's time (`timeoutMs`, retries and their waits included) ran out. */
export class ArbiterTimeoutError extends ArbiterError {
  override name = "ArbiterTimeoutError";

  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** One GraphQL error as the service sends it: `extensions.code` (BAD_USER_INPUT,
 * BOARD_NOT_FOUND, ...) and, for bad input, `extensions.problems` with JSON pointers. */
export interface GraphQLErrorEntry {
  message: string;
  path?: (string | number)[];
  locations?: { line: number; column: number }[];
  extensions?: { code?: string; problems?: { pointer: string; detail: string }[]; [key: string]: unknown };
}

/** A GraphQL answer with `errors`: every error with its extensions, and the data that did
 * come (a field that failed is null in it). */
export class ArbiterGraphQLError extends ArbiterError {
  override name = "ArbiterGraphQLError";

  constructor(readonly errors: GraphQLErrorEntry[], readonly data: unknown, readonly status: number) {
    super(errors.map((e) => (e.extensions?.code ? `${e.extensions.code}: ` : "") + e.message).join("; "));
  }

  /** The `extensions.code` of each error. */
  get codes(): string[] {
    return this.errors.map((e) => e.extensions?.code ?? "");
  }
}
