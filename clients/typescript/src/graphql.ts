// POST /graphql with typed variables and result: a query declared once with `gql` carries
// its result and variables types to every `client.graphql(...)` call. The same retry
// rules and deadline as every other call; GraphQL errors throw ArbiterGraphQLError with
// their extensions (`code`, and `problems` with JSON pointers for bad input).

import { ArbiterGraphQLError, ArbiterProblem, type GraphQLErrorEntry } from "./errors.js";
import type { CallOptions, Transport } from "./transport.js";

/** A GraphQL document whose result is `Data` and whose variables are `Variables`. */
export type TypedQuery<Data, Variables> = string & { readonly __data?: Data; readonly __variables?: Variables };

/** Give a query its result and variables types: `gql<{ ... }, { state: ... }>("query ...")`. */
export function gql<Data, Variables = Record<string, never>>(source: string): TypedQuery<Data, Variables> {
  return source as TypedQuery<Data, Variables>;
}

const GRAPHQL = { operationId: "graphql", method: "POST", path: "/graphql" };

/** Run a query or mutation; its `data`, or ArbiterGraphQLError when the answer has errors. */
export async function runGraphQL<Data, Variables>(
  transport: Transport, query: TypedQuery<Data, Variables>, variables?: Variables,
  options?: CallOptions & { operationName?: string },
): Promise<Data> {
  const body: Record<string, unknown> = { query };
  if (variables !== undefined) body["variables"] = variables;
  if (options?.operationName !== undefined) body["operationName"] = options.operationName;
  let answer: { data?: Data | null; errors?: GraphQLErrorEntry[] };
  try {
    answer = await transport.call(GRAPHQL, body, options);
  } catch (error) {
    // A GraphQL-over-HTTP server may answer a refused document with a 4xx and `errors`.
    if (!(error instanceof ArbiterProblem)) throw error;
    const errors: unknown = error.problem.errors;
    if (Array.isArray(errors) && errors.length > 0 && typeof errors[0]?.message === "string") {
      throw new ArbiterGraphQLError(errors as GraphQLErrorEntry[], error.problem["data"] ?? null, error.status);
    }
    throw error;
  }
  if (answer.errors?.length) throw new ArbiterGraphQLError(answer.errors, answer.data ?? null, 200);
  return answer.data as Data;
}
