"""What a GraphQL operation is served with: the app's ``Service`` and the GraphQL limits
its settings set. The endpoint puts it in every request's context (strawberry's
``get_context``, under ``SERVED``), and the resolvers (``info.context``), the limits'
extensions and the budgeted execution (graphql-core's ``context_value``) read it there.

So the schema itself holds no app: its shape is the rulesets' (and the public URL's, in
its ``@specifiedBy`` links), and one schema serves every app of a process that serves the
same rulesets (``schema.build_schema``), each app's requests carrying its own service,
limits and compute budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.graphql.cost import CostLimits
from arbiter.service.lifecycle import Service
from arbiter.settings import Settings

# The key of the context's ``Served`` (the context stays strawberry's dict, whose
# ``request`` the new-game field reads).
SERVED = "arbiter"


@dataclass(frozen=True, slots=True)
class Served:
    """One app's service and its GraphQL limits: the document's cost (``cost``), its
    tokens (``max_tokens``) and, through the service, the request's compute budget."""

    service: Service
    cost: CostLimits
    max_tokens: int

    @classmethod
    def from_settings(cls, settings: Settings, service: Service) -> Served:
        return cls(service, CostLimits.from_settings(settings), settings.graphql_max_tokens)

    @property
    def budget_ms(self) -> int:
        return self.service.compute.budget_ms


def served(context: Any) -> Served:
    """The ``Served`` of an operation's context: every operation of the schema runs with
    one (the endpoint's), and one run without it is a programming error, said here rather
    than as a KeyError in the middle of a resolver."""
    found = context.get(SERVED) if isinstance(context, dict) else None
    if not isinstance(found, Served):
        raise TypeError(f"the operation's context has no Served under {SERVED!r}: run "
                        "the schema through GraphQLEndpoint or give it context_value="
                        f"{{{SERVED!r}: Served(...)}}")
    return found


def service_of(context: Any) -> Service:
    return served(context).service


def cost_of(context: Any) -> CostLimits:
    return served(context).cost


def max_tokens_of(context: Any) -> int:
    return served(context).max_tokens


def budget_ms_of(context: Any) -> int:
    return served(context).budget_ms
