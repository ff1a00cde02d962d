"""`ocp render`'s file as a browser shows it (issue 27): the header keeps its text off the
window's edge, as the service's pages do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE

pytestmark = pytest.mark.browser

OCP = Path(sys.executable).parent / "ocp"


def test_the_rendered_files_header_is_padded(open_page) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OCP_PUBLIC_URL"}
    done = subprocess.run(
        [str(OCP), "render", str(CONFORMANCE / "valid-support-handoff.ocp.json")],
        capture_output=True,
        timeout=120,
        env=env,
    )
    page = open_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.set_content(done.stdout.decode())
    padding = """() => {
        const style = getComputedStyle(document.querySelector("header.site .brand"));
        return [parseFloat(style.paddingTop), parseFloat(style.paddingLeft)];
    }"""
    # the brand's text sits inside padding, not against the window's edges
    top, left = page.evaluate(padding)
    assert top >= 6 and left >= 16
    page.set_viewport_size({"width": 390, "height": 844})
    top, left = page.evaluate(padding)
    assert top >= 6 and left >= 12
