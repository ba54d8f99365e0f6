// @arbiter/client: a typed client for the Arbiter rules service.
//
//   const arbiter = new ArbiterClient({ baseUrl: "http://127.0.0.1:8000" });
//   const outcome = await arbiter.hexManeuver.validate({ state, action });
//
// The per-ruleset methods and every type come from schema/openapi.json
// (src/generated/, by scripts/generate.mjs); this file adds what no document says: the
// GraphQL helper and the boards this client remembers.

import { GeneratedClient, type RulesetId } from "./generated/operations.js";
import { gql, runGraphQL, type TypedQuery } from "./graphql.js";
import { Transport, type CallOptions, type ClientOptions } from "./transport.js";

export class ArbiterClient extends GeneratedClient {
  constructor(options: ClientOptions) {
    super(new Transport(options));
  }

  /** POST /graphql: `data` typed by the query (see `gql`), or ArbiterGraphQLError. */
  graphql<Data, Variables>(query: TypedQuery<Data, Variables>, variables?: Variables,
    options?: CallOptions & { operationName?: string }): Promise<Data> {
    return runGraphQL(this.transport, query, variables, options);
  }

  /** The id of the board a state carries ("sha256:..."), or null when it carries none. */
  boardId(ruleset: RulesetId, state: Record<string, unknown>): string | null {
    return this.transport.boards.id(ruleset, state);
  }

  /** A state with its board by reference (an answer's resulting state, say) with the board
   * filled in from the boards this client has sent; the state itself when it has none. */
  wholeState<S extends Record<string, unknown>>(ruleset: RulesetId, state: S): S {
    return this.transport.boards.whole(ruleset, state);
  }
}

export { gql };
export type { TypedQuery };
export { boardId, boardOf } from "./boards.js";
export { canonicalJson, parseJson, toJson, type Json } from "./json.js";
export { COMPRESS_BYTES } from "./transport.js";
export {
  ArbiterError, ArbiterGraphQLError, ArbiterNetworkError, ArbiterProblem, ArbiterTimeoutError,
  BOARD_NOT_FOUND, type GraphQLErrorEntry, type ProblemDocument,
} from "./errors.js";
export { API_VERSION, BOARD_FIELDS, type RulesetId } from "./generated/operations.js";
export type { Answer, CallOptions, ClientOptions, OperationId, RequestBody } from "./transport.js";
export type { components, operations, paths } from "./generated/openapi.js";
