"""Text as a player reads it, on a phone (390x844, the size of a common phone)
and beside the felt on a desktop:

* a finished match's result box uses the screen's width instead of the
  half of it that ``left: 50%`` leaves a shrink-to-fit box (its buttons each
  wrapped to two or three lines, "Скачать запись партии" on three); the
  match's standings keep their column titles whole on a phone ("Поражений", not
  "Пораже" over "ний"), the table scrolled sideways in its box; beside the felt
  the side panels hold their content in the four languages (the Bulgarian
  Spades sheet stuck out of its panel); the review's list of deals is in the
  page's language (it kept the one it was first drawn in: "الجولة 1" on a
  Russian page);
* a duel's card names and the tags under them ("в защите", "выставлена") wrap
  inside their cards between their words, in the four languages on a phone and
  a desktop, a word too long ending in "…", instead of being clipped by them
  ("выставл") or broken inside a word ("Noblem" over "an");
* the score sheet's penalty row of a three-player table (a column a player in
  the side panel) keeps "0 / 12" on one line, not "0 /" over "12"; its column
  heads never break a name inside a word ("Екате" over "рина" in 58-78px
  columns): the names whole where they fit, else the players' initials and a
  legend of the whole names under the sheet, inside its panel;
* an Arabic list is written with the Arabic comma ("،"), not the Latin one: the
  lobby's changed options (i18n.js listOf writes every list the page shows);
* the create form's option lists show their choice whole: a long one ("♣ jack
  highest (as the queens)") moves under its name instead of being cut at 12em."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import httpx
import pytest

from .conftest import Lobby, ServeProcess, finish_with_bots
from .test_browser import (CHROMIUM, SERVE, chromium, new_page,  # noqa: F401
                           in_language, seated_at_a_duel_against_greedy, shot, sit_at, ygo_play_moves)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def finished_spades_match(server: ServeProcess) -> tuple[str, str]:
    """A one-deal Spades match of me and three bots played to its end over the
    WebSocket (in its own event loop, beside Playwright's); its id and my token."""
    played: dict[str, str] = {}

    async def play() -> None:
        lobby = Lobby(server.url)
        played["id"], played["token"] = await finish_with_bots(lobby, server, game="spades", rules="standard",
                                                               options={"max_deals": 1})
        await lobby.close()

    worker = threading.Thread(target=lambda: asyncio.run(play()))
    worker.start()
    worker.join(300)
    assert played, "the match did not end"
    return played["id"], played["token"]


def test_a_finished_spades_match_fits_a_phone_and_a_desktop(chromium: object,
                                                             serve_process: Callable[..., ServeProcess]) -> None:
    """One finished match, seen on a phone and a desktop: its result box, the side
    panels, the review's list of deals, and the club's standings."""
    server = serve_process(*SERVE)
    table, token = finished_spades_match(server)
    context = chromium.new_context(viewport=PHONE, locale="ru-RU")  # type: ignore[attr-defined]
    context, page = new_page(chromium, context)
    sit_at(page, server.url, table, token, 0)
    box = page.locator("#result:not([hidden])")
    box.wait_for()
    shot(page, "phone-result-ru")
    width = box.bounding_box()["width"]
    assert width > 0.75 * PHONE["width"], width                   # not squeezed into the right half
    left, right = page.evaluate("() => { const b = document.querySelector('#result').getBoundingClientRect();"
                                " return [b.left, b.right]; }")
    assert left >= 0 and right <= PHONE["width"]                  # and still all on the screen
    for button in page.locator("#result .row > :visible").all():  # each button's label on one line
        height = button.bounding_box()["height"]
        line = float(button.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20"))
        assert height < 2 * line + 16, (button.text_content(), height)
    page.set_viewport_size(DESKTOP)                                 # the side panels beside the felt
    spilled = {}
    for lang in ("en", "ru", "bg", "ar"):
        in_language(page, lang)
        spilled[lang] = page.evaluate(SPILLED)
    assert spilled == {"en": [], "ru": [], "bg": [], "ar": []}
    deals = page.locator("#review-deal option")                    # the review's list of deals, in Arabic
    page.click("#review-btn")
    assert deals.all_text_contents() == ["الجولة 1"]
    page.click(".lang[data-lang='en']")                             # follows the language, open
    assert deals.all_text_contents() == ["Deal 1"]
    page.keyboard.press("Escape")
    page.click(".lang[data-lang='ru']")                             # and opened again
    page.click("#review-btn")
    assert deals.all_text_contents() == ["Раздача 1"]
    page.keyboard.press("Escape")
    page.set_viewport_size(PHONE)
    page.goto(server.url)                                           # the match in the club's standings
    page.select_option("#standings-game", "spades")
    page.wait_for_selector("#standings-table:not([hidden]) tbody tr")
    shot(page, "phone-standings-ru")
    assert page.evaluate(BROKEN_HEADS) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []
    context.close()


#: The side panels (score sheet, last trick, log) whose content is wider than
#: they are: the Bulgarian Spades sheet ("Раздаване", "надвзятки: 0" kept on one
#: line under each total) stuck out of its 320px panel.
SPILLED = """() => [...document.querySelectorAll('#game .side .panel')]
  .filter(panel => panel.scrollWidth > panel.clientWidth + 0.5).map(panel => panel.className)"""


#: The words of the standings' column titles split over two lines: "Пораже" over
#: "ний" in a phone's narrow columns (the table scrolls sideways in its box instead).
BROKEN_HEADS = """() => [...document.querySelectorAll('#standings-table thead th')].flatMap(th => {
    const text = th.firstChild;
    return [...text.data.matchAll(/\\S+/g)].filter(word => {
      const range = document.createRange();
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
    }).map(word => word[0]);
  })"""


#: Each Yu-Gi-Oh! card's name (``.yname``) or small tag under it (``.ytag``:
#: set, the kind, the position) that sticks out of its card, which clips it: on
#: a phone a field zone is ~55px wide and a name's long word ("Nobleman",
#: "Metamorphosis") was cut ("obleman" on the Arabic page), the Russian tags
#: "выставлена" and "в защите" to "выставл" and "в защ"; or whose own text is
#: wider than it without ending in "…".
CLIPPED_LABELS = """() => [...document.querySelectorAll('#duel .ycard:not(.back) .yname, #duel .ycard .ytag')]
  .filter(label => {
    const card = label.closest('.ycard').getBoundingClientRect(), box = label.getBoundingClientRect();
    const cut = label.scrollWidth > label.clientWidth + 1 && getComputedStyle(label).textOverflow !== 'ellipsis';
    return box.left < card.left - 0.5 || box.right > card.right + 0.5 || cut;
  }).map(label => label.textContent)"""

#: The "set" tags ("выставлена", "поставена") that do not show whole: ending in
#: "…" as a word too long for a phone's field zone does (the tag is one word the
#: page's translations can mark with a soft hyphen, so it never needs to).
CUT_SET_TAGS = """() => [...document.querySelectorAll('#duel .ycard .set-tag')]
  .filter(tag => tag.scrollWidth > tag.clientWidth + 1).map(tag => tag.textContent)"""

#: The words of the cards' names and tags (a face-down card's label too) that are not
#: read whole from their start: split over two lines ("Noblem" over "an", the
#: word's characters' line boxes on two lines), or begun outside the name's box
#: (cut at its start, "…leman"). Hyphen-joined parts are words of their own:
#: "Thousand-" over "Eyes" is a break between words, and so is a soft hyphen's
#: ("выстав-" over "лена": the translation marks where the word may break).
BROKEN_WORDS = """() => [...document.querySelectorAll('#duel .ycard .yname, #duel .ycard .ytag')].flatMap(name => {
    const text = name.firstChild, box = name.getBoundingClientRect();
    const range = (from, to) => { const r = document.createRange(); r.setStart(text, from); r.setEnd(text, to); return r; };
    return [...text.data.matchAll(/[^\\s\\u00ad-]+/g)].filter(word => {
      // Chromium gives the first character after a soft hyphen the box of the hyphen's line: look from the next one
      const from = word.index + (text.data[word.index - 1] === '\\u00ad' && word[0].length > 1 ? 1 : 0);
      const lines = new Set([...range(from, word.index + word[0].length).getClientRects()]
        .map(r => Math.round(r.top)));
      const first = range(from, from + 1).getBoundingClientRect();
      return lines.size > 1 || first.left < box.left - 0.5 || first.right > box.right + 0.5;
    }).map(word => `${word[0]} (${text.data})`);
  })"""

def test_duel_card_names_wrap_between_words_inside_their_cards(chromium: object,
                                                               serve_process: Callable[..., ServeProcess]) -> None:
    """On a phone and a desktop, in each of the four languages (the English names
    on the Arabic page right to left): a name, and a tag under it ("в защите"),
    breaks only between its words, and a word too long for a phone's field zone
    ends in "…" inside its card (this Chromium has no hyphenation dictionary)
    instead of breaking or being cut; the "set" tag shows whole, its Russian and
    Bulgarian word hyphenated where the translation marks it."""
    server = serve_process(*SERVE)
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)  # type: ignore[attr-defined]
    context, page = new_page(chromium, context)
    seated_at_a_duel_against_greedy(page, server.url, 7)
    page.click("#start-btn")
    page.wait_for_selector("#duel:not([hidden])")
    ygo_play_moves(page, 10)                  # until names are on the field, mine set or the bot's
    assert page.locator("#duel .zone-row .ycard[data-name]").count() >= 2
    assert page.locator("#duel .zone-row .ycard .set-tag").count() >= 1     # "выставлена", the longest tag
    broken = {}
    for lang in ("en", "ru", "bg", "ar"):
        in_language(page, lang)
        if lang == "ru":    # the card's label is read, not wrapped: the word without its soft hyphen
            labels = page.locator("#duel .zone-row .ycard:has(.set-tag)").first.get_attribute("aria-label")
            assert "выставлена" in labels and "\u00ad" not in labels
        for screen, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            shot(page, f"{screen}-duel-{lang}")
            broken[lang, screen] = (page.evaluate(BROKEN_WORDS) + page.evaluate(CLIPPED_LABELS)
                                    + page.evaluate(CUT_SET_TAGS))
    assert broken == {key: [] for key in broken}
    assert page.errors == []
    context.close()


#: The number of lines each cell of the sheet's total row spans: its first text's line boxes.
FOOT_LINES = """() => [...document.querySelectorAll('#score tfoot td')].map(td => {
    const range = document.createRange(); range.selectNodeContents(td.firstChild);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  })"""


def test_three_players_penalties_on_one_line(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"rules": "full-hand", "players": 3, "name": "Anna"},
                         timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "heuristic"},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10).raise_for_status()
    context, page = new_page(chromium, locale="bg-BG")
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    page.wait_for_selector("#score tfoot td")
    shot(page, "fit-three-players-bg")
    assert page.evaluate(FOOT_LINES) == [1, 1, 1]
    assert page.errors == []
    context.close()


#: The words of the sheet's column heads and legend split over two lines ("Екате"
#: over "рина"): each visible text's words, by their characters' line boxes.
BROKEN_SHEET_WORDS = """() => [...document.querySelectorAll('#score thead th, #score-legend li')].flatMap(box => {
    const texts = document.createTreeWalker(box, NodeFilter.SHOW_TEXT), words = [];
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      if (text.parentElement.closest('.sr-only')) continue;
      for (const word of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) words.push(word[0]);
      }
    }
    return words;
  })"""

#: What the sheet shows a player of the players' names: the heads' visible text
#: and the legend's, when it is shown.
SHEET_NAMES = """() => {
    const legend = document.querySelector('#score-legend');
    return { heads: [...document.querySelectorAll('#score thead th')].slice(1).map(th => th.firstChild.textContent),
             legend: !legend || legend.hidden ? null : legend.innerText };
  }"""

LONG_NAMES = ("Анастасия Владимировна", "Екатерина Александровна", "Maximilian Alexander")


def test_three_players_long_names_break_between_words_inside_the_sheet(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A three-player table of people with long names, on a phone and a desktop in
    the four languages: no name breaks inside a word, the sheet stays inside its
    panel and the page inside the screen, and every whole name is on the sheet
    (its head, or the legend under it when the heads give initials)."""
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"rules": "full-hand", "players": 3, "name": LONG_NAMES[0]},
                         timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}", json={"name": LONG_NAMES[seat]},
                   timeout=10).raise_for_status()
    context = chromium.new_context(viewport=PHONE, locale="ru-RU")  # type: ignore[attr-defined]
    context, page = new_page(chromium, context)
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    page.wait_for_selector("#score tfoot td")
    seen = {}
    for lang in ("en", "ru", "bg", "ar"):
        in_language(page, lang)
        for screen, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            page.wait_for_function("(width) => document.documentElement.clientWidth === width", arg=size["width"])
            shot(page, f"{screen}-three-long-names-{lang}")
            names = page.evaluate(SHEET_NAMES)
            shown = names["legend"] if names["legend"] is not None else " ".join(names["heads"])
            seen[lang, screen] = {
                "broken": page.evaluate(BROKEN_SHEET_WORDS), "spilled": page.evaluate(SPILLED),
                "wider than the screen": page.evaluate("document.scrollingElement.scrollWidth") > size["width"],
                "missing": [name for name in LONG_NAMES if name not in shown],
            }
            if names["legend"] is not None:    # the heads' initials tell the players apart
                assert len(set(names["heads"])) == 3, names
    assert seen == {key: {"broken": [], "spilled": [], "wider than the screen": False, "missing": []} for key in seen}
    assert page.errors == []
    context.close()


def test_arabic_lists_take_the_arabic_comma(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"rules": "classic", "name": "Anna",
                                                        "options": {"match_target": 1, "royal_goat": False}},
                         timeout=10).json()
    context, page = new_page(chromium, locale="ar-EG")
    sit_at(page, server.url, created["id"], created["token"], 0)
    shown = page.locator("#lobby-options")
    shown.wait_for()
    assert "، " in shown.text_content() and "," not in shown.text_content(), shown.text_content()
    page.click(".lang[data-lang='en']")                            # English keeps its own comma
    assert ", " in shown.text_content() and "،" not in shown.text_content(), shown.text_content()
    assert page.errors == []
    context.close()


#: The create form's option lists whose chosen value is wider than the list shows:
#: the chosen option alone, measured outside the form, against the list's width.
CUT_CHOICES = """() => [...document.querySelectorAll('#option-list .option:not([hidden]) select')].map(select => {
    const alone = select.cloneNode(false);
    alone.append(select.selectedOptions[0].cloneNode(true));
    Object.assign(alone.style, { position: "absolute", maxWidth: "none", width: "auto" });
    select.closest('.option').append(alone);
    const need = alone.getBoundingClientRect().width;
    alone.remove();
    return [select.closest('.option').dataset.option, select.getBoundingClientRect().width, need];
  }).filter(([, width, need]) => need > width + 1).map(([name]) => name)"""


#: The options whose field (a list, a checkbox, a number) sticks out of the form's panel (of the rows
#: shown: a row hidden while its option cannot matter has no box).
OUTSIDE = """() => {
    const panel = document.querySelector('#create-form').getBoundingClientRect();
    return [...document.querySelectorAll('#option-list .option:not([hidden])')].filter(row => {
      const field = row.querySelector('select, input').getBoundingClientRect();
      return field.left < panel.left - 0.5 || field.right > panel.right + 0.5;
    }).map(row => row.dataset.option);
  }"""


@pytest.mark.parametrize("lang", ["en", "ru", "bg", "ar"])
def test_option_choices_are_shown_whole_on_a_phone(chromium: object, serve_process: Callable[..., ServeProcess],
                                                  lang: str) -> None:
    server = serve_process(*SERVE)
    context = chromium.new_context(viewport=PHONE)  # type: ignore[attr-defined]
    context, page = new_page(chromium, context)
    page.goto(server.url)
    page.click(f".lang[data-lang='{lang}']")
    page.wait_for_selector("#create-game option", state="attached")
    page.click("#options-summary")
    cut = {}
    for game, rules in (("kozel", "classic"), ("kozel", "street"), ("spades", "standard"), ("yugioh", "goat")):
        page.select_option("#create-game", game)
        page.select_option("#create-rules", rules)
        if game == "spades":   # the rows of the options these refine show once they are on
            for option in ("double_nil", "wheels", "boston", "bemo"):
                page.check(f'#option-list .option[data-option="{option}"] input')
            page.wait_for_selector('#option-list .option[data-option="wheels_by"]:not([hidden])')
        cut[rules] = page.evaluate(CUT_CHOICES) + page.evaluate(OUTSIDE)
    assert cut == {"classic": [], "street": [], "standard": [], "goat": []}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []
    context.close()
