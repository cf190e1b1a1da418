"""The end-of-night report in a real browser (Playwright + Debian's Chromium): it prints on A4 and Letter."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# The printable width at 96 px per inch: the paper less the report's 14 mm side margins (@page).
PRINTABLE_PX = {"A4": round((210 - 2 * 14) / 25.4 * 96), "Letter": round((215.9 - 2 * 14) / 25.4 * 96)}

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is not at /usr/bin/chromium "
                       "(apt-get install chromium; never `playwright install`)"),
    pytest.mark.filterwarnings("ignore::pytest.PytestRemovedIn10Warning"),
]
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture
def report(floor, mini_root, tmp_path, monkeypatch) -> Path:
    """A report of a night with long names, a long note, a correction and penalties."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("FLOORCALL_NAME", "Dee")
    walk = ("--root", mini_root, "walk", "overchip", "--answer")
    long_name = "Maximiliano " + "Z" * 60
    for answer, extra in (("silent", ["--player", "Ann Lee", "--penalty", "warning", "--note", "n" * 500]),
                          ("said-raise", ["--player", long_name, "--seat", "10", "--table", "Feature-A-Outer-9999"]),
                          ("silent", ["--player", "Ann Lee", "--penalty", "2 rounds"])):
        assert floor(*walk, f"declared={answer}", "--log", "--event", "Friday NLH", *extra).exit_code == 0
    assert floor("--root", mini_root, "log", "correct", "2", "--seat", "9").exit_code == 0
    out = tmp_path / "friday.html"
    assert floor("--root", mini_root, "log", "report", "--event", "Friday NLH", "--out", out).exit_code == 0
    return out


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_report_prints_without_overflow(page, report, paper):
    """In print media at the paper's printable width nothing sticks out sideways, and the PDF has pages."""
    page.set_viewport_size({"width": PRINTABLE_PX[paper], "height": 1000})
    page.emulate_media(media="print")
    page.goto(report.as_uri())
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert page.locator("article.ruling").count() == 4
    assert page.locator("article.ruling.superseded").count() == 1
    pdf = page.pdf(format=paper, prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") >= 1
