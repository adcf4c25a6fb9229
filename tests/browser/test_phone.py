"""A phone-sized viewport with touch: every hole and every visible control is at least 40 px,
and a jump can be played by tapping."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go, open_app, wait_state

pytestmark = pytest.mark.browser

MIN_TARGET = 40


def assert_large_holes(page) -> None:
    small = []
    for el in page.locator("[data-hole]").all():
        box = el.bounding_box()
        if box["width"] < MIN_TARGET or box["height"] < MIN_TARGET:
            small.append((el.get_attribute("data-hole"), box))
    assert small == [], small


def test_phone_viewport_touch_targets_and_tap_to_play(chromium, server):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
    try:
        page = open_app(context, server.url)
        assert_large_holes(page)
        for el in page.locator("button:visible, select:visible, summary:visible").all():
            box = el.bounding_box()
            assert box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, (el.text_content(), box)
        # the board fits the screen width (no sideways scrolling)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.tap("[data-hole='d6']")
        page.tap("[data-hole='d4']")
        wait_state(page, 1)
        assert "moves=d6-d4" in page.url
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
        for board in ("german", "triangle8", "diamond41"):  # the widest boards of the catalogue
            go(page, f"#board={board}")
            assert_large_holes(page)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, board
    finally:
        context.close()
