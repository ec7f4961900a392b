"""The game page of a session that ended elsewhere says "Signed out" and stops, instead of reconnecting for ever."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Browser, expect

from server.accounts import post_form, signed_in
from server.serving import RunningServer
from server.tablepage import TablePage

pytestmark = pytest.mark.browser


def test_a_game_page_whose_session_ended_elsewhere_shows_signed_out(browser: Browser, server: RunningServer) -> None:
    name = f"Pa{uuid.uuid4().hex[:6]}"
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server.url}/signup")
        page.fill("#name", name)
        page.fill("#password", "a long secret")
        page.click("#signup-button")
        page.wait_for_url(f"{server.url}/")
        table = TablePage(page, server.url)
        table.new_game("short")
        table.wait_ready()
        elsewhere = signed_in(server, name)
        assert post_form(elsewhere, "/account", "/signout-everywhere").status_code == 303
        expect(page.locator("#connection")).to_contain_text("Signed out")
        expect(page.locator("#game")).to_have_attribute("data-signed-out", "true")
        expect(page.locator("#connection")).not_to_contain_text("reconnecting")
    finally:
        context.close()
