"""The pure rules core: outcomes, hex geometry, pathfinding, seeded randomness and the
ruleset registry. Nothing here does I/O or knows about HTTP, GraphQL or Redis."""
