"""The ``arbiter`` command (``cli.main``): the service, and its answers at the table."""

from arbiter.cli.main import main

__all__ = ["main"]
