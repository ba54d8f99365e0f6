"""Arbiter: rules-as-a-service for board games."""

__version__ = "0.1.0"
