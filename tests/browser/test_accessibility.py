"""axe-core on the main pages, light and dark: no serious or critical violations.

axe.min.js is fetched by scripts/fetch-axe.sh into tests/.cache/ (never vendored into static/).
Injecting it needs a context that bypasses the CSP, used for this check only."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.browser.conftest import conformance, submit_file
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

AXE_VERSION = "4.14.1"
AXE = ROOT / "tests" / ".cache" / f"axe-core-{AXE_VERSION}" / "axe.min.js"
FETCH = ROOT / "scripts" / "fetch-axe.sh"
BLOCKING = ("serious", "critical")

RUN_AXE = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(" "), html: n.html.slice(0, 300), summary: n.failureSummary,
    })),
  }));
}
"""


@pytest.fixture(scope="session")
def axe_script() -> Path:
    if not AXE.exists():
        try:
            done = subprocess.run(
                ["sh", str(FETCH)], capture_output=True, text=True, timeout=120, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.fail(f"could not fetch axe-core {AXE_VERSION} with {FETCH}: {exc}")
        if done.returncode != 0 or not AXE.exists():
            pytest.fail(
                f"could not fetch axe-core {AXE_VERSION} with {FETCH} (exit {done.returncode}); "
                f"it needs npm and the npm registry.\n{done.stdout}\n{done.stderr}"
            )
    return AXE


def readable(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"- {v['impact']}: {v['id']} — {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:10]:
            lines.append(f"    at {node['target']}: {node['html']}")
            lines.append("      " + (node["summary"] or "").replace("\n", "\n      "))
        if len(v["nodes"]) > 10:
            lines.append(f"    … and {len(v['nodes']) - 10} more elements")
    return "\n".join(lines)


def open_(page, what: str) -> None:
    if what.startswith("/"):
        page.goto(what)
    else:
        submit_file(page, conformance(what), what)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_accessibility_violations(
    open_page, make_context, axe_script, scheme
):
    page = open_page(make_context(bypass_csp=True, color_scheme=scheme))
    report = []
    for what in (
        "/",
        "/rules",
        "/rules/OCP-S001",
        "valid-support-handoff.ocp.json",
        "rule-S002-unresolved-blocked-by.ocp.json",
        "json-nan.ocp.json",
    ):
        open_(page, what)
        assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (
            scheme == "dark"
        )
        page.add_script_tag(path=axe_script)
        blocking = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
        if blocking:
            report.append(f"{what} ({scheme}):\n{readable(blocking)}")
    assert not report, "axe-core found serious or critical violations:\n" + "\n".join(report)
