"""Benchmarks: `make bench` (python -m tests.bench). Ratios measured side by side in one
run; never timed assertions in the test suite."""
