"""axe-core, the accessibility checker (the npm package of ``tests/a11y``, installed by ``tools/setup-venv.sh dev``),
run in a page the browser tests have open.

The page's context must be opened with ``bypass_csp=True``: the checker goes in as a script of the test's own,
which the site's Content-Security-Policy would otherwise refuse.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from playwright.sync_api import Page

AXE: Final = Path(__file__).resolve().parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS: Final = ("serious", "critical")

RUN_JS: Final = """async (serious) => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => serious.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | "));
}"""


def serious_violations(page: Page) -> list[str]:
    """Every serious or critical violation axe-core finds in the page as it is now, one line each."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run tools/setup-venv.sh dev (npm ci in tests/a11y)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(RUN_JS, list(SERIOUS))
    return found
