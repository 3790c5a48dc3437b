"""A Spanish phone with no connection (docs/i18n.md, "The phone's scripts"): the hand form's refusals worked out on the
phone, the figures and the scoresheet's words for a hand kept on it are all Spanish, from the words its service worker
keeps (/messages.es.json), never English.

The phone reaches the server through `wifi` (conftest), a relay the test cuts for real. Modern preset, by hand
(docs/rules.md): going out takes two canastas (§5.4), so Them with one mixed canasta can't go out. Us: 2 natural
canastas 1,000 + 1 red 3 100 (two canastas: it counts) + going out 100 = Base 1,200, Count 150: hand 1,350, written
1.350 in Spanish. Them: 1 mixed canasta 300, Count 60: 360.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_offline_queue import keep_on_the_phone

from conftest import name_the_players

WAIT = 20_000  # ms: the machine running the tests may be slow


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These tests need the service worker that the other browser tests block."""
    return {**browser_context_args, "service_workers": "allow"}


def start_in_spanish(page: Page, url: str) -> None:
    """Español chosen on this phone (its cookie), then a modern game started with the sides' names the page offers in
    Spanish: Ann & Cleo (Nosotros, "Us"), Bea & Dot (Ellos, "Them")."""
    host = re.match(r"https?://([^/:]+)", url).group(1)
    page.context.add_cookies([{"name": "lang", "value": "es", "domain": host, "path": "/"}])
    page.goto(url + "/games/new")
    name_the_players(page, "Jugador {player} del equipo {side}")
    page.get_by_role("button", name="Empezar la partida").click()
    expect(page.locator("h1")).to_have_text("Nosotros v Ellos")
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_offline_a_spanish_phone_refuses_and_keeps_a_hand_in_spanish(page, wifi):
    start_in_spanish(page, wifi.url)
    keep_on_the_phone(page)
    wifi.cut()
    page.get_by_role("link", name="Anotar la mano 1").click()
    expect(page.locator("h1")).to_have_text("Mano 1", timeout=WAIT)

    us, them = page.locator('fieldset[data-side="0"]'), page.locator('fieldset[data-side="1"]')
    them.get_by_label("Canastas sucias", exact=True).fill("1")
    them.get_by_label(re.compile(r"^\s*Cerró(?! de)")).check(force=True)
    # The rules' refusal, worked out on the phone (the server's preview gets no answer), in the server's Spanish.
    refusal = "Para cerrar hacen falta dos canastas cerradas."
    expect(page.locator("#s1-went_out-error")).to_have_text(refusal, timeout=WAIT)
    expect(page.locator("#preview .preview-problem")).to_have_text(refusal)
    expect(page.locator("#sync-status")).to_have_text("Sin conexión.", timeout=WAIT)

    them.get_by_label(re.compile(r"^\s*Cerró(?! de)")).uncheck(force=True)
    them.get_by_role("textbox", name=re.compile("^Conteo")).fill("60")
    us.get_by_label("Canastas limpias", exact=True).fill("2")
    us.get_by_role("radiogroup", name="3 rojos: de 0 a 4").get_by_role("radio", name="1").tap()  # all 3s there can be
    us.get_by_label(re.compile(r"^\s*Cerró(?! de)")).check(force=True)
    us.get_by_role("textbox", name=re.compile("^Conteo")).fill("150")
    expect(page.locator("#s1-went_out-error")).to_be_empty()
    expect(page.locator("#side-figures-0 .base")).to_have_text("1.200", timeout=WAIT)
    expect(page.locator("#preview .hand-total")).to_have_text(["1.350", "360"])

    # Kept on the phone: the scoresheet says so in Spanish, its figures written as in Spanish.
    page.get_by_role("button", name="Guardar mano 1").click()
    expect(page.locator("#hand-1 .not-synced")).to_have_text("todavía sin enviar", timeout=WAIT)
    expect(page.locator("#hand-1 .hand-total")).to_have_text(["1.350", "360"])
    expect(page.locator(".provisional-note")).to_contain_text("Cifras con 1 mano")
    assert "hand" not in page.locator(".provisional-note").inner_text()
