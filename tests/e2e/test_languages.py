"""The language chosen on a phone of 360×740: Español picked by its own name at the foot of a page, the page and
the next ones in Spanish with their figures as a Spanish player writes them, and the choice remembered.

The figures (tests/test_languages.py, by hand): docs/api.md's example hand scores Us 1,685 and Them −2,060; with
9,865 and −45 brought forward the totals are 11,550 and −2,105, written 11.550 and −2.105 in Spanish."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.conftest import game_document
from tests.test_api import EXAMPLE

from conftest import no_horizontal_scroll, start_game

SMALL_PHONE = {"width": 360, "height": 740}
WAIT = 20_000  # ms: the machine running the tests may be slow


def a_game_at_11550(page, live_server: str) -> str:
    doc = game_document(hands=[EXAMPLE], target=15000)
    doc["brought_forward"] = [9865, -45]
    response = page.request.post(live_server + "/api/games", data=doc)
    assert response.status == 201, response.text()
    return response.json()["id"]


def test_choosing_espanol_gives_spanish_words_and_figures_and_is_remembered(page, live_server):
    page.set_viewport_size(SMALL_PHONE)
    game = a_game_at_11550(page, live_server)
    page.goto(f"{live_server}/games/{game}")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the phone's own language (en-US)
    expect(page.locator(".total-figure")).to_have_text(["11,550", "\u22122,105"])

    chooser = page.get_by_role("navigation", name="Language")
    chooser.get_by_role("link", name="Español").click()

    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.url == f"{live_server}/games/{game}"  # back on the page it was chosen on
    expect(page.get_by_role("link", name="Unirse a una partida")).to_be_visible()
    expect(page.locator(".total-figure")).to_have_text(["11.550", "\u22122.105"])
    expect(page.locator("#game-chart-desc")).to_have_text("Va ganando Us, 11.550 a \u22122.105, tras 1 mano.")
    expect(page.get_by_role("navigation", name="Idioma").get_by_role("link", name="Español")).to_have_attribute(
        "aria-current", "true"
    )
    assert no_horizontal_scroll(page)

    # Remembered on the phone: another page, and this one again, are in Spanish without choosing again.
    page.goto(live_server + "/")
    expect(page.locator("h1")).to_have_text("Planilla de canasta")
    expect(page.get_by_role("link", name="Empezar una partida nueva").first).to_be_visible()
    assert no_horizontal_scroll(page)
    page.goto(f"{live_server}/games/{game}")
    expect(page.locator(".total-figure")).to_have_text(["11.550", "\u22122.105"])

    # And back to English the same way.
    page.get_by_role("navigation", name="Idioma").get_by_role("link", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".total-figure")).to_have_text(["11,550", "\u22122,105"])


def test_a_hand_played_in_spanish_on_a_small_phone(page, live_server):
    """A hand entered on the scoresheet's next-hand form in Spanish, at 360×740: the words are Spanish, longer than
    English, and still nothing overflows the screen and Save stays in reach; the figures are written 2.085.

    Modern preset (docs/rules.md), by hand: Us 2 natural + 1 mixed = 3 canastas, so 2 red 3s +300; Base 300 + 1,000
    + 300 + going out 100 = 1,700; Count 385: 2,085. Them 1 canasta, so 1 red + 1 black 3 count 0; Base 500;
    Count 140: 640."""
    page.set_viewport_size(SMALL_PHONE)
    start_game(page, live_server)
    page.get_by_role("navigation", name="Language").get_by_role("link", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Mano 1", exact=True)).to_be_visible(timeout=WAIT)
    assert no_horizontal_scroll(page)

    for i, (picks, went_out, count) in enumerate(
        [
            ([("Canastas limpias", 2), ("Canastas sucias", 1), ("3 rojos", 2)], True, 385),
            ([("Canastas limpias", 1), ("3 rojos", 1), ("3 negros", 1)], False, 140),
        ]
    ):
        panel = page.locator(f'fieldset[data-side="{i}"]')
        for label, n in picks:
            row = panel.get_by_role("radiogroup", name=f"{label}: de 0 a", exact=False)
            row.get_by_role("radio", name=str(n), exact=True).tap()
        if went_out:
            panel.locator(".switch label").filter(has_text=re.compile(r"^\s*Cerró(?! de)")).tap()
        panel.get_by_role("textbox", name=re.compile("^Conteo")).tap()
        page.keyboard.type(str(count))

    # The hand's figures as a Spanish player writes them, beside Save, before it is saved.
    expect(page.locator("#preview .hand-total")).to_have_text(["2.085", "640"], timeout=WAIT)
    expect(page.locator("#side-figures-0")).to_have_text("Base 1.700 · Conteo 385", timeout=WAIT)
    save = page.get_by_role("button", name="Guardar mano 1")
    expect(save).to_be_in_viewport()
    box = save.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SMALL_PHONE["width"]
    assert save.evaluate("b => b.scrollWidth <= b.clientWidth")  # its words are not cut off
    assert no_horizontal_scroll(page)
    save.tap()

    expect(page.locator("#hand-1")).to_be_visible(timeout=WAIT)
    expect(page.locator(".total-figure")).to_have_text(["2.085", "640"], timeout=WAIT)
    expect(page.locator("#hand-1 .hand-total")).to_have_text(["2.085", "640"])
    expect(page.locator("#hand-1 .base")).to_have_text(["1.700", "500"])
    expect(page.locator("#hand-1 dt").first).to_have_text("Base")
    expect(page.locator("#hand-1 .dealer")).to_have_text("dio Ann")
    expect(page.get_by_role("heading", name="Mano 2", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.locator(".next-deal")).to_contain_text("se juega a 8.500")
    expect(page.locator(".min-count").first).to_contain_text("Bajada mínima")
    expect(page.get_by_role("button", name="Guardar mano 2")).to_be_visible()
    assert no_horizontal_scroll(page)
