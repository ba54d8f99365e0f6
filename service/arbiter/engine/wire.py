"""The wire primitives every ruleset's models share: a frozen model that refuses unknown
fields, an id, a bounded count, a seed, a snake_case word. A ruleset with a bound of its
own (a count that may be 1 at least, a signed count its board check reports) declares it
beside its models and says why."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

MAX_COUNT = 10_000


class Frozen(BaseModel):
    """Every wire model: immutable (a request is never changed) and strict about its keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


Id = Annotated[str, Field(min_length=1, max_length=64)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Seed = Annotated[int, Field(ge=0, le=2**64 - 1)]
# Open-ended kinds and markers ("farmland", "hole_in_the_ground"): free snake_case words
# rather than enums where the catalogue lists the known ones but a board may add others.
Word = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_]*$")]
