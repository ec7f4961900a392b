"""The transfer link in two browsers (two Playwright contexts, each with its own cookies): the games follow."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from server.serving import RunningServer
from server.tablepage import TablePage

pytestmark = pytest.mark.browser


def test_a_transfer_link_moves_your_games_to_another_browser(browser: Browser, server: RunningServer) -> None:
    phone_context = browser.new_context()
    laptop_context = browser.new_context()
    try:
        phone = TablePage(phone_context.new_page(), server.url)
        phone.new_game("short")
        game_url = phone.page.url
        laptop = laptop_context.new_page()
        laptop.goto(game_url)
        expect(laptop.locator("h1")).to_have_text("Not your game")
        expect(laptop.locator("main")).to_contain_text("Move your games to another device")

        phone.page.goto(f"{server.url}/")
        phone.page.click("text=Move your games to another device")
        phone.page.wait_for_load_state("load")  # the page's module script has bound the button (CI once clicked first)
        phone.page.click("#make-code")
        link = phone.page.locator("#transfer-link")
        code = re.compile(r"^(\w{4}-){3}\w{4}$")
        expect(phone.page.locator("#transfer-code")).to_have_text(code, timeout=15_000)  # a busy machine
        expect(link).to_have_attribute("href", f"{server.url}/transfer/" + phone.page.inner_text("#transfer-code"))
        expect(phone.page.locator("#transfer-qr svg")).to_be_visible()
        url = link.get_attribute("href")
        assert url is not None

        laptop.goto(url)
        laptop.click("#redeem")
        laptop.wait_for_url(f"{server.url}/")
        expect(laptop.locator(".game-item").first).to_contain_text("Hand 1 of 9")
        laptop.goto(game_url)
        TablePage(laptop, server.url).wait_ready()
        # the link worked once: a second browser is refused
        third = browser.new_context()
        try:
            other = third.new_page()
            other.goto(url)
            other.click("#redeem")
            expect(other.locator("#redeem-error")).to_contain_text("used already")
        finally:
            third.close()
    finally:
        phone_context.close()
        laptop_context.close()
