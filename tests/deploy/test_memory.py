"""The pod's memory limit covers one worker's worst case under the deployed settings
(issue 20): the arithmetic of README.md, Hardening, "Answers and memory", from what a live
``arbiter serve`` was measured to hold (VmHWM), applied to the ConfigMap's settings."""

from __future__ import annotations

import re

from tests.deploy.test_deploy import arbiter_containers, configmap_data

from arbiter.settings import Settings

MIB = 1 << 20
# Measured (README): an idle worker after start-up; boards kept by reference take about 26
# times their JSON parsed and compiled; one request judged takes about 15 times the answer
# limit (a 3.5 MB reachable answer: +58 MiB).
IDLE = 70 * MIB
BOARD_FACTOR = 26
REQUEST_FACTOR = 15


def quantity(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(Ki|Mi|Gi)?", text).groups()  # type: ignore[union-attr]  # a bad quantity fails the test
    return int(number) << {"Ki": 10, "Mi": 20, "Gi": 30, None: 0}[unit]


def worst_case(settings: Settings) -> int:
    return (IDLE + settings.cache_max_bytes + BOARD_FACTOR * settings.board_cache_bytes
            + settings.max_in_flight * settings.max_body_bytes
            + settings.compute_threads * REQUEST_FACTOR * settings.max_answer_bytes)


def test_the_memory_limit_covers_the_deployed_settings_worst_case() -> None:
    deployed = Settings.from_env(configmap_data())
    need = worst_case(deployed) * deployed.workers
    for _, container in arbiter_containers():
        limit = quantity(container["resources"]["limits"]["memory"])
        assert need <= limit, (f"{need / MIB:.0f} MiB worst case over the "
                               f"{limit / MIB:.0f} MiB limit (README, Hardening)")
        # ... with some headroom, and not so loose the figure means nothing.
        assert need < 0.9 * limit and need > 0.5 * limit, (need / MIB, limit / MIB)


def test_the_arithmetic_reacts_to_the_settings() -> None:
    base = worst_case(Settings.from_env({}))
    assert worst_case(Settings.from_env({"ARBITER_COMPUTE_THREADS": "4"})) > base + 100 * MIB
    assert worst_case(Settings.from_env({"ARBITER_BOARD_CACHE_BYTES": "67108864"})) > 1 << 30
