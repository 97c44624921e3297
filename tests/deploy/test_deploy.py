"""deploy/ against what it must agree with, without Docker (CI has no engine and no registry).

The image runs what CI tests: the Dockerfile's steps are the README's "Run it" commands. The
compose file fills in every variable deploy/nginx.conf has, and the bench fills them in the same
way (:func:`bench.balancer.render`, envsubst's rule: only the names given). The simulated learner
knows the tour's length without importing it; here it is held to the tour.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bench.balancer import TEMPLATE, render
from bench.learner import STEPS, TOUR

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def readme_run_commands() -> list[list[str]]:
    """The commands of the README's "Run it" block, each split into words."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Run it\n+```bash\n(.*?)```", readme, re.S)
    assert block is not None, "README has no Run it block"
    return [shlex.split(c) for line in block[1].splitlines() for c in line.split("&&") if c.strip()]


def dockerfile_commands() -> list[list[str]]:
    """The words of the Dockerfile's RUN and CMD instructions (a CMD's shell string split too)."""
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        if m := re.match(r"(RUN|CMD)\s+(.*)", line):
            body = m[2]
            if body.startswith("["):
                body = " ".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body)).replace('\\"', '"')
            out.append(shlex.split(body))
    return out


@pytest.mark.parametrize("command", readme_run_commands(), ids=" ".join)
def test_the_image_runs_the_readme_commands(command: list[str]) -> None:
    flat = [w for c in dockerfile_commands() for w in c]
    at = [i for i in range(len(flat)) if flat[i : i + len(command)] == command]
    assert at, f"{' '.join(command)} is not in deploy/Dockerfile"


def test_the_image_runs_as_a_user_with_a_health_check() -> None:
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^USER (?!root)\w+", text, re.M)
    assert "HEALTHCHECK" in text and "/_stcore/health" in text
    assert re.search(r"^FROM python:[\d.]+-slim", text, re.M)


def test_compose_fills_in_every_variable_of_the_nginx_template() -> None:
    names = set(re.findall(r"\$\{([A-Z_][A-Z0-9_]*)\}", TEMPLATE.read_text(encoding="utf-8")))
    assert names == {"NGINX_PORT", "STREAMLIT_UPSTREAMS"}
    compose = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    for name in names:
        assert re.search(rf"^\s+{name}: ", compose, re.M), name
    assert "./nginx.conf:/etc/nginx/templates/nginx.conf.template" in compose


def test_render_fills_in_only_the_names_given() -> None:
    template = "listen ${NGINX_PORT}; map $cookie_x $y { }"
    assert render(template, {"NGINX_PORT": "8080"}) == "listen 8080; map $cookie_x $y { }"
    with pytest.raises(ValueError, match="NGINX_PORT"):
        render(template, {})


def test_the_learner_knows_the_tour() -> None:
    from topics.read_along.steps import STEPS as TOUR_STEPS

    assert len(TOUR_STEPS) == TOUR
    assert STEPS <= TOUR
