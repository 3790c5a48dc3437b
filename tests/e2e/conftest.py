"""Browser tests: the real app served on a free local port, driven by Playwright in Chromium at a phone's size.

Chromium: Debian's /usr/bin/chromium where it is installed (Playwright cannot download its own browser
on every machine); otherwise Playwright's own. If neither is there, the launch fails loudly.
"""

from __future__ import annotations

import os
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorepad import create_app
from scorepad.models import db

DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-gpu"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium when it is there, with the flags this closed network needs."""
    args = {**browser_type_launch_args, "args": CHROMIUM_FLAGS}
    if os.path.exists(DEBIAN_CHROMIUM):
        args["executable_path"] = DEBIAN_CHROMIUM
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every page at a phone's size, with touch, as the scorekeeper holds it."""
    return {**browser_context_args, "viewport": PHONE, "has_touch": True, "is_mobile": True,
            "device_scale_factor": 2, "service_workers": "block"}


@pytest.fixture
def live_server(tmp_path):
    """The app on a fresh SQLite file, served on a free local port for the length of one test."""
    app = create_app({"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e2e.sqlite'}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    with app.app_context():
        db.engine.dispose()


def no_horizontal_scroll(page) -> bool:
    """Whether the page fits the screen's width (nothing to scroll sideways).

    Compared with the viewport we set, not window.innerWidth: a mobile browser widens its layout
    viewport to fit content that is too wide, and would hide the very overflow we look for.
    """
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def start_game(page, live_server) -> None:
    """Start a modern game from the new-game page: Ann & Cleo (Us) against Bea & Dot (Them), Ann deals."""
    page.goto(live_server + "/games/new")
    for label, name in (("Player 1 of side 1", "Ann"), ("Player 2 of side 1", "Cleo"),
                        ("Player 1 of side 2", "Bea"), ("Player 2 of side 2", "Dot")):
        page.get_by_label(label).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Us v Them")
