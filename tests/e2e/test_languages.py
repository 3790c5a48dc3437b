"""The language chosen on a phone of 360×740: Español picked by its own name at the foot of a page, the page and
the next ones in Spanish with their figures as a Spanish player writes them, and the choice remembered.

The figures (tests/test_languages.py, by hand): docs/api.md's example hand scores Us 1,685 and Them −2,060; with
9,865 and −45 brought forward the totals are 11,550 and −2,105, written 11.550 and −2.105 in Spanish."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.conftest import game_document
from tests.test_api import EXAMPLE

from conftest import no_horizontal_scroll

SMALL_PHONE = {"width": 360, "height": 740}


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
