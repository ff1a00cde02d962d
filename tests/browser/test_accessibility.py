"""axe-core on the main pages, light and dark: no serious or critical violations.

axe.min.js is fetched by scripts/fetch-axe.sh into tests/.cache/ (never vendored into static/).
Injecting it needs a context that bypasses the CSP, used for this check only."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.browser.conftest import conformance, own_lineage, paste, store, submit_file
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

AXE_VERSION = "4.14.1"
AXE = ROOT / "tests" / ".cache" / f"axe-core-{AXE_VERSION}" / "axe.min.js"
FETCH = ROOT / "scripts" / "fetch-axe.sh"
BLOCKING = ("serious", "critical")

# Violations, and what axe could not decide ("needs review", `incomplete`): a serious or
# critical item there is a page axe cannot vouch for, as much a problem as a violation.
RUN_AXE = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations", "incomplete"] });
  const one = (kind) => (v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, kind,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(" "), html: n.html.slice(0, 300),
      summary: n.failureSummary || n.any.concat(n.all).map((c) => c.message).join("; "),
    })),
  });
  return result.violations.map(one("violation")).concat(result.incomplete.map(one("needs review")));
}
"""
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


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
        lines.append(f"- {v['impact']} ({v['kind']}): {v['id']} — {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:10]:
            lines.append(f"    at {node['target']}: {node['html']}")
            lines.append("      " + (node["summary"] or "").replace("\n", "\n      "))
        if len(v["nodes"]) > 10:
            lines.append(f"    … and {len(v['nodes']) - 10} more elements")
    return "\n".join(lines)


SCHEMES = ("light", "dark")


def check_every_way(
    page, axe_script: Path, what: str, report: list[str], sizes: tuple[str, ...] = tuple(SIZES)
) -> None:
    """axe on the page as it stands, in each colour scheme at each size: the page is loaded
    once and only restyled and laid out again, as a person switching themes or turning a
    phone would see it."""
    page.add_script_tag(path=axe_script)
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark"), (what, scheme)
        for size in sizes:
            page.set_viewport_size(SIZES[size])
            blocking = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
            if blocking:
                report.append(f"{what} ({scheme}, {size}):\n{readable(blocking)}")


def open_(page, what: str) -> None:
    if what.startswith("/"):
        page.goto(what)
    else:
        submit_file(page, conformance(what), what)


def test_no_serious_or_critical_accessibility_violations(open_page, make_context, axe_script):
    page = open_page(make_context(bypass_csp=True))
    report: list[str] = []
    for what in (
        "/",
        "/rules",
        "/rules/OCP-S001",
        "valid-support-handoff.ocp.json",
        "rule-S002-unresolved-blocked-by.ocp.json",
        "json-nan.ocp.json",
    ):
        open_(page, what)
        check_every_way(page, axe_script, what, report)
    assert not report, "axe-core found serious or critical violations:\n" + "\n".join(report)


def test_the_pages_of_stored_checkpoints_have_no_serious_violations(
    open_page, make_context, problems, axe_script
):
    """The share result, the permalink, its lineage tree and diffs, a pasted diff, the delete
    form and the gone and not-found pages, light and dark."""
    page = open_page(make_context(bypass_csp=True))
    parent_document, child_document = own_lineage()
    parent = store(page, parent_document)
    child = store(page, child_document, parent=parent["storage_id"])
    gone = store(page, json.loads(conformance("valid-support-handoff.ocp.json")))
    deleted = page.request.delete(
        f"/api/v1/checkpoints/{gone['storage_id']}",
        headers={"authorization": f"Bearer {gone['deletion_token']}"},
    )
    assert deleted.ok
    problems.expect(lambda text: "410" in text or "404" in text)  # failed loads are logged

    report: list[str] = []

    def check(what: str) -> None:
        check_every_way(page, axe_script, what, report, sizes=("desktop",))

    submit_file(page, conformance("valid-support-handoff.ocp.json"), "handoff.ocp.json")
    with page.expect_navigation(url="**/share"):
        page.click("aside.share button[type=submit]")
    check("the share result")

    child_id, parent_id = child["storage_id"], parent["storage_id"]
    for path in (
        f"/c/{child_id}",
        f"/c/{child_id}/lineage",
        f"/c/{child_id}/diff",
        f"/diff?from={parent_id}&to={child_id}",
        f"/c/{child_id}/delete",
        f"/c/{gone['storage_id']}",
        "/c/AAAAAAAAAAAAAAAAAAAAAAAA",
    ):
        page.goto(path)
        check(path)

    page.goto("/")
    paste(page, "#checkpoint", json.dumps(child_document, indent=2))
    page.click("details.parent-input summary")
    paste(page, "#parent", json.dumps(parent_document, indent=2))
    with page.expect_navigation(url="**/diff"):
        page.click("button[formaction='/diff']")
    check("a pasted diff")

    assert not report, "axe-core found serious or critical violations:\n" + "\n".join(report)
