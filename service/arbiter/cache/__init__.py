"""The pathfinding cache: an in-process LRU in front of an optional Redis shared by every
replica. It wraps the rulesets' derived queries from the outside (the engine stays pure):
the ruleset says which inputs make the key, this package stores and fetches answers, and a
wrong or slow Redis only ever costs a recomputation."""

from arbiter.cache.tiered import AnswerCache, CacheStatus

__all__ = ["AnswerCache", "CacheStatus"]
