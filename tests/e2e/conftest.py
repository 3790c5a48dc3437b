"""Browser tests: the real app served on a free local port, driven by Playwright in Chromium at a phone's size.

Chromium: Debian's /usr/bin/chromium where it is installed (Playwright cannot download its own browser
on every machine); otherwise Playwright's own. If neither is there, the launch fails loudly.
"""

from __future__ import annotations

import os
import re
import socket
import struct
import threading
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorepad import create_app
from scorepad.models import db

DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
]
PHONE = {"width": 390, "height": 844}
# How long expect() waits for what a page shows: 20 s, not Playwright's 5 s. Pages come from a server in the test
# process on a machine that may be busy (a Start answered in 6 s once failed a test about something else). Waiting
# longer only delays a failure: a test that times the app measures it itself, in the page or with its own timeout.
PAGE_WAIT_MS = 20_000
expect.set_options(timeout=PAGE_WAIT_MS)


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
    return {
        **browser_context_args,
        "viewport": PHONE,
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
        "service_workers": "block",
    }


@pytest.fixture
def live_server(database_uri):
    """The app on a fresh database (tests/conftest.py), served on a free local port for the length of one test.

    Save of a hand waits 10 s for the server here, not 0.7 s: on a loaded test machine this one-thread-per-request
    server is sometimes slower than that (4 s was passed with two browsers at work on the two cores), and a hand
    kept on the phone would make a test about something else take another path (no Undo offered, a reload after
    the sync). tests/e2e/test_bad_wifi.py serves the app as it is configured (`serve`)."""
    yield from serve(database_uri, SAVE_ANSWER_WAIT_MS=10_000)


def serve(database_uri: str, **config):
    app = create_app(
        {"SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": database_uri, "RATELIMIT_ENABLED": False, **config}
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    with app.app_context():
        db.engine.dispose()


class Wifi:
    """The phone's Wi-Fi to the live server: a TCP relay on its own port that a test can cut or stall.

    Chromium's offline switch (context.set_offline) is not a dead Wi-Fi: a page loaded under it may
    still read navigator.onLine true, and it has let a request through. A relay fails for real:
    cut, every open connection is dropped and new ones are reset; stalled, connections are taken
    and never answered, as on Wi-Fi with a signal but no way out.

    Hanging (hang), it is the usual club Wi-Fi: connections are taken, what the phone sends is held, and nothing
    comes back; once it answers again (restore) what was held goes on to the server, late, and its answer back to
    the phone if the phone is still waiting for it.

    It can also lose answers (lose_answers): the request reaches the server, which does its work, and the
    connection is reset as the answer starts back. Playwright's context.route cannot be trusted for this
    while a service worker runs: a request may pass it by (Playwright's docs; it happened in CI).
    """

    def __init__(self, server_url: str):
        self.server = ("127.0.0.1", urlsplit(server_url).port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.state = "up"
        self.lock = threading.Lock()
        self.open_sockets: set[socket.socket] = set()
        self.losing: tuple[bytes, ...] = ()  # request lines ("POST /path") whose answers are lost
        self.lost: list[str] = []
        self.held: list[threading.Event] = []  # hanging: one per connection held, set when it may go on
        self.holding: tuple[bytes, bytes, LateAnswer] | None = None  # hold_answer: the request to answer late
        threading.Thread(target=self.accept, daemon=True).start()

    def lose_answers(self, *requests: str) -> list[str]:
        """From now on, each request whose first line starts with one of `requests` (e.g. "POST /sync/games ")
        reaches the server, and its answer is lost on its way back to the phone. Returns the list of the request
        lines whose answers were lost, filled as they go."""
        with self.lock:
            self.losing = tuple(request.encode() for request in requests)
            self.lost = []
            return self.lost

    def hold_answer(self, request: str, marker: str) -> LateAnswer:
        """The next request whose first line starts with `request` and that carries `marker` (a header's name, say)
        reaches the server at once, and its answer is held on its way back until `late.release` is set: an answer
        that comes in after the phone has moved on. `late.arrived` is set once the server has answered."""
        late = LateAnswer()
        with self.lock:
            self.holding = (request.encode(), marker.lower().encode(), late)
        return late

    def deliver_answers(self) -> None:
        """Answers reach the phone again."""
        with self.lock:
            self.losing = ()

    def cut(self) -> None:
        """No connection: what is open is dropped, a new connection is reset at once."""
        self.switch("down")

    def stall(self) -> None:
        """Connected, but nothing ever comes back."""
        self.switch("stalled")

    def hang(self) -> None:
        """Requests are taken and held, never answered, until restore() lets them through late."""
        self.switch("hanging")

    def restore(self) -> None:
        """The Wi-Fi works again (what hung goes on to the server now)."""
        self.switch("up")

    def close(self) -> None:
        """Stop relaying for good (end of the test)."""
        self.switch("closed")
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes accept()
        self.listener.close()

    def switch(self, state: str) -> None:
        with self.lock:
            self.state = state
            doomed, self.open_sockets = self.open_sockets, set()
            released, self.held = self.held, []
        for sock in doomed:
            drop(sock)
        for event in released:
            event.set()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                state = self.state
                if state == "stalled":
                    self.open_sockets.add(client)
            if state == "up":
                self.relay(client)
            elif state == "hanging":
                threading.Thread(target=self.hold, args=(client,), daemon=True).start()
            elif state != "stalled":
                drop(client)

    def hold(self, client: socket.socket, longest: float = 120) -> None:
        """Hanging: read and keep what the phone sends (for `longest` seconds at most) until the Wi-Fi answers
        again; then send it to the server, and relay the rest both ways if the phone is still connected."""
        go_on = threading.Event()
        with self.lock:
            self.held.append(go_on)
        kept, phone_there = bytearray(), True
        client.settimeout(0.05)
        deadline = time.monotonic() + longest
        while not go_on.is_set() and time.monotonic() < deadline:
            try:
                data = client.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                data = b""
            if not data:  # the phone gave up (and closed), or was reset: what it sent still goes on
                phone_there = False
                go_on.wait(max(0.0, deadline - time.monotonic()))
                break
            kept += data
        if self.state != "up" or not kept:
            drop(client)
            return
        try:
            server = socket.create_connection(self.server)
            server.sendall(bytes(kept))
        except OSError:
            drop(client)
            return
        client.settimeout(None)
        if not phone_there:  # the server does its work; its answer has no one to go to
            client.close()
            server.shutdown(socket.SHUT_WR)
            threading.Thread(target=pump, args=(server, None, server.close), daemon=True).start()
            return
        ends = {client, server}
        left = [2]

        def finished() -> None:
            with self.lock:
                left[0] -= 1
                if left[0]:
                    return
            for sock in ends:
                sock.close()

        for source, target in ((client, server), (server, client)):
            threading.Thread(target=pump, args=(source, target, finished), daemon=True).start()

    def relay(self, client: socket.socket) -> None:
        try:
            server = socket.create_connection(self.server)
        except OSError:
            drop(client)
            return
        ends = {client, server}
        directions_left = [2]

        def finished() -> None:  # both directions done: close the connection
            with self.lock:
                directions_left[0] -= 1
                if directions_left[0]:
                    return
                self.open_sockets -= ends
            for sock in ends:
                sock.close()

        with self.lock:
            cut_meanwhile = self.state != "up"
            if not cut_meanwhile:
                self.open_sockets |= ends
        if cut_meanwhile:
            for sock in ends:
                drop(sock)
            return
        losing: list[str] = []  # the request on this connection whose answer is to be lost, if any
        late: list[LateAnswer] = []  # the request on this connection whose answer is held (hold_answer), if any

        def request(data: bytes) -> bytes:
            """A chunk from the phone: the start of a request whose answer is to be lost, or held, is noted."""
            with self.lock:
                if data.startswith(self.losing):
                    losing.append(data.split(b"\r\n", 1)[0].decode())
                if self.holding and data.startswith(self.holding[0]) and self.holding[1] in data.lower():
                    late.append(self.holding[2])
                    self.holding = None
            return data

        def answer(data: bytes) -> bytes:
            """A chunk from the server: an answer to be lost resets the phone's connection instead.
            (Chromium sends a connection's next request only once the last answer has come back.)"""
            if losing:
                with self.lock:
                    self.lost.append(losing[0])
                drop(client)
                raise OSError("answer lost")
            if late:
                held = late.pop()
                held.arrived.set()
                held.release.wait(60)
            return data

        for source, target, look in ((client, server, request), (server, client, answer)):
            threading.Thread(target=pump, args=(source, target, finished, look), daemon=True).start()


class LateAnswer:
    """An answer the Wi-Fi holds back (Wifi.hold_answer)."""

    def __init__(self) -> None:
        self.arrived = threading.Event()  # the server has answered; the answer waits in the relay
        self.release = threading.Event()  # set it to let the answer go on to the phone


def pump(source: socket.socket, target: socket.socket | None, finished, look=lambda data: data) -> None:
    """Copy one direction of a connection until it ends (each chunk passed through `look`), then pass the
    end on."""
    try:
        while data := source.recv(65536):
            data = look(data)
            if target is not None:  # None: read and let go (an answer no one waits for)
                target.sendall(data)
        if target is not None:
            target.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # dropped by Wifi.switch, or the other end went away
    finally:
        finished()


def drop(sock: socket.socket) -> None:
    """Reset a connection, as a network that went away does; wakes any thread reading it."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        pass
    sock.close()


@pytest.fixture
def wifi(live_server):
    """The live server reached through Wi-Fi the test controls: wifi.url, wifi.cut(), wifi.stall(), wifi.hang(),
    wifi.restore()."""
    relay = Wifi(live_server)
    yield relay
    relay.close()


def no_horizontal_scroll(page) -> bool:
    """Whether the page fits the screen's width (nothing to scroll sideways).

    Compared with the viewport we set, not window.innerWidth: a mobile browser widens its layout
    viewport to fit content that is too wide, and would hide the very overflow we look for.
    """
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def name_the_players(page, label: str = "Player {player} of side {side}") -> None:
    """On the new-game page: Ann & Cleo (side 1), Bea & Dot (side 2); `label` is each box's label in the page's
    language ("Jugador {player} del equipo {side}" in Spanish)."""
    for player, side, name in ((1, 1, "Ann"), (2, 1, "Cleo"), (1, 2, "Bea"), (2, 2, "Dot")):
        page.get_by_label(label.format(player=player, side=side), exact=True).fill(name)


def start_game(page, live_server) -> None:
    """Start a modern game from the new-game page: Ann & Cleo (Us) against Bea & Dot (Them), Ann deals."""
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Us v Them")


def start_three_partnerships(page, live_server) -> None:
    """Classic with three partnerships (three decks: six red 3s), from the new-game page: P11 & P12, P21 & P22,
    P31 & P32."""
    page.goto(live_server + "/games/new")
    page.get_by_role("radio", name=re.compile("^Classic")).check()
    page.get_by_role("radio", name=re.compile("^Three partnerships")).check()
    for side in (1, 2, 3):
        for player in (1, 2):
            page.get_by_label(f"Player {player} of side {side}", exact=True).fill(f"P{side}{player}")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".total-card")).to_have_count(3, timeout=20_000)


def until(page, condition, what: str, seconds: float = 30) -> None:
    """Wait for a condition the test process sees (not the page: e.g. a request the server has answered),
    checking it every tenth of a second; fail saying `what` did not happen."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        page.wait_for_timeout(100)


def in_page(page, script: str, arg=None):
    """page.evaluate, waiting out a navigation that replaces the page meanwhile (a reload after a sync): the script
    runs again on the page that follows."""
    for _ in range(20):
        try:
            return page.evaluate(script, arg)
        except PlaywrightError as error:
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            page.wait_for_load_state()
    raise AssertionError(f"the page kept navigating while {script!r} ran")


def wait_until_kept(page, paths: list[str], seconds: float = 10) -> None:
    """Wait until the service worker's caches hold every one of these paths (the page looks each time a frame
    is drawn, up to `seconds`); fail naming those still missing."""
    missing = page.evaluate(
        """async ([wanted, seconds]) => {
            let kept = [];
            for (const end = Date.now() + seconds * 1000; Date.now() < end;) {
                const keys = await Promise.all((await caches.keys()).map(async (n) => (await caches.open(n)).keys()));
                kept = keys.flat().map((r) => new URL(r.url).pathname);
                if (wanted.every((path) => kept.includes(path))) return [];
                await new Promise((resolve) => requestAnimationFrame(resolve));
            }
            return wanted.filter((path) => !kept.includes(path));
        }""",
        [paths, seconds],
    )
    assert not missing, f"the service worker did not keep {missing} within {seconds} s"


# The phone's queue of hands waiting (assets/js/store.js): how many, read from IndexedDB.
_WAITING_JS = """() => new Promise((resolve) => {
  const open = indexedDB.open("scorepad-offline", 1);
  open.onerror = () => resolve(-1);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("queue")) { db.close(); resolve(0); return; }
    const count = db.transaction("queue").objectStore("queue").count();
    count.onsuccess = () => { db.close(); resolve(count.result); };
    count.onerror = () => { db.close(); resolve(-1); };
  };
})"""


def settled(page) -> None:
    """Wait until the phone holds no hand waiting and the page is done with what follows a send.

    A Save whose answer is slow (a busy machine) leaves the form after a second and keeps the hand on the phone
    (sync.js); once the server has it, the sheet reloads itself. A test that goes elsewhere before then has its own
    navigation aborted by that reload (net::ERR_ABORTED), so it waits for the queue to empty and the network to rest.
    """
    for _ in range(200):  # at most about 20 s, as PAGE_WAIT_MS
        try:
            if page.evaluate(_WAITING_JS) == 0:
                break
        except PlaywrightError as error:  # caught by the reload itself: read again from the new page
            if "Execution context was destroyed" not in str(error):
                raise
        page.wait_for_timeout(100)
    else:
        raise AssertionError("hands were still waiting on the phone after 20 s")
    page.wait_for_load_state("networkidle")
