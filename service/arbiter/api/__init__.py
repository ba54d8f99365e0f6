"""Transport only: REST routes, the GraphQL schema, problem documents and metrics. Every
rule decision is the ruleset's; this package parses, calls and serialises."""
