"""The in-process tier: a least-recently-used map of answers, bounded in entries and in
bytes so a worker's memory stays flat however many boards it sees."""

from __future__ import annotations

import threading
from collections import OrderedDict


class LruCache:
    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self.bytes = 0
        # The service's loop and GraphQL's thread both read and write it.
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: bytes) -> None:
        if self.max_entries <= 0 or len(value) > self.max_bytes // 4:
            return  # one answer never crowds out most of the cache
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= len(old)
            self._items[key] = value
            self.bytes += len(value)
            while len(self._items) > self.max_entries or self.bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0
