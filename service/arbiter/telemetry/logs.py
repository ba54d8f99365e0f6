"""Structured logs: every record is one JSON object on one line (or, for a person at a
terminal, one line of text: ``TextFormatter``), and every request gets one
``request`` record (method, path, status, duration, ruleset, bytes in and out, the API
key's identity when keys are on). Every record written while a request is answered,
whichever logger writes it, carries that request's ``request_id`` (``REQUEST_ID``, set by
``Guard``; worker threads inherit it). Request bodies stay out unless
``ARBITER_LOG_BODIES`` is set; tracebacks go to the log, never into a response."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import MutableMapping
from contextvars import ContextVar
from typing import IO, Any

import orjson

ACCESS = logging.getLogger("arbiter.access")
REQUEST_ID: ContextVar[str | None] = ContextVar("arbiter_request_id", default=None)
BODY_LOG_LIMIT = 16 * 1024
# LogRecord's own attributes, and uvicorn's ANSI-coloured copy of its message.
_RESERVED = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message", "color_message", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                    + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


class TextFormatter(logging.Formatter):
    """One line for a person: time, level and message; a request's line reads as
    ``POST /v1/rulesets/hex_maneuver/validate 200 3.1 ms 20656 B in 27800 B out (2690 B
    br)``; the
    other fields, the request id among them, follow as ``name=value``."""

    REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "bytes_in", "bytes_out",
                      "ruleset", "content_encoding", "bytes_encoded")

    def format(self, record: logging.LogRecord) -> str:
        fields = {key: value for key, value in vars(record).items()
                  if key not in _RESERVED and not key.startswith("_")}
        message = record.getMessage()
        if message == "request" and "path" in fields:
            message = (f"{fields['method']} {fields['path']} {fields['status']} "
                       f"{fields['duration_ms']:.1f} ms {fields['bytes_in']} B in "
                       f"{fields['bytes_out']} B out")
            if "content_encoding" in fields:
                message += f" ({fields['bytes_encoded']} B {fields['content_encoding']})"
            fields = {k: v for k, v in fields.items() if k not in self.REQUEST_FIELDS}
        request_id = REQUEST_ID.get()
        if request_id is not None:
            fields["request_id"] = request_id
        moment = time.strftime("%H:%M:%S", time.localtime(record.created))
        line = f"{moment}.{int(record.msecs):03d} {record.levelname:<7} {message}"
        if fields:
            line += "  " + " ".join(f"{k}={v}" for k, v in fields.items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def text_logs(log_format: str, stream: IO[str] | None = None) -> bool:
    """Whether log lines are text: ``ARBITER_LOG_FORMAT=text``, or ``auto`` with stderr
    (``stream``) a terminal."""
    if log_format == "auto":
        return (stream or sys.stderr).isatty()
    return log_format == "text"


def log_config(level: str, text: bool = False) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for ``arbiter serve``: Arbiter's and uvicorn's
    loggers, all as JSON lines on stderr (``text``: as lines for a person)."""
    level = level.upper()
    handler = {"class": "logging.StreamHandler", "formatter": "text" if text else "json",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}, "text": {"()": TextFormatter}},
        "handlers": {"json": handler},
        "loggers": {name: {"handlers": ["json"], "level": level, "propagate": False}
                    for name in ("arbiter", "uvicorn", "uvicorn.error", "uvicorn.access")},
    }


def ruleset_of(path: str) -> str:
    """The ruleset a REST path names (``/v1/rulesets/<id>/...``), else empty."""
    if path.startswith("/v1/rulesets/"):
        return path[len("/v1/rulesets/"):].split("/", 1)[0][:64]
    return ""


def log_request(scope: MutableMapping[str, Any], status: int, seconds: float, bytes_in: int,
                bytes_out: int, body: bytes | None) -> None:
    if not ACCESS.isEnabledFor(logging.INFO):
        return
    path = scope.get("path", "")
    fields: dict[str, Any] = {
        "method": scope.get("method", ""), "path": path[:512], "status": status,
        "duration_ms": round(seconds * 1000, 3), "ruleset": ruleset_of(path),
        "bytes_in": bytes_in, "bytes_out": bytes_out,
    }
    coding = scope.get("arbiter.content_encoding")
    if coding:  # sent encoded by compression.Compress: bytes_out as they went
        fields["content_encoding"] = coding
        fields["bytes_encoded"] = scope.get("arbiter.bytes_sent", 0)
    key = scope.get("state", {}).get("api_key")
    if key:
        fields["api_key"] = key
    if body is not None:
        fields["body"] = body[:BODY_LOG_LIMIT].decode("utf-8", "replace")
        if len(body) > BODY_LOG_LIMIT:
            fields["body_truncated"] = True
    ACCESS.info("request", extra=fields)
