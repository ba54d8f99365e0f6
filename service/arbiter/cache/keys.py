"""Cache keys: a digest of the canonical bytes of every input that can change an answer,
prefixed with the encoding version, the ruleset and its version, and the query. The
client never chooses a key."""

from __future__ import annotations

import hashlib

# Bump when the stored value format or the key material changes meaning.
ENCODING_VERSION = "e1"


def cache_key(ruleset: str, version: str, query: str, material: bytes) -> str:
    digest = hashlib.blake2b(material, digest_size=20).hexdigest()
    return f"arbiter:{ENCODING_VERSION}:{ruleset}:{version}:{query}:{digest}"
