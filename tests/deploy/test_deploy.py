"""The deploy artefacts — deploy/Dockerfile, .dockerignore, deploy/compose.yaml and the
Kubernetes manifests under deploy/k8s — checked without a Docker engine or a cluster: every
YAML parses and every manifest has its required fields (and, when kubernetes-validate is
installed, matches the Kubernetes API's schema); probes and health checks point at routes
the app answers; every environment variable they set is one arbiter.settings declares; and
the image's command is the entry point this suite starts and probes for real."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from arbiter.http.app import create_app
from arbiter.settings import VARIABLES, Settings
from support import stop

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
DECLARED = {variable.name for variable in VARIABLES}
ARBITER_IMAGE = "arbiter"
# Variables the image sets for Python and pip themselves, not for Arbiter.
PLATFORM_VARIABLES = {"PATH", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
                      "PIP_NO_CACHE_DIR", "PIP_DISABLE_PIP_VERSION_CHECK"}
DNS_1123 = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")


# --- loading ---------------------------------------------------------------------------


class StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key repeated in one mapping: PyYAML would keep the last
    one silently, and the value a reviewer reads first would not be the one deployed.
    Keys brought in by a merge key (<<) may still be overridden, as Compose files do."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


@functools.cache
def load_docs(path: Path) -> tuple[Any, ...]:
    with path.open(encoding="utf-8") as stream:
        return tuple(doc for doc in yaml.load_all(stream, Loader=StrictLoader)
                     if doc is not None)


YAML_FILES = sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])
KUSTOMIZATION = K8S / "kustomization.yaml"
MANIFEST_FILES = [path for path in YAML_FILES
                  if K8S in path.parents and path != KUSTOMIZATION]


def manifests(files: list[Path] = MANIFEST_FILES) -> list[tuple[Path, dict[str, Any]]]:
    return [(path, doc) for path in files for doc in load_docs(path)]


def of_kind(kind: str) -> list[dict[str, Any]]:
    return [doc for _, doc in manifests() if doc.get("kind") == kind]


def one(kind: str, name: str) -> dict[str, Any]:
    found = [doc for doc in of_kind(kind) if doc["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} named {name!r}, found {len(found)}"
    return found[0]


def configmap_data() -> dict[str, str]:
    data: dict[str, str] = one("ConfigMap", "arbiter-config")["data"]
    return data


def pod_spec(deployment: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = deployment["spec"]["template"]["spec"]
    return spec


def arbiter_containers() -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(pod spec, container) for every Arbiter container in the manifests."""
    for deployment in of_kind("Deployment"):
        spec = pod_spec(deployment)
        for container in spec["containers"]:
            if container["image"].split(":")[0].rsplit("/", 1)[-1] == ARBITER_IMAGE:
                yield spec, container


def the_arbiter_container() -> dict[str, Any]:
    containers = [container for _, container in arbiter_containers()]
    assert len(containers) == 1
    return containers[0]


def compose() -> dict[str, Any]:
    docs = load_docs(COMPOSE)
    assert len(docs) == 1
    document: dict[str, Any] = docs[0]
    return document


def compose_arbiter_services() -> dict[str, dict[str, Any]]:
    """Compose services built from this repository's Dockerfile."""
    services = compose()["services"]
    return {name: service for name, service in services.items()
            if isinstance(service.get("build"), dict)
            and (DEPLOY / service["build"]["context"]
                 / service["build"].get("dockerfile", "Dockerfile")).resolve() == DOCKERFILE}


# Compose's required interpolation, ${NAME:?why}: the value comes from the environment or
# deploy/.env, and Compose refuses to start without it.
REQUIRED_VARIABLE = re.compile(r"\$\{(\w+):\?[^}]*\}")


def interpolated(value: str, variables: dict[str, str] | None = None) -> str:
    """A Compose value with each ${NAME:?why} replaced (by a 64-hex-digit stand-in)."""
    return REQUIRED_VARIABLE.sub(lambda m: (variables or {}).get(m.group(1), "ab" * 32),
                                 value)


def compose_environment(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment, in either of Compose's two spellings (mapping or list)."""
    environment = service.get("environment", {})
    if isinstance(environment, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in environment)
    return {name: "" if value is None else str(value) for name, value in environment.items()}


@dataclass(frozen=True)
class Instruction:
    stage: int  # index of the FROM this instruction belongs to; -1 before the first
    keyword: str
    args: str


def dockerfile() -> list[Instruction]:
    """Dockerfile instructions with continuations joined and comments dropped."""
    instructions: list[Instruction] = []
    stage = -1
    pending = ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        instructions.append(Instruction(stage, keyword, args.strip()))
    assert not pending, "the Dockerfile ends inside a continuation"
    return instructions


def final_stage() -> list[Instruction]:
    instructions = dockerfile()
    last = max(instruction.stage for instruction in instructions)
    return [instruction for instruction in instructions if instruction.stage == last]


def exec_form(args: str) -> list[str]:
    argv = json.loads(args)
    assert isinstance(argv, list) and all(isinstance(arg, str) for arg in argv), args
    return argv


def image_command() -> list[str]:
    """ENTRYPOINT followed by CMD of the final stage, as the container runtime runs them."""
    stage = final_stage()
    entrypoint = [i for i in stage if i.keyword == "ENTRYPOINT"]
    cmd = [i for i in stage if i.keyword == "CMD"]
    for found in (entrypoint, cmd):
        for instruction in found:
            assert instruction.args.startswith("["), (
                f"{instruction.keyword} must use the exec form so the server is PID 1 and "
                "receives SIGTERM")
    return [*(exec_form(entrypoint[-1].args) if entrypoint else []),
            *(exec_form(cmd[-1].args) if cmd else [])]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction in final_stage():
        if instruction.keyword != "ENV":
            continue
        tokens = shlex.split(instruction.args)
        if "=" not in tokens[0]:  # legacy form: ENV NAME value
            env[tokens[0]] = " ".join(tokens[1:])
            continue
        for token in tokens:
            name, _, value = token.partition("=")
            env[name] = value
    return env


def healthcheck_command() -> list[str]:
    checks = [i for i in final_stage() if i.keyword == "HEALTHCHECK"]
    assert len(checks) == 1, "the final stage needs one HEALTHCHECK"
    options, found, command = checks[0].args.partition("CMD ")
    assert found and all(option.startswith("--") for option in options.split())
    command = command.strip()
    return exec_form(command) if command.startswith("[") else ["/bin/sh", "-c", command]


def http_get_statuses(paths: set[str]) -> dict[str, int]:
    """GET each path from a freshly built app, in process."""

    async def fetch() -> dict[str, int]:
        transport = httpx.ASGITransport(app=create_app(Settings()))
        async with httpx.AsyncClient(transport=transport, base_url="http://arbiter") as client:
            return {path: (await client.get(path)).status_code for path in sorted(paths)}

    return asyncio.run(fetch())


def redis_options(argv: list[str]) -> dict[str, str]:
    """`redis-server --save "" --maxmemory 1mb` -> {"save": "", "maxmemory": "1mb"}."""
    assert argv and argv[0] == "redis-server", argv
    options: dict[str, str] = {}
    name = None
    for arg in argv[1:]:
        if arg.startswith("--"):
            name = arg[2:]
            options[name] = ""
        else:
            assert name is not None, argv
            options[name] = (options[name] + " " + arg).strip()
    return options


# --- every YAML parses; every manifest has its required fields ---------------------------


def test_the_deploy_files_exist() -> None:
    for path in (DOCKERFILE, COMPOSE, KUSTOMIZATION, K8S / "README.md",
                 ROOT / ".dockerignore"):
        assert path.is_file(), path
    assert len(MANIFEST_FILES) >= 7


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(DEPLOY)))
def test_every_yaml_parses_into_mappings(path: Path) -> None:
    docs = load_docs(path)
    assert docs, f"{path} holds no document"
    assert all(isinstance(doc, dict) for doc in docs)


REQUIRED: dict[str, tuple[str, ...]] = {
    "ConfigMap": ("data",),
    "Deployment": ("spec.selector.matchLabels", "spec.template.metadata.labels",
                   "spec.template.spec.containers"),
    "Service": ("spec.selector", "spec.ports"),
    "HorizontalPodAutoscaler": ("spec.scaleTargetRef.kind", "spec.scaleTargetRef.name",
                                "spec.minReplicas", "spec.maxReplicas", "spec.metrics"),
    "PodDisruptionBudget": ("spec.selector.matchLabels",),
    "Ingress": ("spec.rules",),
}


def lookup(doc: dict[str, Any], dotted: str) -> Any:
    value: Any = doc
    for part in dotted.split("."):
        assert isinstance(value, dict) and part in value, f"missing {dotted}"
        value = value[part]
    return value


@pytest.mark.parametrize("path", MANIFEST_FILES, ids=lambda p: str(p.relative_to(K8S)))
def test_every_manifest_has_its_required_fields(path: Path) -> None:
    for doc in load_docs(path):
        assert isinstance(doc.get("apiVersion"), str) and doc["apiVersion"]
        assert doc.get("kind") in REQUIRED, f"{doc.get('kind')}: add its required fields here"
        assert DNS_1123.match(lookup(doc, "metadata.name"))
        for dotted in REQUIRED[doc["kind"]]:
            assert lookup(doc, dotted) not in (None, "", [], {}), f"{path}: empty {dotted}"
        if doc["kind"] == "Deployment":
            for container in pod_spec(doc)["containers"]:
                assert container.get("name") and container.get("image")
        if doc["kind"] == "PodDisruptionBudget":
            assert ("minAvailable" in doc["spec"]) != ("maxUnavailable" in doc["spec"])
        if doc["kind"] == "ConfigMap":
            # Kubernetes refuses a ConfigMap whose values are numbers or booleans.
            assert all(isinstance(value, str) for value in doc["data"].values())


@pytest.mark.parametrize("version", ["1.29", "latest"])
def test_manifests_match_the_kubernetes_api_schemas(version: str) -> None:
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    if version == "latest":
        version = kubernetes_validate.latest_version()
    errors = []
    for path, doc in manifests():
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as exc:
            errors.append(f"{path.relative_to(K8S)} ({doc['kind']}, Kubernetes {version}): "
                          f"{exc.message} at {list(exc.path)}")
    assert not errors, "\n".join(errors)


def test_the_kustomization_lists_every_manifest_but_the_optional_ones() -> None:
    (kustomization,) = load_docs(KUSTOMIZATION)
    assert kustomization["kind"] == "Kustomization"
    listed = {(K8S / name).resolve() for name in kustomization["resources"]}
    assert all(path.is_file() for path in listed)
    top_level = {path.resolve() for path in MANIFEST_FILES if path.parent == K8S}
    assert listed == top_level
    optional = [path for path in MANIFEST_FILES if path.parent == K8S / "optional"]
    assert any(doc["kind"] == "Ingress" for _, doc in manifests(optional))
    images = {image["name"] for image in kustomization.get("images", [])}
    assert ARBITER_IMAGE in images


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kustomize_renders_the_listed_manifests(tmp_path: Path) -> None:
    # With the secrets file the README has the operator create (never in the repository).
    copy = tmp_path / "k8s"
    shutil.copytree(K8S, copy)
    (copy / "secrets.env").write_text(f"ARBITER_CACHE_KEY={'c' * 64}\n"
                                      f"REDIS_PASSWORD={'r' * 64}\n")
    rendered = subprocess.run(["kubectl", "kustomize", str(copy)], capture_output=True,
                              text=True, timeout=20, check=True).stdout
    docs = [doc for doc in yaml.safe_load_all(rendered) if doc]
    (secret,) = [doc for doc in docs if doc["kind"] == "Secret"]
    assert secret["metadata"]["name"].startswith("arbiter-secrets-")  # named by content
    docs.remove(secret)
    refs = re.findall(r"name: (arbiter-secrets[\w-]*)", rendered)
    assert refs and set(refs) == {secret["metadata"]["name"]}, refs
    top_level = [path for path in MANIFEST_FILES if path.parent == K8S]
    expected = {(doc["kind"], doc["metadata"]["name"]) for _, doc in manifests(top_level)}
    assert {(doc["kind"], doc["metadata"]["name"]) for doc in docs} == expected
    (kustomization,) = load_docs(KUSTOMIZATION)
    (image,) = [i for i in kustomization["images"] if i["name"] == ARBITER_IMAGE]
    images = [container["image"] for doc in docs if doc["kind"] == "Deployment"
              for container in pod_spec(doc)["containers"]]
    assert f"{image['newName']}:{image['newTag']}" in images
    assert not any(name.split(":")[0] == ARBITER_IMAGE for name in images)


# --- the image is the operator's -----------------------------------------------------------

# A host that never resolves (RFC 2606): a name left as shipped fails to pull, loudly,
# rather than pulling whatever a public registry serves as `arbiter`.
UNSET_REGISTRY = "registry.invalid/"


def image_problems(kustomization: dict[str, Any], compose_document: dict[str, Any]
                   ) -> list[str]:
    """Where a shipped image name could be pulled from a registry the operator never
    chose: each must be set by the operator (Compose: a required ${VARIABLE:?}; kustomize:
    a newName under registry.invalid until `kustomize edit set image`)."""
    problems = []
    renamed = {i["name"]: i.get("newName", "") for i in kustomization.get("images", [])}
    for _, container in arbiter_containers():
        name = container["image"].split(":")[0]
        if not renamed.get(name, "").startswith(UNSET_REGISTRY):
            problems.append(f"deploy/k8s: image {container['image']!r} is not replaced by a "
                            f"placeholder under {UNSET_REGISTRY}")
    for service_name, service in compose_document["services"].items():
        if "build" in service and not REQUIRED_VARIABLE.fullmatch(str(service.get("image"))):
            problems.append(f"deploy/compose.yaml {service_name}: image "
                            f"{service.get('image')!r} is not a required ${{VARIABLE:?}}")
    return problems


def test_every_image_name_is_the_operators_to_set() -> None:
    (kustomization,) = load_docs(KUSTOMIZATION)
    assert image_problems(kustomization, compose()) == []
    # And the check can fail: a default name, and no replacement at all.
    import copy

    document = copy.deepcopy(compose())
    document["services"]["arbiter-1"]["image"] = "arbiter:local"
    assert image_problems(kustomization, document)
    for images in ([{"name": ARBITER_IMAGE, "newTag": "0.1.0"}], []):
        assert image_problems({**kustomization, "images": images}, compose())


# --- the pieces fit together -------------------------------------------------------------


def matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(key) == value for key, value in selector.items())


def test_selectors_and_references_resolve() -> None:
    deployments = of_kind("Deployment")
    for deployment in deployments:
        assert matches(deployment["spec"]["selector"]["matchLabels"],
                       deployment["spec"]["template"]["metadata"]["labels"])
    for service in of_kind("Service"):
        (target,) = [d for d in deployments
                     if matches(service["spec"]["selector"], d["spec"]["template"]
                                ["metadata"]["labels"])]
        port_names = {port["name"] for container in pod_spec(target)["containers"]
                      for port in container.get("ports", [])}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in port_names
    arbiter = one("Deployment", "arbiter")
    pdb = one("PodDisruptionBudget", "arbiter")
    assert matches(pdb["spec"]["selector"]["matchLabels"],
                   arbiter["spec"]["template"]["metadata"]["labels"])
    for ingress in of_kind("Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                service = one("Service", backend["name"])
                assert backend["port"].get("name") in {p["name"] for p in
                                                       service["spec"]["ports"]}
    for _, container in arbiter_containers():
        for source in container.get("envFrom", []):
            one("ConfigMap", source["configMapRef"]["name"])


def test_the_autoscaler_owns_the_replica_count_on_cpu() -> None:
    hpa = one("HorizontalPodAutoscaler", "arbiter")
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "arbiter")
    # A replicas field in the Deployment would reset the HPA's choice on every apply.
    assert "replicas" not in one("Deployment", "arbiter")["spec"]
    assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]
            if m["type"] == "Resource"] == ["cpu"]
    assert 2 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    # The disruption budget must leave a drain something to evict at the minimum size.
    spec = one("PodDisruptionBudget", "arbiter")["spec"]
    if "maxUnavailable" in spec:
        assert spec["maxUnavailable"] not in (0, "0%")
    else:
        assert isinstance(spec["minAvailable"], int)
        assert spec["minAvailable"] < hpa["spec"]["minReplicas"]


def test_pods_are_non_root_read_only_and_bounded() -> None:
    for deployment in of_kind("Deployment"):
        spec = pod_spec(deployment)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["runAsUser"] != 0
        for container in spec["containers"]:
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True
            assert context["allowPrivilegeEscalation"] is False
            assert context["capabilities"]["drop"] == ["ALL"]
            for bound in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(container["resources"][bound])
    for spec, container in arbiter_containers():
        tmp = [mount for mount in container["volumeMounts"] if mount["mountPath"] == "/tmp"]
        assert len(tmp) == 1
        (volume,) = [v for v in spec["volumes"] if v["name"] == tmp[0]["name"]]
        assert "emptyDir" in volume
        # Without this, a Service named "arbiter" makes Kubernetes inject
        # ARBITER_PORT=tcp://10.x.y.z:80 into every pod, in Arbiter's own namespace.
        assert spec["enableServiceLinks"] is False


def test_the_image_user_is_the_pods_user() -> None:
    (user,) = [i.args for i in final_stage() if i.keyword == "USER"]
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) != 0, "a numeric uid lets runAsNonRoot verify it"
    context = pod_spec(one("Deployment", "arbiter"))["securityContext"]
    assert context["runAsUser"] == int(uid)
    assert not gid or context["runAsGroup"] == int(gid)


# --- probes and health checks point at routes that answer -------------------------------


def test_probes_and_health_checks_point_at_routes_that_answer() -> None:
    container = the_arbiter_container()
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    paths = set()
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        if probe not in container:
            continue
        get = container[probe]["httpGet"]
        assert get["port"] in ports or get["port"] in ports.values()
        paths.add(get["path"])
    healthcheck = " ".join(healthcheck_command())
    image_paths = set(re.findall(r"['\"](/[\w./-]*)['\"]", healthcheck))
    assert image_paths == {"/healthz"}, healthcheck
    statuses = http_get_statuses(paths | image_paths)
    assert statuses == dict.fromkeys(sorted(paths | image_paths), 200)


def test_the_ports_agree() -> None:
    configured = int(configmap_data().get("ARBITER_PORT", Settings().port))
    assert {port["containerPort"] for port in the_arbiter_container()["ports"]} == {configured}
    exposed = [i.args for i in final_stage() if i.keyword == "EXPOSE"]
    assert exposed == [image_env()["ARBITER_PORT"]]
    for service in compose_arbiter_services().values():
        port = compose_environment(service).get("ARBITER_PORT", image_env()["ARBITER_PORT"])
        assert service["expose"] == [port] and "ports" not in service


# --- environment variables ---------------------------------------------------------------


def test_every_environment_variable_set_is_one_the_settings_declare() -> None:
    set_by: dict[str, set[str]] = {}
    for name in configmap_data():
        set_by.setdefault("deploy/k8s/configmap.yaml", set()).add(name)
    for _, container in arbiter_containers():
        env = container.get("env", [])
        # A variable only put into an ARBITER_* value by $(NAME) (Redis's password into
        # the URL) is the manifest's own, not a setting.
        spliced = {name for variable in env if variable["name"].startswith("ARBITER_")
                   for name in re.findall(r"\$\((\w+)\)", variable.get("value", ""))}
        for variable in env:
            if variable["name"] not in spliced:
                set_by.setdefault("deploy/k8s Deployment env", set()).add(variable["name"])
    for service_name, service in compose_arbiter_services().items():
        set_by[f"deploy/compose.yaml {service_name}"] = set(compose_environment(service))
    image = set(image_env()) - PLATFORM_VARIABLES
    set_by["deploy/Dockerfile ENV"] = image
    assert len(set_by) >= 4 and all(set_by.values())
    undeclared = {source: sorted(names - DECLARED) for source, names in set_by.items()
                  if names - DECLARED}
    assert not undeclared, f"not in arbiter.settings.VARIABLES: {undeclared}"


def test_the_configured_values_are_ones_the_settings_accept() -> None:
    deployed = Settings.from_env(configmap_data())
    assert deployed.host == "0.0.0.0"
    assert deployed.workers == 1
    for service in compose_arbiter_services().values():
        environment = {name: interpolated(value)
                       for name, value in compose_environment(service).items()}
        assert Settings.from_env(environment).host == "0.0.0.0"
    image = Settings.from_env(image_env())
    assert image.host == "0.0.0.0" and image.workers >= 1


def container_env(container: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A container's ``env`` by name (each entry: ``value`` or ``valueFrom``)."""
    return {variable["name"]: variable for variable in container.get("env", [])}


def test_the_redis_urls_point_at_the_bundled_redis() -> None:
    url = urlsplit(container_env(the_arbiter_container())["ARBITER_REDIS_URL"]["value"])
    service = one("Service", url.hostname)
    assert url.scheme == "redis"
    assert url.port in {port["port"] for port in service["spec"]["ports"]}
    services = compose()["services"]
    for arbiter in compose_arbiter_services().values():
        url = urlsplit(interpolated(compose_environment(arbiter)["ARBITER_REDIS_URL"]))
        assert url.hostname in services and url.port == 6379


def test_redis_is_a_cache_without_persistence() -> None:
    redis_containers = [container for deployment in of_kind("Deployment")
                        for container in pod_spec(deployment)["containers"]
                        if container["image"].startswith("redis:")]
    assert len(redis_containers) == 1
    commands = [redis_containers[0]["args"], compose()["services"]["redis"]["command"]]
    for argv in commands:
        options = redis_options(argv)
        assert options["save"] == "" and options["appendonly"] == "no"
        assert options["maxmemory-policy"] == "allkeys-lru"
        assert re.fullmatch(r"\d+[kmg]b", options["maxmemory"])
    for _, doc in manifests():
        assert doc["kind"] not in {"PersistentVolumeClaim", "StatefulSet"}
        if doc["kind"] == "Deployment":
            assert all("persistentVolumeClaim" not in v for v in pod_spec(doc).get("volumes",
                                                                                  []))
    assert not any("volumes" in service for service in compose()["services"].values())


def test_compose_runs_two_replicas_beside_redis_behind_the_edge() -> None:
    arbiters = compose_arbiter_services()
    assert len(arbiters) >= 2
    for service in arbiters.values():
        assert (DEPLOY / service["build"]["context"]).resolve() == ROOT
        assert "redis" in service["depends_on"]
        assert "ports" not in service  # reached through the edge only
    edge = compose()["services"]["edge"]
    assert (DEPLOY / edge["build"]["context"]).resolve() == DEPLOY / "edge"
    assert set(edge["depends_on"]) == set(arbiters)
    (published,) = edge["ports"]
    listen = (DEPLOY / "edge" / "listen.conf").read_text()
    assert re.search(rf"^listen {published.split(':')[-1]};$", listen, re.M), listen
    upstreams = re.findall(r"^server ([\w.-]+):(\d+);$",
                           (DEPLOY / "edge" / "upstreams.conf").read_text(), re.M)
    assert {name for name, _ in upstreams} == set(arbiters)
    assert all(port == compose_environment(arbiters[name]).get("ARBITER_PORT")
               for name, port in upstreams)


# --- the image ---------------------------------------------------------------------------


def test_the_image_is_multi_stage_slim_python_and_installs_no_extras() -> None:
    instructions = dockerfile()
    args = {}
    for instruction in instructions:
        if instruction.stage == -1 and instruction.keyword == "ARG":
            name, _, default = instruction.args.partition("=")
            args[name] = default
    bases = [re.sub(r"\$\{?(\w+)\}?", lambda m: args[m.group(1)], i.args.split()[0])
             for i in instructions if i.keyword == "FROM"]
    assert len(bases) >= 2
    # Pinned: an exact release (python:3.11.7-slim-bookworm), with its digest when known.
    assert all(re.fullmatch(r"python:3\.11\.\d+-slim(-\w+)?(@sha256:[0-9a-f]{64})?", base)
               for base in bases), bases
    installs = [i.args for i in instructions if i.keyword == "RUN" and "pip install" in i.args]
    assert installs and not any("[" in run for run in installs), "runtime deps only"
    # At the versions of the lock the tests ran with.
    assert all("--constraint constraints.txt" in run for run in installs), installs
    copied = " ".join(i.args for i in instructions if i.keyword == "COPY")
    assert "tests" not in copied
    assert any(i.keyword == "COPY" and i.args.startswith("--from=") for i in final_stage())


def test_the_image_command_is_arbiter_serve_on_all_interfaces() -> None:
    assert image_command() == ["arbiter", "serve"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["arbiter"] == "arbiter.cli:main"
    env = image_env()
    assert env["ARBITER_HOST"] == "0.0.0.0"
    assert int(env["ARBITER_WORKERS"]) >= 1
    assert healthcheck_command()[0] == "python", "slim images have no curl"


def ignore_regex(pattern: str) -> str:
    """A .dockerignore pattern as a regex: `*` and `?` stay within one path segment, `**`
    spans any number of them (a leading `**/` also matches none), `[...]` is a class."""
    regex, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            regex, i = regex + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            regex, i = regex + ".*", i + 2
        elif pattern[i] == "*":
            regex, i = regex + "[^/]*", i + 1
        elif pattern[i] == "?":
            regex, i = regex + "[^/]", i + 1
        elif pattern[i] == "[" and "]" in pattern[i:]:
            end = pattern.index("]", i)
            regex, i = regex + pattern[i:end + 1], end + 1
        else:
            regex, i = regex + re.escape(pattern[i]), i + 1
    return regex


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's .dockerignore rule: the last pattern that matches the path or one of its
    parent directories decides, and a pattern starting with `!` re-includes."""
    verdict = False
    parts = path.split("/")
    for pattern in patterns:
        negated = pattern.startswith("!")
        regex = ignore_regex(pattern.lstrip("!").strip("/"))
        if any(re.fullmatch(regex, "/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            verdict = not negated
    return verdict


def test_the_dockerignore_sends_the_sources_and_nothing_else() -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    sources: list[str] = []
    for instruction in dockerfile():
        if instruction.keyword == "COPY" and not instruction.args.startswith("--from"):
            for source in shlex.split(instruction.args)[:-1]:
                sources += [str(p.relative_to(ROOT)) for p in ROOT.glob(source.rstrip("/"))]
    assert "pyproject.toml" in sources and "service" in sources
    sources += ["service/arbiter/http/app.py", "service/arbiter/rulesets/__init__.py"]
    assert [source for source in sources if ignored(source, patterns)] == []
    for unwanted in (".venv/bin/python", ".git/HEAD", "tests/conftest.py", "deploy/Dockerfile",
                     "service/arbiter/http/__pycache__/app.cpython-311.pyc",
                     "service/arbiter.egg-info/PKG-INFO", ".env"):
        assert ignored(unwanted, patterns), unwanted


# --- the entry point, run once -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


@pytest.mark.server
def test_the_image_command_serves_and_passes_its_healthcheck(tmp_path: Path) -> None:
    executable = Path(sys.executable).parent / "arbiter"
    assert executable.exists(), f"{executable}: install the project (pip install -e .)"
    command, *arguments = image_command()
    port = free_port()
    # Loopback here, whatever the image binds: tests talk only to this machine.
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("ARBITER_")}
    env |= {"ARBITER_HOST": "127.0.0.1", "ARBITER_PORT": str(port),
            "ARBITER_LOG_LEVEL": "warning"}
    log = tmp_path / "serve.log"
    healthcheck = [sys.executable, *healthcheck_command()[1:]]
    with log.open("wb") as output:
        server = subprocess.Popen([str(executable.with_name(command)), *arguments], env=env,
                                  stdout=output, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 20
            while get(f"http://127.0.0.1:{port}/healthz") != 200:
                assert server.poll() is None, f"arbiter serve exited: {log.read_text()}"
                assert time.monotonic() < deadline, f"no /healthz in 20 s: {log.read_text()}"
                time.sleep(0.1)
            assert get(f"http://127.0.0.1:{port}/readyz") == 200
            passed = subprocess.run(healthcheck, env=env, timeout=10, capture_output=True)
            assert passed.returncode == 0, passed.stderr
        finally:
            stop(server)
    failed = subprocess.run(healthcheck, env=env, timeout=10, capture_output=True)
    assert failed.returncode != 0, "the HEALTHCHECK must fail when nothing answers"


# --- secrets: a cache key and a Redis password in every shipped configuration -------------
# Anyone who reaches a Redis without a password can write to it, and values written
# without ARBITER_CACHE_KEY are only checksummed: such a one could plant answers that
# every replica serves (issue 29, item 9). Both come from secrets the operator makes,
# never from a literal in the repository.


def generated_secrets() -> set[str]:
    (kustomization,) = load_docs(KUSTOMIZATION)
    return {generator["name"] for generator in kustomization.get("secretGenerator", [])}


def secret_ref(variable: dict[str, Any] | None) -> tuple[str, str] | None:
    """(Secret, key) a container variable is read from, if it is read from one."""
    ref = ((variable or {}).get("valueFrom") or {}).get("secretKeyRef")
    return (ref["name"], ref["key"]) if ref else None


def k8s_secret_problems(docs: list[dict[str, Any]], generated: set[str]) -> list[str]:
    """What leaves the Kubernetes configuration open to planted cache entries."""
    problems = []
    for doc in docs:
        if doc.get("kind") == "Secret":
            problems.append(f"Secret {doc['metadata']['name']}: a literal in the repository "
                            "(use kustomization.yaml's secretGenerator)")
        if doc.get("kind") == "ConfigMap" and "ARBITER_CACHE_KEY" in doc.get("data", {}):
            problems.append("ARBITER_CACHE_KEY in a ConfigMap")
    passwords = set()
    for deployment in [doc for doc in docs if doc.get("kind") == "Deployment"]:
        for container in pod_spec(deployment)["containers"]:
            env = container_env(container)
            if container["image"].split(":")[0].rsplit("/", 1)[-1] == ARBITER_IMAGE:
                key = secret_ref(env.get("ARBITER_CACHE_KEY"))
                if key is None or key[0] not in generated:
                    problems.append("the Arbiter container has no ARBITER_CACHE_KEY from a "
                                    "generated Secret")
                url = urlsplit(env.get("ARBITER_REDIS_URL", {}).get("value", ""))
                spliced = re.fullmatch(r"\$\((\w+)\)", url.password or "")
                password = secret_ref(env.get(spliced.group(1))) if spliced else None
                if password is None or password[0] not in generated:
                    problems.append("ARBITER_REDIS_URL carries no password from a generated "
                                    "Secret")
                passwords.add(password)
            elif container["image"].startswith("redis:"):
                args = container.get("args", [])
                given = args[args.index("--requirepass") + 1] \
                    if "--requirepass" in args[:-1] else ""
                spliced = re.fullmatch(r"\$\((\w+)\)", given)
                required = secret_ref(env.get(spliced.group(1))) if spliced else None
                if required is None:
                    problems.append("Redis requires no password from a Secret")
                passwords.add(required)
    if len(passwords) != 1:
        problems.append(f"Redis and Arbiter take their password from different places: "
                        f"{passwords}")
    return problems


def compose_secret_problems(document: dict[str, Any]) -> list[str]:
    """What leaves the compose file open to planted cache entries."""
    problems = []
    variables = set()
    for name, service in document["services"].items():
        if name in compose_arbiter_services():
            env = compose_environment(service)
            if not REQUIRED_VARIABLE.fullmatch(env.get("ARBITER_CACHE_KEY", "")):
                problems.append(f"{name}: ARBITER_CACHE_KEY is not a required ${{VARIABLE:?}}")
            # (A regex: the interpolation's message is no part of a URL's grammar.)
            url = re.fullmatch(r"redis://:(.*)@[\w.-]+:\d+/\d+",
                               env.get("ARBITER_REDIS_URL", ""))
            found = REQUIRED_VARIABLE.fullmatch(url.group(1)) if url else None
            if found is None:
                problems.append(f"{name}: ARBITER_REDIS_URL has no password from a required "
                                "${VARIABLE:?}")
            variables.add(found.group(1) if found else None)
        elif str(service.get("image", "")).startswith("redis:"):
            options = redis_options(service["command"])
            found = REQUIRED_VARIABLE.fullmatch(options.get("requirepass", ""))
            if found is None:
                problems.append(f"{name}: Redis requires no password from a required "
                                "${VARIABLE:?}")
            variables.add(found.group(1) if found else None)
    if len(variables) != 1:
        problems.append(f"Redis and Arbiter take their password from different variables: "
                        f"{variables}")
    return problems


def test_kubernetes_keys_the_cache_and_redis_needs_a_password() -> None:
    assert generated_secrets() == {"arbiter-secrets"}
    docs = [doc for _, doc in manifests()]
    assert k8s_secret_problems(docs, generated_secrets()) == []
    # A secrets file with a real secret is never part of the repository.
    assert not (K8S / "secrets.env").exists() or "secrets.env" in (ROOT / ".gitignore").read_text()


def test_compose_keys_the_cache_and_redis_needs_a_password() -> None:
    assert compose_secret_problems(compose()) == []


def test_a_configuration_without_them_is_caught() -> None:
    """The checks above can fail: each shipped configuration with one piece taken out."""
    import copy

    docs = [copy.deepcopy(doc) for _, doc in manifests()]
    (arbiter,) = [c for d in docs if d["kind"] == "Deployment"
                  for c in pod_spec(d)["containers"] if c["name"] == "arbiter"]
    (redis,) = [c for d in docs if d["kind"] == "Deployment"
                for c in pod_spec(d)["containers"] if c["image"].startswith("redis:")]
    arbiter["env"] = [v for v in arbiter["env"] if v["name"] != "ARBITER_CACHE_KEY"]
    assert k8s_secret_problems(docs, generated_secrets())
    docs = [copy.deepcopy(doc) for _, doc in manifests()]
    for doc in docs:
        for container in pod_spec(doc)["containers"] if doc["kind"] == "Deployment" else []:
            if container["image"].startswith("redis:"):
                container["args"] = container["args"][:-2]  # no --requirepass
    assert k8s_secret_problems(docs, generated_secrets())
    assert k8s_secret_problems([doc for _, doc in manifests()], set())  # no generator
    assert redis  # (found above)
    document = copy.deepcopy(compose())
    document["services"]["arbiter-1"]["environment"]["ARBITER_CACHE_KEY"] = "x" * 64
    assert compose_secret_problems(document)
    document = copy.deepcopy(compose())
    document["services"]["arbiter-2"]["environment"]["ARBITER_REDIS_URL"] = \
        "redis://redis:6379/0"
    assert compose_secret_problems(document)
