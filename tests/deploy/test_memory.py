"""The pod's memory limit covers one worker's worst case under the deployed settings
(issue 20): the arithmetic of docs/hardening.md, "Answers and memory", from what a live
``arbiter serve`` was measured to hold (VmHWM), applied to the ConfigMap's settings."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from tests.deploy.test_deploy import arbiter_containers, configmap_data

from arbiter.rulesets.hex_maneuver.board import MAP_CACHE_BYTES
from arbiter.settings import Settings

DEPLOYMENT = Path(__file__).resolve().parents[2] / "deploy" / "k8s" / "deployment.yaml"

MIB = 1 << 20
# Measured (docs/hardening.md, "Answers and memory"; VmHWM of a fresh live ``arbiter serve``):
# - an idle worker after start-up: 83 MiB;
# - boards kept by reference: about 26 times their JSON, parsed and compiled;
# - one slot of the compute threads (REST and GraphQL share them, a GraphQL operation from
#   its first judging until its answer is written): a GraphQL reachable of 2.9 MB took
#   +136 MiB, 47 times its answer (REST: +56 MiB, 19 times), so 47 x the answer limit;
# - GraphQL's own thread reads one operation's variables at a time outside the slots:
#   the worst body within every JSON bound (1 MiB, 100,000 problems) took +81 MiB, 81
#   times the body limit.
IDLE = 83 * MIB
BOARD_FACTOR = 26
SLOT_FACTOR = 47
PARSE_FACTOR = 81


def quantity(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(Ki|Mi|Gi)?", text).groups()  # type: ignore[union-attr]  # a bad quantity fails the test
    return int(number) << {"Ki": 10, "Mi": 20, "Gi": 30, None: 0}[unit]


def worst_case(settings: Settings) -> int:
    """One worker's most memory under ``settings``."""
    return (IDLE + settings.cache_max_bytes + BOARD_FACTOR * settings.board_cache_bytes
            + MAP_CACHE_BYTES
            + settings.max_in_flight * settings.max_body_bytes
            + settings.compute_threads * SLOT_FACTOR * settings.max_answer_bytes
            + PARSE_FACTOR * settings.max_body_bytes)


def in_memory_tmp() -> int:
    """The size limit of the pod's memory-backed volumes, which count against its limit."""
    deployment = next(d for d in yaml.safe_load_all(DEPLOYMENT.read_text())
                      if d and d.get("kind") == "Deployment")
    return sum(quantity(v["emptyDir"]["sizeLimit"])
               for v in deployment["spec"]["template"]["spec"].get("volumes", [])
               if v.get("emptyDir", {}).get("medium") == "Memory")


def test_the_memory_limit_covers_the_deployed_settings_worst_case() -> None:
    deployed = Settings.from_env(configmap_data())
    need = worst_case(deployed) * deployed.workers + in_memory_tmp()
    for _, container in arbiter_containers():
        limit = quantity(container["resources"]["limits"]["memory"])
        assert need <= limit, (f"{need / MIB:.0f} MiB worst case over the "
                               f"{limit / MIB:.0f} MiB limit (docs/hardening.md)")
        # ... with some headroom, and not so loose the figure means nothing.
        assert need < 0.9 * limit and need > 0.5 * limit, (need / MIB, limit / MIB)


def test_the_arithmetic_reacts_to_the_settings() -> None:
    base = worst_case(Settings.from_env({}))
    assert worst_case(Settings.from_env({"ARBITER_COMPUTE_THREADS": "4"})) > base + 100 * MIB
    assert worst_case(Settings.from_env({"ARBITER_BOARD_CACHE_BYTES": "67108864"})) > 1 << 30
