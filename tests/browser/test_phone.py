"""A phone-sized viewport with touch: every hole is at least 44 px where the board fits (boards
up to 8 columns wide; 40 px on the 9-column German and Diamond boards, which cannot reach 44 px
on a 390 px screen), every visible control at least 40 px, a jump can be played by tapping, and
during playback the board and the playback controls are on the screen together, Play included."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, go, open_app, wait_state

pytestmark = pytest.mark.browser

MIN_TARGET = 40
MIN_HOLE = 44
WIDE_BOARDS = ("german", "diamond41")  # 9 columns: 390 / 9 < 44


def assert_large_holes(page, least: float = MIN_HOLE) -> None:
    small = []
    for el in page.locator("[data-hole]").all():
        box = el.bounding_box()
        if box["width"] < least or box["height"] < least:
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
        for board in ("french", "asymmetric", "triangle7", "triangle8", *WIDE_BOARDS):
            go(page, f"#board={board}")
            assert_large_holes(page, MIN_TARGET if board in WIDE_BOARDS else MIN_HOLE)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, board
    finally:
        context.close()


def in_view(box, height=844) -> bool:
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_phone_playback_keeps_the_board_and_the_controls_on_screen(chromium, server):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
    try:
        page = open_app(context, server.url + "#board=english&start=d4&goal=d4")
        page.get_by_role("button", name="Solve").tap()
        page.wait_for_function("window.pegLab.solves.length > 0", timeout=120_000)
        page.wait_for_selector("#playback:not([hidden])")
        board = page.locator("#board").bounding_box()
        assert in_view(board), board
        for name in ("Start", "Back", "Play", "Forward", "End"):
            button = page.get_by_role("button", name=name, exact=True)
            box = button.bounding_box()
            assert in_view(box) and box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, (name, box)
            assert box["y"] >= board["y"] + board["height"] - 1, (name, box, board)  # not over the board
        assert in_view(page.locator("#pb-scrubber").bounding_box())
        scroll = page.evaluate("window.scrollY")
        page.get_by_role("button", name="Play", exact=True).tap()
        wait_state(page, 3)
        assert page.evaluate("window.scrollY") == scroll
        assert in_view(page.locator("#board").bounding_box())
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-playback.png"))
        page.get_by_role("button", name="Pause", exact=True).tap()
    finally:
        context.close()
