"""The installable app offline: a scoresheet seen once stays readable; forms are never served stale."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import start_game


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These tests need the service worker that the other browser tests block."""
    return {**browser_context_args, "service_workers": "allow"}


def test_a_scoresheet_seen_once_stays_readable_offline(page, context, live_server):
    start_game(page, live_server)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the first visit the service worker controls is kept on the phone
    expect(page.locator("h1")).to_have_text("Us v Them")
    assert page.evaluate("!!navigator.serviceWorker.controller")
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("Us v Them")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator(".min-count-figure")).to_have_text(["125", "125"])


def test_a_form_is_never_served_from_the_phone_offline(page, context, live_server):
    start_game(page, live_server)
    game_url = page.url
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.get_by_role("link", name="Enter hand 1").click()  # seen online once
    expect(page.locator("h1")).to_have_text("Hand 1")
    context.set_offline(True)
    page.goto(game_url + "/hands/new")
    expect(page.locator("h1")).to_have_text("No connection")


def test_a_hand_saved_online_is_in_the_copy_kept_for_offline(page, context, live_server):
    start_game(page, live_server)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.get_by_role("link", name="Enter hand 1").click()
    us = page.locator('fieldset[data-side="0"]')
    us.get_by_label("Natural canastas", exact=True).fill("2")
    us.get_by_label("Count: melded minus in hand").fill("150")
    page.get_by_role("button", name="Save hand 1").click()
    # Us: two naturals 1,000 + 150 = 1,150
    expect(page.locator(".total-figure").first).to_have_text("1,150")
    # The copy kept for offline is refreshed in the background: wait until it holds the new hand.
    page.wait_for_function("""async () => {
        const kept = await caches.match(location.pathname);
        return kept && (await kept.text()).includes('id="hand-1"');
    }""")
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator(".total-figure").first).to_have_text("1,150")
