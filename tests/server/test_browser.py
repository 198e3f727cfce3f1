"""The browser table in a real browser: Debian's chromium driven by Playwright
against ``goat serve`` in a subprocess.

* create a table in the page, seat one person and three bots, play a whole
  classic deal by clicking (and, once, keyboarding) legal cards, and watch the
  score sheet gain the deal;
* a match to one penalty point played to its end, then reviewed: the deal's
  double-dummy analysis in a table (mistakes marked, a summary per team),
  in both languages, closed by Escape back to the result; a row chosen (a click,
  Enter, Space) draws the position before its card — every hand (mine at the
  bottom), the trick so far, the card played (▲) and the best (★) marked, in words
  for a screen reader, the trump suit — also right to left, on a phone; Spades too;
  the summary names the decisive ends its mistakes changed (a 24-card deal's never the shamok);
* "play again" at the end of a match: by the keyboard, into the new table's
  lobby with me and the same bots seated, while a spectator of the old table
  is offered the new one to watch; the other player of a finished match is
  offered to join it and lands in his own seat; a finished duel offers it too;
* close the page mid-game and open it again: the same seat comes back (its
  token is in the browser's storage) and play goes on;
* the lobby's bot choice: each bot as its level at the table's rules and its
  name ("Сильный — pimc"), in both languages, a line on the chosen bot under
  it, the level on seated bots' lines and badges; street's strong bot is ismcts;
* street: choose several cards, beat or pass them face down;
* the Rules panel: opened from the home form for classic (the shamok on top of
  the trumps, the table's match target), switched to English, closed by Escape
  back to its button; at a street table on a phone, the deal's shown trump suit
  and its order;
* Spades: a lobby that creates a Spades table with options from the catalog;
  a whole deal against three bots by clicks — the bid (by keyboard), thirteen
  tricks (one by keyboard) — and the score sheet; blind nil and double nil
  offered when the ruleset allows them, and the double nil's exchange;
* blind nil is bid blind: while a blind bid may come, the server sends no card
  (the hand is drawn face down) with a "look at my cards" control and only the
  blind bids; looking (by keyboard: the server is sent "bid look") shows the
  cards and takes the blind bids away for that deal, also across a reload
  (nothing of it in the page's storage); a partner's blind nil without looking, and the deal goes on;
  a blind nil left as the only bid (nil off, the partner at the team's limit) is
  still offered once I have looked;
* Yu-Gi-Oh!: a duel table made in the lobby (options from the catalog, the
  ``greedy`` bot by default), played by clicks against ``greedy`` until the first
  duel ends: a click on a hand or field card narrows the actions to it, one
  decision by the keyboard alone, the other hand only as backs, LP changing,
  actions shown only while the decision is ours, a Graveyard listed on demand;
  a monster in hand shows its printed ATK/DEF and Level from the card catalog,
  and Tab to a hand card opens its detail panel with the effect text (the Russian
  one on the Russian page, redrawn in English when the language switches); between
  the duels the side-deck picker makes one swap (a main deck card, then a side
  deck card), the full list of swaps stays behind the filter, and the next
  duel's deck list shows the swap.
* time per move: the create form's presets; at a table with one second a
  move, my turn shows the countdown and, when I wait, a card is played for me;
* table chat: two people's pages talk in the lobby and during play (markup is
  shown as text, the focus stays on the hand, keys typed in the chat never play
  a card), a spectator on a phone reads it collapsed, and the duel page has it;
  muting a seat hides its messages on that page (not counted as unread), across
  a reload, until "Show"; the create form's "Chat" setting: "lobby" disables the
  input during play, "off" everywhere, each with its note.

Screenshots of the table are written to ``tests/artifacts/`` (or
``$GOAT_TEST_ARTIFACTS``). Playwright's own browser download does not work on
these machines, so the tests need ``/usr/bin/chromium`` (``.ci/run`` installs it).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from goat.fast import spades_dd
from goat.fast.solver import warm_up
from goat.server.tables import seat_rng

from .conftest import Client, Lobby, ServeProcess, played_match
from .test_yugioh_table import play_duels

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio"]
ARTIFACTS = Path(os.environ.get("GOAT_TEST_ARTIFACTS") or Path(__file__).resolve().parents[1] / "artifacts")
SERVE = ("--bot-delay", "0.05", "--deal-pause", "0.6", "--rate-limit", "200")
WAIT = 30_000  # ms

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()


def shot(page: object, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    assert path.stat().st_size > 10_000
    return path


def new_page(browser: object, context: object | None = None, locale: str = "ru-RU") -> tuple[object, object]:
    context = context or browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)  # type: ignore
    page = context.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.set_default_timeout(WAIT)
    return context, page


def sit_at(page: object, url: str, table: str, token: str, seat: int) -> None:
    """Open ``table`` in ``page`` as the holder of ``seat``'s ``token`` (stored
    the way the page stores the tokens it is given)."""
    page.goto(url)  # type: ignore[attr-defined]
    page.evaluate("([id, token, seat]) => localStorage.setItem(`goat:token:${id}`, JSON.stringify({token, seat}))",  # type: ignore[attr-defined]
                  [table, token, seat])
    page.goto(f"{url}?table={table}")  # type: ignore[attr-defined]


def street_table_i_lead(server: ServeProcess, bot: str, options: dict[str, object] | None = None) -> tuple[str, str]:
    """A street table made over HTTP with me ("Аня") at seat 0 and ``bot`` at the
    others, on a seed whose first dealer is seat 3, so that I lead the first
    trick; its id and my token."""
    seed = next(s for s in range(100) if seat_rng(str(s), "first-dealer").randrange(4) == 3)
    created = httpx.post(f"{server.url}api/tables", json={"rules": "street", "name": "Аня", "seed": seed,
                                                        "options": options or {}}, timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2, 3):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": bot},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return table, token


def set_options(page: Any, options: dict[str, object]) -> None:
    """Open the create form's options and set each (true/false: its checkbox;
    a list's choice; else typed into its field)."""
    page.click("#options-summary")
    for name, value in options.items():
        field = page.locator(f'#option-list .option[data-option="{name}"] input, '
                             f'#option-list .option[data-option="{name}"] select')
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")


def create_with_bots(page: object, url: str, rules: str = "classic", bot: str = "heuristic",
                     game: str = "kozel", options: dict[str, object] | None = None, hints: bool = False,
                     chat: str | None = None) -> str:
    """Create a table in the page, sit at seat 0, fill seats 1-3 with bots; returns the table id.
    ``options`` are set in the form's option fields (true/false: a checkbox; else a value);
    ``hints``: tick "allow hints" (a table setting beside the options); ``chat``: the
    form's "Chat" choice (``on``, ``lobby``, ``off``)."""
    page.goto(url)
    page.fill("#create-name", "Аня")
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-game", game)
    page.select_option("#create-rules", rules)
    if options:
        set_options(page, options)
    if hints:
        page.check("#create-hints")
    if chat is not None:
        page.select_option("#create-chat", chat)
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("document.querySelector('#bot-kind').options.length > 1")
    page.select_option("#bot-kind", bot)
    for seat in (1, 2, 3):
        page.click(f'.seat-row[data-seat="{seat}"] .add-bot')
        page.wait_for_selector(f'.seat-row[data-seat="{seat}"].kind-bot')
    assert page.is_enabled("#start-btn")
    return re.search(r"table=([0-9a-f]+)", page.url).group(1)


MY_TURN_OR = """(rows) => document.querySelector('#hand .card[data-legal="true"]')
    || document.querySelectorAll('#score tbody tr.deal-row').length >= rows"""


def play_a_legal_card(page: object, by_keyboard: bool) -> str:
    """Play the first legal card of my hand, by a click or by the keyboard alone
    (Home, arrows, Enter), after checking that the dimmed cards are exactly the
    illegal ones; returns the card played."""
    cards = page.locator("#hand .card")
    legal = page.locator('#hand .card[data-legal="true"]')
    for i in range(cards.count()):              # a dimmed card is never a legal one, and vice versa
        card = cards.nth(i)
        assert (card.get_attribute("data-legal") == "true") != ("illegal" in card.get_attribute("class"))
    chosen = legal.first.get_attribute("data-card")
    if not by_keyboard:
        legal.first.click()
        return chosen
    target = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())].index(chosen)
    page.focus('#hand .card[tabindex="0"]')
    page.keyboard.press("Home")
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == chosen
    page.keyboard.press("Enter")
    return chosen


def deal_rows(page: object) -> int:
    return page.locator("#score tbody tr.deal-row").count()


def test_a_classic_deal_against_three_bots(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = create_with_bots(page, server.url)
    shot(page, "lobby")
    assert not page.title().startswith("▶")                   # the tab says "your turn" only when it is
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#hand .card")
    trump = page.text_content("#trump")
    assert "♣" in trump and "C" in trump                      # trump shown, symbol and letter
    assert page.get_attribute("#log", "aria-live") == "polite"
    assert page.is_hidden("#act-hint")                        # a table without hints offers none
    badges = page.locator(".seat-box .badge").all_text_contents()
    assert badges.count("Любитель (heuristic)") == 3        # a seated bot: its level, its name kept

    clicks = keyboard = 0
    last_trick_seen = False
    while deal_rows(page) == 0:
        page.wait_for_function(MY_TURN_OR, arg=1)
        if deal_rows(page):
            break
        assert page.title().startswith("▶ Ваш ход · ")           # the tab's title, for a background tab
        # the last trick on demand, on my turn: the bots wait, so it stays this deal's last trick
        # (right after my card they may end the deal, and the next one starts with none)
        if not last_trick_seen and page.locator("#log li", has_text="Взятка →").count():
            page.click("#last-trick-btn")
            assert page.get_attribute("#last-trick-btn", "aria-expanded") == "true"
            assert page.locator("#last-trick .last-row").count() == 4
            assert "взял(а)" in page.text_content("#last-trick")
            shot(page, "classic-mid-deal")
            last_trick_seen = True
        if keyboard == 0:                            # once with the keyboard alone: arrows, then Enter
            version = int(page.get_attribute("body", "data-version"))
            play_a_legal_card(page, by_keyboard=True)
            keyboard += 1
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
        else:
            play_a_legal_card(page, by_keyboard=False)
        clicks += 1
    assert clicks >= 1 and keyboard == 1   # (the shamok catching the queen can end a deal early)
    row = page.locator("#score tbody tr.deal-row").first
    cells = [row.locator("td").nth(i).text_content() for i in range(2)]
    points = [int(re.match(r"\d+", c).group()) for c in cells]
    assert sum(points) == 120 or page.locator("#score .note-row").count() == 1  # the shamok ends a deal early
    assert re.search(r"\d+ / 12", page.text_content("#score tfoot"))
    log = page.locator("#log li").all_text_contents()
    assert sum("Аня (вы)" in line for line in log) >= clicks          # every card I played is in the log
    assert any(line.startswith("Сдача 1: очки") for line in log)      # and the deal's result
    shot(page, "classic-score-sheet")

    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Score sheet" in page.text_content("#game .side")
    shot(page, "classic-english")
    assert page.locator(".seat-box .badge", has_text="Club player (heuristic)").count() == 3

    page.set_viewport_size({"width": 390, "height": 844})   # a phone
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    felt, score = page.locator(".felt").bounding_box(), page.locator("#score").bounding_box()
    assert score["y"] > felt["y"] + felt["height"]           # the side panel moves below the table
    shot(page, "classic-mobile")
    for box in page.locator(".seat-box:not([hidden])").all():    # the level badge stays inside its seat
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    assert page.errors == []
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert info["status"] == "playing" and info["seats"][0]["name"] == "Аня"
    context.close()


def bot_choice(page: object) -> list[tuple[str, str]]:
    """The lobby's bot select as (value, label) pairs, in their order."""
    pairs = page.evaluate("[...document.querySelectorAll('#bot-kind option')].map((o) => [o.value, o.text])")  # type: ignore
    return [tuple(pair) for pair in pairs]


def test_the_bot_choice_says_each_bots_level(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The lobby's "Bot" select words each bot as its level at the table's rules
    and its name, weakest first ("Сильный — pimc"; the value stays the token), in
    Russian and English; the line under it says what the chosen bot does and how
    long it thinks, and follows the choice; a seated bot reads "Бот 2 · Сильный
    (pimc)". In street the strong one is ismcts, and pimc says it plays like
    heuristic there. It fits a phone."""
    server = serve_process(*SERVE, "--bot-think", "2")
    context, page = new_page(chromium)
    page.goto(server.url)
    page.fill("#create-name", "Аня")
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-rules", "classic")
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("document.querySelector('#bot-kind').options.length > 1")
    assert bot_choice(page) == [("random", "Новичок — random"), ("heuristic", "Любитель — heuristic"),
                                ("ismcts", "Сильный — ismcts"), ("pimc", "Сильный — pimc")]
    assert page.input_value("#bot-kind") == "heuristic"                    # today's default
    about = page.text_content("#bot-about")
    assert about.startswith("Играет по правилам опытного игрока") and about.endswith("Ходит сразу.")
    assert page.get_attribute("#bot-kind", "aria-describedby") == "bot-about"
    page.select_option("#bot-kind", "pimc")
    page.wait_for_function("document.querySelector('#bot-about').textContent.startsWith('Перебирает')")
    assert page.text_content("#bot-about").endswith("Думает над ходом до 2 секунд.")
    page.click('.seat-row[data-seat="1"] .add-bot')
    page.wait_for_selector('.seat-row[data-seat="1"].kind-bot')
    assert page.text_content('.seat-row[data-seat="1"] .seat-name') == "Бот 2 · Сильный (pimc)"
    shot(page, "lobby-bot-levels")

    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert bot_choice(page) == [("random", "Beginner — random"), ("heuristic", "Club player — heuristic"),
                                ("ismcts", "Strong — ismcts"), ("pimc", "Strong — pimc")]
    assert page.input_value("#bot-kind") == "pimc"                         # the language switch keeps the choice
    about = page.text_content("#bot-about")
    assert about.startswith("Imagines many deals") and about.endswith("Thinks up to 2 seconds a move.")
    assert page.text_content('.seat-row[data-seat="1"] .seat-name') == "Bot 2 · Strong (pimc)"
    page.select_option("#bot-kind", "random")
    page.wait_for_function("document.querySelector('#bot-about').textContent.endsWith('Moves at once.')")
    assert page.text_content("#bot-about").startswith("Plays any legal card at random")
    page.set_viewport_size({"width": 390, "height": 844})                  # a phone
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    shot(page, "lobby-bot-levels-mobile")

    # street: the solver does not reach it, so ismcts is the strong bot and pimc is heuristic
    created = httpx.post(f"{server.url}api/tables", json={"rules": "street", "name": "Аня"}, timeout=10).json()
    sit_at(page, server.url, created["id"], created["token"], created["seat"])
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("document.querySelector('#bot-kind').options.length > 1")
    assert bot_choice(page) == [("random", "Beginner — random"), ("heuristic", "Club player — heuristic"),
                                ("pimc", "Club player — pimc"), ("ismcts", "Strong — ismcts")]
    page.select_option("#bot-kind", "pimc")
    page.wait_for_function("document.querySelector('#bot-about').textContent.includes('heuristic')")
    assert page.text_content("#bot-about") == ("Under these rules its search does not apply: it plays exactly "
                                               "like heuristic. Moves at once.")
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert page.text_content("#bot-about") == ("В этих правилах его расчёт не работает: играет в точности как "
                                               "heuristic. Ходит сразу.")
    page.select_option("#bot-kind", "ismcts")
    page.wait_for_function("document.querySelector('#bot-about').textContent.startsWith('Разыгрывает')")
    assert page.errors == []
    context.close()


def test_counts_take_the_plural_form_of_the_language(chromium: object,
                                                     serve_process: Callable[..., ServeProcess]) -> None:
    """"1 штрафное очко", "2 штрафных очка", "5 штрафных очков", "21 штрафное
    очко"; "1 penalty point", "2 penalty points"; "1 наказателна точка", "2
    наказателни точки"; Arabic's six forms: a count's word agrees with it in each
    language (i18n.js ``{n|form|form...}``), in the strings the score sheet and
    the result box use."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    said = page.evaluate("""async () => {
        const m = await import("/static/i18n.js");
        const out = {};
        for (const code of ["ru", "en", "bg"]) {
            m.setLang(code);
            out[code] = [1, 2, 5, 21].map((n) => m.t("goatIs", { team: "X", p: n }));
            out[code + "Beat"] = [1, 3].map((n) => m.t("yourTurnBeat", { n }));
        }
        m.setLang("ar");
        out.ar = [0, 1, 2, 3, 11, 100].map((n) => m.t("cardsLeft", { n }));
        out.arGoat = [2, 5, 12].map((n) => m.t("goatIs", { team: "X", p: n }));
        return out;
    }""")
    assert said["ru"] == ["X — козлы: 1 штрафное очко.", "X — козлы: 2 штрафных очка.",
                          "X — козлы: 5 штрафных очков.", "X — козлы: 21 штрафное очко."]
    assert said["en"] == ["X are the goats with 1 penalty point.", "X are the goats with 2 penalty points.",  # a team
                          "X are the goats with 5 penalty points.", "X are the goats with 21 penalty points."]
    assert said["ruBeat"] == ["Ваш ход: побейте 1 картой или скиньте 1 карту рубашкой вверх.",
                              "Ваш ход: побейте 3 картами или скиньте 3 карты рубашкой вверх."]
    assert said["enBeat"][0] == "Your turn: beat with 1 card, or pass 1 face down."
    assert said["bg"] == ["X са козли с 1 наказателна точка.", "X са козли с 2 наказателни точки.",   # a team: plural
                          "X са козли с 5 наказателни точки.", "X са козли с 21 наказателни точки."]
    assert said["bgBeat"] == ["Ваш ред: бийте с 1 карта или пуснете 1 с гръб нагоре.",
                              "Ваш ред: бийте с 3 карти или пуснете 3 с гръб нагоре."]
    # Arabic: 2 takes the dual, 3–10 the plural, 11–99 and 100 the singular (0 and 1 too)
    assert said["ar"] == ["0 بطاقة", "1 بطاقة", "2 بطاقتان", "3 بطاقات", "11 بطاقة", "100 بطاقة"]
    assert said["arGoat"] == ["X هما العنزتان بـ2 درجتي هزيمة.", "X هما العنزتان بـ5 درجات هزيمة.",
                              "X هما العنزتان بـ12 درجة هزيمة."]   # goatIs: a team of two, the dual
    assert page.errors == []
    context.close()


#: How many forms a count's word lists in each language (i18n.js ``{n|form|...}``, in PLURAL_ORDER):
#: English and Bulgarian one/other, Russian one/few/many and for a count that can be a fraction
#: (seconds) "other" too, Arabic all six.
PLURAL_FORMS = {"en": {2}, "ru": {3, 4}, "bg": {2}, "ar": {6}}


def test_every_string_is_in_every_language(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Every key of i18n.js's English has a text in Russian, Bulgarian and Arabic,
    with the same ``{placeholders}`` (a string missing in a language would fall
    back to English, a misspelt placeholder would show as it is), and every count
    lists its word in as many forms as the language has (a missing Arabic form
    would give the wrong word for some numbers)."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    found = page.evaluate("""async () => {
        const { STRINGS, LANGS } = await import("/static/i18n.js");
        const flat = (obj, prefix = "", out = {}) => {
            for (const [k, v] of Object.entries(obj)) {
                if (v && typeof v === "object" && !Array.isArray(v)) {
                    if (!Object.keys(v).length) out[prefix + k + ".*"] = "";
                    flat(v, prefix + k + ".", out);
                } else out[prefix + k] = String(v);
            }
            return out;
        };
        return Object.fromEntries(LANGS.map((code) => [code, flat(STRINGS[code])]));
    }""")
    assert sorted(found) == sorted(PLURAL_FORMS)
    en = found["en"]

    def fields(text: str) -> set[str]:
        return set(re.findall(r"\{(\w+)[}|]", text))

    for code, strings in found.items():
        # an empty group ("races: {}" in English) names things by their own (English) names
        named_as_is = [key[:-1] for key in {**en, **strings} if key.endswith(".*")]
        differ = sorted(key for key in set(en) ^ set(strings)
                        if not key.endswith(".*") and not key.startswith(tuple(named_as_is)))
        assert differ == [], code
        shared = {k: v for k, v in en.items() if k in strings}
        assert len(shared) > 300, code
        assert [key for key in shared if fields(en[key]) != fields(strings[key])] == [], code
        forms = {key: [len(f.split("|")) for f in re.findall(r"\{\w+\|([^{}]*)\}", text)]
                 for key, text in strings.items()}
        assert {key: n for key, n in forms.items() if set(n) - PLURAL_FORMS[code]} == {}, code
    context.close()


def test_a_hint_at_a_table_that_allows_them(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Classic against three bots, in Russian, made with "Разрешить подсказки":
    the lobby says hints are allowed; on my turn "Подсказка" marks one card of
    my hand, a legal one, and the log reads it out; I play it and the mark is
    gone; on a later turn the H key asks again."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = create_with_bots(page, server.url, hints=True)
    assert "Подсказки разрешены" in page.text_content("#lobby-options")
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    for turn, by_key in enumerate((False, True)):
        page.wait_for_selector('#hand .card[data-legal="true"]')
        page.wait_for_selector("#act-hint:not([hidden])")
        assert page.text_content("#act-hint") == "Подсказка"
        assert page.get_attribute("#act-hint", "aria-keyshortcuts") == "H"
        version = int(page.get_attribute("body", "data-version"))
        if by_key:
            page.locator("#act-hint").blur()
            page.keyboard.press("h")
        else:
            page.click("#act-hint")
        hinted = page.locator("#hand .card.hinted")     # a locator, not a handle: each redraw makes the hand anew
        hinted.first.wait_for()
        assert hinted.count() == 1
        card = hinted.get_attribute("data-card")
        assert hinted.get_attribute("data-legal") == "true"            # a card I may play
        assert "подсказка" in hinted.get_attribute("aria-label")
        line = page.locator("#log li.hint-line").last
        rank = "10" if card[0] == "T" else card[0]
        assert line.locator(".shown").text_content() == f"Подсказка: {rank}{'♣♦♥♠'['CDHS'.index(card[1])]}"
        assert line.locator(".sr-only").text_content().startswith("Подсказка: ")    # said in words
        assert int(page.get_attribute("body", "data-version")) == version
        if turn == 0:
            shot(page, "classic-hint")
        hinted.click()                                                    # play it
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
        page.wait_for_function("() => !document.querySelector('#hand .card.hinted')")   # until I play
        assert page.locator(f'#hand .card[data-card="{card}"]').count() == 0   # it left my hand
    assert page.errors == []
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert info["hints"] is True
    context.close()


#: Records, at every change of the page, what the move clock shows: the seat
#: box holding the countdown (and whether it is mine), its seconds, my turn line.
CLOCK_WATCH = """window.__clock = [];
new MutationObserver(() => {
  const meter = document.querySelector('.move-clock');
  const mine = document.querySelector('.clock-mine:not([hidden])');
  if (meter || mine) window.__clock.push({
    seat: meter ? meter.closest('[data-seat]').dataset.seat : null,
    me: Boolean(meter && meter.closest('.me')),
    secs: meter ? meter.querySelector('.clock-secs').textContent : null,
    mine: mine ? mine.textContent : null});
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});"""


def test_time_per_move_plays_my_card_when_i_wait(chromium: object,
                                                 serve_process: Callable[..., ServeProcess]) -> None:
    """The form offers "Время на ход" as off and the presets, and the lobby
    shows the choice; at a table made through the API with the smallest time
    the API takes (1 s: the form offers only the presets), my turn shows the
    countdown in my seat's box and beside my turn line, says the warning once,
    and when I wait, a card is played for me, the log says so, and the seat
    stays mine."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    values = page.eval_on_selector_all("#create-clock option", "os => os.map(o => [o.value, o.textContent])")
    assert values == [["", "нет"], ["15", "15 с"], ["30", "30 с"], ["60", "60 с"], ["120", "120 с"], ["300", "300 с"]]
    page.fill("#create-name", "Аня")
    page.select_option("#create-clock", "30")
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    assert "Время на ход: 30 с" in page.text_content("#lobby-options")

    created = httpx.post(f"{server.url}api/tables", json={"name": "Аня", "rules": "classic", "seed": 3,
                                                           "move_seconds": 1}, timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2, 3):
        r = httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "heuristic"},
                       headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert r.status_code == 200, r.text
    page.add_init_script(CLOCK_WATCH)
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#lobby:not([hidden])")
    assert "Время на ход: 1 с" in page.text_content("#lobby-options")
    page.click("#start-btn")
    line = page.wait_for_selector("#log li.clock-line")                  # I do nothing: time runs out
    text = line.text_content()
    assert text.startswith("Время вышло: за игрока Аня (вы) сыграно "), text
    seen = page.evaluate("window.__clock")
    assert {"seat": "0", "me": True, "secs": "1 с", "mine": "На ход осталось 1 с"} in seen, seen
    assert all(entry["seat"] in ("0", None) for entry in seen)           # the bots' turns have no clock
    assert page.text_content("#clock-say") == "На ваш ход осталось 1 секунда"
    shot(page, "time-ran-out")
    assert "Аня" in page.text_content(".seat-box.me") and "отошёл" not in page.text_content(".seat-box.me")
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert info["move_seconds"] == 1 and info["seats"][0]["name"] == "Аня" and not info["seats"][0]["autoplay"]
    assert page.errors == []
    context.close()


def test_a_finished_match_is_reviewed_deal_by_deal(chromium: object,
                                                   serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = finish_a_quick_match(page, server.url)   # the first penalty ends it
    said = page.text_content("#result-text")                 # the result told once, in the player's words
    assert re.fullmatch(r"Ваша команда — козлы: \d+ штрафн\S+ очк\S+\."
                        r"|Ваша команда победила! Они — козлы: \d+ штрафн\S+ очк\S+\.", said), said
    assert page.is_visible("#review-btn")
    warm_up()   # the kernel compiled (or loaded) and in numba's cache, so the server loads it, not compiles it
    page.click("#review-btn")
    assert page.is_hidden("#result") and page.is_visible("#review")
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=180_000)   # solving: seconds
    review = httpx.get(f"{server.url}api/tables/{table}/review/1", timeout=180).json()
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == len(review["moves"]) > 0

    def shown(value: int) -> str:   # a decisive value is named, a point total is the number
        if abs(value) >= review["royal"]:
            return "королевский козёл" if value > 0 else "королевский козёл у соперников"
        if abs(value) >= review["catch"]:
            return "шамок ловит даму" if value > 0 else "дама поймана"
        return str(value)

    for i, move in enumerate(review["moves"]):
        cells = rows.nth(i).locator("td").all_text_contents()
        assert (cells[0], cells[3], cells[5]) == (str(move["trick"]), shown(move["value"]),
                                                  shown(move["best_value"]))
    assert "Аня (вы)" in page.text_content("#review-table tbody")                   # my plays by my name
    mistakes = page.locator("#review-table tbody tr.mistake")
    assert mistakes.count() == sum(1 for m in review["moves"] if m["cost"])
    changed = page.locator("#review-table tbody tr.result-changed")   # the mistakes the score sheet felt
    assert changed.count() == sum(1 for m in review["moves"] if m["result"] != m["best_result"])
    assert page.locator("#review-table tbody .result-mark").count() == changed.count()
    first = review["moves"][0]["best_result"]   # the deal with best play, as the server scored it
    us = 0   # Аня sits at seat 0: team 0 is "Мы"
    assert page.text_content("#review-best") == ("Штрафные очки, если все играют безошибочно с первой карты: "
                                                 f"Мы {first['penalty'][us]}, Они {first['penalty'][1 - us]}")
    assert page.locator("#review-summary li").count() == 2
    for side, item in zip(review["summary"], page.locator("#review-summary li").all_text_contents()):
        if side["mistakes"]:
            assert f"из них изменили итог раздачи (кто выиграл, штраф): {side['results_changed']}" in item
    assert page.locator("#review-deal option").count() == review["deals"]
    assert page.text_content("#review-title") == "Разбор раздачи"
    shot(page, "classic-review")
    rows_checked = choose_review_rows(page, review, "classic")                      # the deal diagram
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Best value" in page.text_content("#review-table thead")
    assert re.match(r"(Us|Them): (1 mistake|\d+ mistakes), (1 point|\d+ points) given away"
                    r"( and \d+ that changed a decisive end \((shamok catch|royal goat|shamok catch, royal goat)\))?"
                    r"(; \d+ of them changed the deal's result \(who wins, the penalty\))?$",
                    page.text_content("#review-summary li"))
    assert page.text_content("#review-board .board-title").startswith("Trick ")     # redrawn in English
    in_language(page, "ar")
    page.set_viewport_size({"width": 390, "height": 844})                           # a phone, right to left
    check_review_board(page, review, rows_checked[-1], lang="ar")
    page.locator("#review-table tbody tr").nth(0).locator("button.review-pick").click()   # the table's top row
    check_review_board(page, review, 0, lang="ar")
    page.wait_for_function("() => { const b = document.querySelector('#review-board').getBoundingClientRect();"
                           " const p = document.querySelector('#review').getBoundingClientRect();"
                           " return b.top >= Math.max(p.top, 0) - 1"
                           " && b.bottom <= Math.min(p.bottom, innerHeight) + 1; }",
                           timeout=5_000)   # under the table on a phone: the whole diagram brought into view
    shot(page, "classic-review-board-ar-phone")
    page.keyboard.press("Escape")                                                   # back to the result
    assert page.is_hidden("#review") and page.is_visible("#result")
    assert page.errors == []
    context.close()


#: The diagram's words in each language the tests read it in: the title, a card's roles, the trump.
BOARD_WORDS = {
    "ru": {"title": "Взятка {n}: ходит {name}", "played": "сыграна", "best": "лучшая", "trump": "Козырь",
           "spades": "Пики — козыри", "empty": "Стол пуст: новая взятка", "on": "На столе: "},
    "ar": {"title": "اللمّة {n}: دور {name}", "played": "ملعوبة", "best": "الأفضل", "trump": "الترامب",
           "spades": "البستوني ترامب", "empty": "الطاولة فارغة: لمّة جديدة", "on": "على الطاولة: "},
}
SUIT_GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def choose_review_rows(page: object, review: dict[str, Any], name: str) -> list[int]:
    """Choose rows of the open review (Russian) by a click on a cell, by Enter and by
    Space on the row's button, and check the diagram each draws; returns the rows."""
    assert page.is_hidden("#review-board") and page.is_visible("#review-pick")      # nothing chosen yet
    rows = page.locator("#review-table tbody tr")
    mistakes = [i for i, m in enumerate(review["moves"]) if m["cost"]]
    first = mistakes[0] if mistakes else 0                                          # a mistake: two marks
    rows.nth(first).locator("td").nth(3).click()                                    # anywhere on the row
    check_review_board(page, review, first)
    chosen = [first]
    for key, row in (("Enter", len(review["moves"]) - 1), (" ", len(review["moves"]) // 2)):
        rows.nth(row).locator("button.review-pick").focus()
        page.keyboard.press(key)
        check_review_board(page, review, row)
        chosen.append(row)
    assert page.locator("#review-table tbody tr.chosen").count() == 1
    assert page.locator('#review-table tbody .review-pick[aria-current="true"]').count() == 1
    shot(page, f"{name}-review-board")
    return chosen


def check_review_board(page: object, review: dict[str, Any], row: int, lang: str = "ru") -> None:
    """The diagram shows row ``row``'s position as the server's review gives it: each
    seat's hand (mine, seat 0, at the bottom), the trick so far, the card played marked
    ▲ and the best ones ★ (and said so in words), the trump suit; it fits the page."""
    words = BOARD_WORDS[lang]
    move = review["moves"][row]
    position = move["position"]
    page.wait_for_function("(i) => document.querySelector('#review-table tbody tr.chosen')?.dataset.row === String(i)"
                           " && !document.querySelector('#review-board').hidden", arg=row)
    board = page.locator("#review-board")
    seat, _, card = move["action"].split()
    name = page.text_content(f"#review-board .board-hand[data-seat='{seat}'] .name").lstrip("▶ ")
    assert page.text_content("#review-board .board-title") == words["title"].format(n=move["trick"], name=name)
    for s, hand in enumerate(position["hands"]):
        shown = board.locator(f".board-hand[data-seat='{s}'] .card")
        assert [shown.nth(i).get_attribute("data-card") for i in range(shown.count())] == hand
    assert "pos-bottom" in board.locator(".board-hand[data-seat='0']").get_attribute("class")   # my seat
    played = board.locator(".card.played")
    assert played.count() == 1 and played.get_attribute("data-card") == card
    assert "▲" in played.text_content()
    assert board.locator(f".board-hand[data-seat='{seat}'] .card.played").count() == 1    # in the mover's hand
    best = {a.split()[2] for a in move["best"]}
    marked = board.locator(".card.best")
    assert {marked.nth(i).get_attribute("data-card") for i in range(marked.count())} == best
    assert all("★" in text for text in marked.all_text_contents())
    said = board.locator(f".board-hand[data-seat='{seat}'] .board-cards").get_attribute("aria-label")
    assert f"{words['played']}" in said and f"{words['best']}" in said
    assert (f", {words['best']})" in said) == (card in best)                       # both roles: "(played, best)"
    on_table = board.locator(".board-trick .card")
    assert [on_table.nth(i).get_attribute("data-card") for i in range(on_table.count())] == \
        [c for play in position["trick"] for c in play["cards"]]
    trick_said = board.locator(".board-trick").get_attribute("aria-label")
    assert trick_said.startswith(words["on"]) if position["trick"] else trick_said == words["empty"]
    info = page.text_content("#review-board .board-info")
    if "trump" in position:
        assert f"{words['trump']}: {SUIT_GLYPHS[position['trump']]} {position['trump']}" in info
    else:
        assert words["spades"] in info and review["game"] == "spades"
    legend = page.text_content("#review-board .board-legend")
    assert legend.count("▲") == 1 and legend.count("★") == 1
    assert page.evaluate("""() => { const b = document.querySelector('#review-board');
        return b.scrollWidth <= b.clientWidth + 1 && b.getBoundingClientRect().right <= innerWidth + 1
            && b.getBoundingClientRect().left >= -1; }"""), "the diagram is wider than its box or the page"
    if len(position["hands"]) == 4:   # seats keep their places: the next player on my left, also in Arabic
        left = board.locator(".board-hand[data-seat='1']").bounding_box()
        right = board.locator(".board-hand[data-seat='3']").bounding_box()
        assert left["x"] + left["width"] <= right["x"]


def spades_finished_with_a_valued_card(server: ServeProcess) -> tuple[str, str, dict[str, Any]]:
    """A one-deal Spades match of Ann (who bids 3, then plays her first legal card)
    and three heuristic bots, played over the WebSocket beside Playwright, on the
    first of a few seeds whose deal has cards valued (a nil alive all deal has none):
    the table, Ann's token and the review."""
    async def bid_three_then_play(client: Client) -> None:
        await client.send({"type": "sync"})
        while True:
            state = await client.until(lambda m: m["type"] == "state" and m["view"] is not None, timeout=60)
            if state["status"] == "finished":
                return
            view = state["view"]
            if view["current_player"] == 0 and view["legal_actions"]:
                legal = view["legal_actions"]
                await client.act("0 bid 3" if "0 bid 3" in legal else legal[0], state["version"])

    async def match(seed: int) -> tuple[str, str]:
        lobby = Lobby(server.url)
        try:
            tid, token = await lobby.with_bots(game="spades", rules="standard", seed=seed, options={"max_deals": 1})
            async with Client(server.ws_url, tid, token) as me:
                await lobby.start(tid, token)
                await bid_three_then_play(me)
            return tid, token
        finally:
            await lobby.close()

    for seed in range(1, 9):
        done: dict[str, tuple[str, str]] = {}
        worker = threading.Thread(target=lambda: done.setdefault("table", asyncio.run(match(seed))))
        worker.start()
        worker.join(300)
        table, token = done["table"]
        review = httpx.get(f"{server.url}api/tables/{table}/review/1", timeout=120).json()
        if review["moves"]:
            return table, token, review
    raise AssertionError("no seed gave a Spades deal without a nil alive all through it")


@pytest.mark.skipif(not spades_dd.dds_available(), reason="needs endplay (DDS)")
def test_a_spades_review_draws_the_deal(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Spades reviews have the deal diagram too: thirteen cards a hand, no trump
    suit named by the deal (spades are trumps), no stock."""
    server = serve_process(*SERVE)
    table, token, review = spades_finished_with_a_valued_card(server)
    context, page = new_page(chromium)
    sit_at(page, server.url, table, token, 0)
    page.goto(f"{server.url}?table={table}&review=1")
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=60_000)
    rows = choose_review_rows(page, review, "spades")
    assert page.text_content("#review-board .board-info") == "Пики — козыри"
    last = len(review["moves"]) - 1                                   # the deal's last card: three on the table
    assert last in rows and len(review["moves"][last]["position"]["trick"]) == 3
    assert page.errors == []
    context.close()


def test_a_review_with_the_royal_goat_and_a_stock_says_it_starts_after_the_last_draw(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Classic with ``royal_goat``: the solver takes no position while a stock is
    left, so the cards played before the last draw are not analysed — said so,
    not as "the partner exchange" (classic has none); a deal over before the last
    draw has no row at all, and says the same instead of "no card was played"."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = finish_a_quick_match(page, server.url, {"royal_goat": True})
    warm_up()   # the kernel compiled (or loaded) and in numba's cache, so the server loads it, not compiles it
    page.click("#review-btn")
    said = "Ходов без разбора: "
    page.wait_for_function(f"""document.querySelector('#review-table:not([hidden]) tbody tr')
        || document.querySelector('#review-status').textContent.startsWith('{said}')""", timeout=180_000)
    review = httpx.get(f"{server.url}api/tables/{table}/review/1", timeout=180).json()
    skipped = review["skipped"]
    # plays before the last draw, and a forced exchange's gives among them where the deal had one
    assert skipped and all(" play " in a or " give " in a for a in skipped)
    assert any(" play " in a for a in skipped)
    assert review["skipped_reasons"] == ["the solver does not take the royal goat while a stock is left"]
    shown = page.text_content("#review-skipped" if review["moves"] else "#review-status")
    assert shown == (f"{said}{len(skipped)} — решатель не учитывает королевского козла, пока в колоде есть карты, "
                     "так что разбор начинается после последнего добора.")
    assert page.errors == []
    context.close()


def test_a_36_card_deal_offers_no_review(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Classic with a 36-card deck: the solver takes decks of up to 32 cards (its
    search of such a deal never ended, holding the server's one review worker),
    so the finished match offers no review, and asking anyway is a one-line 404."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = finish_a_quick_match(page, server.url, {"deck": "36"})
    assert page.is_hidden("#review-btn")
    answer = httpx.get(f"{server.url}api/tables/{table}/review/1", timeout=60)
    assert answer.status_code == 404 and answer.json()["error"] == "the solver handles decks of up to 32 cards, not 36"
    assert page.errors == []
    context.close()


#: A review of a 24-card full-hand deal (nines to aces: no seven of clubs, so no shamok)
#: where team 0's one mistake gave away a royal goat: the server's answer, as
#: goat.analysis gives it, served in place of the real one.
REVIEW_24 = {
    "game": "kozel", "deal": 1, "deals": 1, "rules": "full-hand-24", "catch": 1000, "royal": 2000,
    "moves": [{"index": 0, "trick": 1, "seat": 0, "side": 0, "action": "0 play 9H", "value": 40,
               "best_value": 2000, "best": ["0 play AH"], "cost": 1960,
               "result": {"kind": "won", "penalty": [0, 2]}, "best_result": {"kind": "royal-goat-for", "penalty": None}},
              {"index": 1, "trick": 1, "seat": 1, "side": 1, "action": "1 play TH", "value": -40,
               "best_value": -40, "best": ["1 play TH"], "cost": 0,
               "result": {"kind": "won", "penalty": [0, 2]}, "best_result": {"kind": "won", "penalty": [0, 2]}}],
    "skipped": [], "skipped_reasons": [],
    "summary": [{"side": 0, "mistakes": 1, "points_lost": 0, "decisive": 1, "results_changed": 1},
                {"side": 1, "mistakes": 0, "points_lost": 0, "decisive": 0, "results_changed": 0}],
    "result": None,
}


def test_a_review_names_only_the_decisive_ends_its_mistakes_changed(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The summary's decisive mistakes are named by what they changed, read from their
    values: a 24-card deck has no seven of clubs, so a royal goat given away there is
    "(royal goat)", never "(shamok, royal goat)" — in every language of the page."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    finish_a_quick_match(page, server.url)
    page.route(re.compile(r"/api/tables/[^/]+/review/1$"), lambda route: route.fulfill(json=REVIEW_24))
    page.click("#review-btn")
    page.wait_for_selector("#review-table:not([hidden]) tbody tr")
    royal = {"ru": "королевский козёл", "en": "royal goat", "bg": "кралски козел", "ar": "العنزة الملكية"}
    shamok = {"ru": "шамок", "en": "shamok", "bg": "шамок", "ar": "الشاموك"}
    for lang in ("ru", "en", "bg", "ar"):
        if lang != "ru":
            in_language(page, lang)
        ours = page.locator("#review-summary li").first.text_content()
        assert f"({royal[lang]})" in ours and shamok[lang] not in ours, (lang, ours)
    assert page.errors == []
    context.close()


def finish_a_quick_match(page: object, url: str, options: dict[str, object] | None = None) -> str:
    """A classic table against three bots whose match ends at the first penalty
    point (``options``: more of the table's options), played by clicks until the
    result shows; returns the table id."""
    table = create_with_bots(page, url, options={"match_target": 1} | (options or {}))
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    while True:
        page.wait_for_selector('#result:not([hidden]), #hand .card[data-legal="true"]')
        if page.is_visible("#result"):
            return table
        play_a_legal_card(page, by_keyboard=False)
        page.wait_for_timeout(50)


def test_play_again_opens_the_rematch_lobby(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The result offers "Ещё партию"; by the keyboard it makes the rematch and
    opens its lobby: me in my seat under my name, the same bots in theirs. A
    spectator of the old table is offered the new one to watch at once."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = finish_a_quick_match(page, server.url)
    play = page.locator("#rematch button.rematch-play")
    assert play.text_content() == "Ещё партию" and page.is_visible("#rematch button.rematch-play")
    watcher_context, watcher = new_page(chromium, locale="en-US")   # no token there: a spectator
    watcher.goto(f"{server.url}?table={table}")
    watcher.wait_for_selector("#result:not([hidden])")
    assert watcher.locator("#rematch a, #rematch button").count() == 0    # nothing to watch yet
    shot(page, "rematch-offer")

    play.focus()                                                    # reachable and used by the keyboard
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"table=(?!" + table + r")[0-9a-f]+$"))
    page.wait_for_selector("#lobby:not([hidden])")
    new = re.search(r"table=([0-9a-f]+)", page.url).group(1)
    page.wait_for_selector('.seat-row[data-seat="0"].kind-human')
    assert "Аня (вы)" in page.text_content('.seat-row[data-seat="0"]')
    for seat in (1, 2, 3):
        assert page.locator(f'.seat-row[data-seat="{seat}"].kind-bot').count() == 1
        assert "heuristic" in page.text_content(f'.seat-row[data-seat="{seat}"]')
    assert page.is_visible("#start-btn") and page.is_enabled("#start-btn")
    assert page.evaluate(f"JSON.parse(localStorage.getItem('goat:token:{new}')).seat") == 0
    info = httpx.get(f"{server.url}api/tables/{new}", timeout=10).json()
    assert info["options"] == {"match_target": 1} and info["seats"][0]["name"] == "Аня"
    shot(page, "rematch-lobby")

    watch = watcher.locator("#rematch a.rematch-watch")            # told by the old table's broadcast
    watch.wait_for()
    assert watch.text_content() == "Watch the rematch" and watch.get_attribute("href") == f"?table={new}"
    assert page.errors == [] and watcher.errors == []
    watcher_context.close()
    context.close()


def played_beside_playwright(server: ServeProcess, names: list[str]) -> dict[str, Any]:
    """A classic match of the people ``names`` and bots played to its end over the
    WebSocket (``played_match``, seed 11) in a thread with its own event loop,
    beside Playwright's: ``{"id": table, "tokens": [per person]}``."""
    played: dict[str, Any] = {}

    async def match() -> None:
        lobby = Lobby(server.url)
        played["id"], played["tokens"] = await played_match(lobby, server.ws_url, names, seed=11)
        await lobby.close()

    worker = threading.Thread(target=lambda: asyncio.run(match()))
    worker.start()
    worker.join(300)
    assert "tokens" in played, "the match did not end"
    return played


def ann_and_bo_at_the_result(chromium: object, server: ServeProcess) -> tuple[dict[str, Any], tuple, tuple]:
    """A match of Ann and Bo (and two bots) played to its end over the WebSocket, then
    each one's page (Ann's in Russian, Bo's in English) open at its result: the
    played match, and Ann's and Bo's (context, page)."""
    played = played_beside_playwright(server, ["Ann", "Bo"])
    pages = []
    for seat, locale in ((0, "ru-RU"), (1, "en-US")):
        context, page = new_page(chromium, locale=locale)
        sit_at(page, server.url, played["id"], played["tokens"][seat], seat)
        page.locator("#result:not([hidden]) #rematch button.rematch-play").wait_for()
        pages.append((context, page))
    return played, pages[0], pages[1]


def test_the_other_player_joins_the_rematch(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Two people and two bots end a match (played over the WebSocket), each
    with the table open in their own browser. Ann plays again; Bo's result
    turns into "Join the rematch" at once, and it seats him in his own seat of
    Ann's new table."""
    server = serve_process(*SERVE)
    played, (ann_context, ann), (bo_context, bo) = ann_and_bo_at_the_result(chromium, server)
    ann.click("#rematch button.rematch-play")
    ann.wait_for_selector("#lobby:not([hidden])")
    new = re.search(r"table=([0-9a-f]+)", ann.url).group(1)
    join = bo.locator("#rematch button.rematch-join")
    join.wait_for()
    assert join.text_content() == "Join the rematch"
    join.click()
    bo.wait_for_selector("#lobby:not([hidden])")
    assert re.search(r"table=([0-9a-f]+)", bo.url).group(1) == new
    bo.wait_for_selector('.seat-row[data-seat="1"].kind-human')
    assert "Bo (you)" in bo.text_content('.seat-row[data-seat="1"]')
    ann.wait_for_selector('.seat-row[data-seat="1"].kind-human')                    # Ann sees him sit down
    assert [s["name"] for s in httpx.get(f"{server.url}api/tables/{new}", timeout=10).json()["seats"]] == [
        "Ann", "Bo", "heuristic bot", "heuristic bot"]
    assert ann.errors == [] and bo.errors == []
    ann_context.close()
    bo_context.close()


def test_a_rematch_made_while_my_result_is_closed_is_told(chromium: object,
                                                          serve_process: Callable[..., ServeProcess]) -> None:
    """Bo closed his match result; when Ann makes the rematch his page says so in a
    notice naming her, without opening the box again (he closed it), and his
    "Match result" button brings back the box with "Join the rematch". Before, the
    rematch went unsaid until he happened to open the box."""
    server = serve_process(*SERVE)
    played, (ann_context, ann), (bo_context, bo) = ann_and_bo_at_the_result(chromium, server)
    bo.click("#result-close")
    bo.wait_for_selector("#act-result:not([hidden])")
    ann.click("#rematch button.rematch-play")
    ann.wait_for_selector("#lobby:not([hidden])")
    bo.wait_for_function("document.querySelector('#toast').textContent.includes('rematch')")
    assert bo.text_content("#toast") == "Ann started a rematch — open Match result to join"
    assert bo.is_visible("#toast") and bo.is_hidden("#result")
    bo.click("#act-result")
    assert bo.locator("#result:not([hidden]) #rematch button.rematch-join").text_content() == "Join the rematch"
    assert ann.errors == [] and bo.errors == []
    ann_context.close()
    bo_context.close()


def test_a_player_opening_the_rematchs_own_link_takes_his_kept_seat(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Ann, Bo and Cy end a match with a bot; Ann plays again. Bo, whose page had
    the old table open, and Cy, who only holds his token of it, open the
    rematch's own link (pasted in the chat). Bo's lobby offers his seat of the
    last match and one click seats him; Cy types his name at another seat and is
    seated in his own. Eve, no token, typing "Cy" meanwhile, is told whose name
    it is and what its player does. Before, the rematch page led nowhere: both
    were refused their own names (``nameKept``) and told to choose another."""
    server = serve_process(*SERVE)
    played = played_beside_playwright(server, ["Ann", "Bo", "Cy"])
    old, (ann, bo_token, cy_token) = played["id"], played["tokens"]
    bo_context, bo = new_page(chromium, locale="en-US")
    sit_at(bo, server.url, old, bo_token, 1)
    bo.locator("#result:not([hidden]) #rematch button.rematch-play").wait_for()
    made = httpx.post(f"{server.url}api/tables/{old}/rematch", headers={"Authorization": f"Bearer {ann}"},
                      timeout=10).json()
    new = made["id"]
    assert httpx.delete(f"{server.url}api/tables/{new}/seats/3", headers={"Authorization": f"Bearer {made['token']}"},
                        timeout=10).status_code == 200                # a seat free for anyone
    bo.locator("#rematch button.rematch-join").wait_for()            # told at once; the page keeps it
    assert bo.evaluate(f"JSON.parse(localStorage.getItem('goat:token:{old}')).rematch") == new

    eve_context, eve = new_page(chromium, locale="en-US")
    eve.goto(f"{server.url}?table={new}")
    eve.wait_for_selector("#lobby:not([hidden])")
    assert eve.is_hidden("#rematch-claim")                            # nothing of the last match here
    eve.fill("#lobby-name", "Cy")
    eve.click('.seat-row[data-seat="3"] button.sit')    # not Cy's seat
    eve.wait_for_selector("#toast:not([hidden])")
    assert eve.text_content("#toast") == (
        "The name Cy is kept for the player of the last match, whose seat 3 waits for them. If that is you, "
        "press “Join the rematch” at the end of the last match, in the browser you played it in; "
        "otherwise choose another name.")

    bo.goto(f"{server.url}?table={new}")                            # the link pasted in the chat
    claim = bo.locator("#rematch-claim button.rematch-claim")
    claim.wait_for()
    assert claim.text_content() == "Take your seat from the last match (seat 2)"
    claim.click()
    bo.wait_for_selector('.seat-row[data-seat="1"].kind-human')
    bo.wait_for_selector("#start-btn:not([hidden])")
    assert "Bo (you)" in bo.text_content('.seat-row[data-seat="1"]') and bo.is_hidden("#rematch-claim")

    cy_context, cy = new_page(chromium, locale="ru-RU")
    cy.goto(server.url)                                                # his token of the last match, no visit there
    cy.evaluate("([id, token]) => localStorage.setItem(`goat:token:${id}`, JSON.stringify({token, seat: 2}))",
                [old, cy_token])
    cy.goto(f"{server.url}?table={new}")                               # the rematch's own link
    cy.wait_for_selector("#rematch-claim button.rematch-claim")
    cy.fill("#lobby-name", "cy")
    cy.click('.seat-row[data-seat="3"] button.sit')                   # another seat, his own name
    cy.wait_for_selector('.seat-row[data-seat="2"].kind-human')
    cy.wait_for_selector("#start-btn:not([hidden])")
    assert "Cy (вы)" in cy.text_content('.seat-row[data-seat="2"]')
    assert [s["name"] for s in httpx.get(f"{server.url}api/tables/{new}", timeout=10).json()["seats"]] == [
        "Ann", "Bo", "Cy", ""]
    assert bo.errors == [] and cy.errors == [] and eve.errors == []
    for context in (bo_context, cy_context, eve_context):
        context.close()


def finished_duel_in_a_page(chromium: object, server: ServeProcess) -> tuple[object, object, dict[str, str]]:
    """:func:`short_duel_played_out` on a thread of its own (its own event loop, beside
    Playwright's), then my seat's page opened at its result: the page's context, the
    page, and the table's ``id`` and my ``token``."""
    played: dict[str, str] = {}

    async def duel() -> None:
        lobby = Lobby(server.url)
        played["id"], played["token"] = await short_duel_played_out(lobby, server)
        await lobby.close()

    worker = threading.Thread(target=lambda: asyncio.run(duel()))
    worker.start()
    worker.join(300)
    assert played, "the duel did not end"
    context, page = new_page(chromium)
    sit_at(page, server.url, played["id"], played["token"], 0)
    return context, page, played


async def short_duel_played_out(lobby: Lobby, server: ServeProcess) -> tuple[str, str]:
    """A short Yu-Gi-Oh! match (one duel, 1000 LP, seeded) that I ("Аня", seat 0) play to
    its end over the WebSocket against ``greedy``: the table's id and my token."""
    created = await lobby.create(game="yugioh", name="Аня", seed=9, options={"starting_lp": 1000, "match_duels": 1})
    await lobby.bot(created["id"], 1, created["token"], bot="greedy")
    async with Client(server.ws_url, created["id"], created["token"]) as me:
        await lobby.start(created["id"], created["token"])
        await play_duels(me, 0, seed=4)
    return created["id"], created["token"]


def test_a_finished_duel_offers_play_again(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The duel page's result has the same "play again" as the trick games':
    a short match against ``greedy`` played to its end, then opened in the page
    with my seat's token."""
    server = serve_process(*SERVE)
    context, page, played = finished_duel_in_a_page(chromium, server)
    play = page.locator("#duel-result:not([hidden]) #duel-rematch button.rematch-play")
    play.wait_for()
    assert play.text_content() == "Ещё партию"
    assert page.locator(".duel-player.turn").count() == 0                 # a match over is nobody's turn
    assert "▶" not in "".join(page.locator(".duel-player .name").all_text_contents())
    play.click()
    page.wait_for_selector("#lobby:not([hidden])")
    new = re.search(r"table=([0-9a-f]+)", page.url).group(1)
    assert new != played["id"]
    page.wait_for_selector('.seat-row[data-seat="0"].kind-human')
    assert "Аня (вы)" in page.text_content('.seat-row[data-seat="0"]')
    assert "greedy" in page.text_content('.seat-row[data-seat="1"].kind-bot')
    assert page.errors == []
    context.close()


def test_reconnect_after_closing_the_page(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = create_with_bots(page, server.url)
    page.click("#start-btn")
    page.wait_for_selector('#hand .card[data-legal="true"]')
    page.locator('#hand .card[data-legal="true"]').first.click()
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
    page.close()

    def seat0() -> dict:
        return httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()["seats"][0]

    for _ in range(100):      # the server notices the page is gone
        if not seat0()["connected"]:
            break
        time.sleep(0.1)
    assert seat0()["connected"] is False and seat0()["autoplay"] is False   # the seat is kept (grace period)

    _, page = new_page(chromium, context)          # same browser profile: the seat's token is still there
    page.goto(f"{server.url}?table={table}")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector(".seat-box.me")
    assert "Аня" in page.text_content(".seat-box.me") and page.locator("#hand .card").count() >= 1
    assert seat0()["connected"] is True
    page.wait_for_selector('#hand .card[data-legal="true"]')
    before = page.locator("#log li").count()
    card = page.locator('#hand .card[data-legal="true"]').first.get_attribute("data-card")
    page.locator('#hand .card[data-legal="true"]').first.click()
    rank = "10" if card[0] == "T" else card[0]
    page.wait_for_function("([n, text]) => [...document.querySelectorAll('#log li')].slice(n)"
                           ".some(li => li.textContent.includes(text))", arg=[before, f"Аня (вы): {rank}"])
    shot(page, "reconnected")
    assert page.errors == []
    context.close()


#: The street table as it is on screen now, read in one go (a bot may declare a molodka
#: out of turn at any moment, even on my turn, and restart the trick): its version,
#: whether my molodka or my turn is offered, my chosen cards, the cards led to the trick.
STREET_TURN = """(molodka) => ({
    version: Number(document.body.dataset.version),
    molodka: document.querySelector(molodka) !== null,
    mine: document.querySelector('#status.my-turn') !== null,
    selected: document.querySelectorAll('#hand .card.selected').length,
    need: document.querySelector('#trick .play')?.querySelectorAll('.card').length ?? 0})"""


def at_version(page: Any, version: int, read: str) -> Any:
    """``read`` (a JavaScript function) run in the page if it still shows state
    ``version``, else None: the check and the read are one task of the page, so no
    state message is drawn between them (where moves come out of turn, a test's
    turn can end under it)."""
    found = page.evaluate(f"(v) => document.body.dataset.version === String(v) ? {{value: ({read})()}} : null",
                          version)
    return None if found is None else found.get("value")


def click_at_version(page: Any, selector: str, version: int) -> bool:
    """Click ``selector`` if the page still shows state ``version`` (then it must be
    there to click); False if a move came meanwhile and the page moved on."""
    done = at_version(page, version, f"""() => {{ const b = document.querySelector({selector!r});
        if (!b || b.disabled || b.closest('[hidden]')) return 'not clickable';
        b.click(); return 'clicked'; }}""")
    assert done in (None, "clicked"), f"{selector} is {done} at version {version}"
    return done == "clicked"


def test_street_multi_card_beats_and_face_down_passes(chromium: object,
                                                       serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = street_table_i_lead(server, "random", {"match_target": 40})   # I lead; a long match
    context, page = new_page(chromium, locale="en-US")
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    passed = led = 0
    molodka = "#act-molodka:not([hidden]):not([disabled])"
    for _ in range(40):
        if passed and led:
            break
        page.wait_for_function(f"document.querySelector('#status.my-turn') || document.querySelector('{molodka}')")
        turn = page.evaluate(STREET_TURN, molodka)           # read at once: a bot's molodka may come any time
        version = turn["version"]
        if turn["molodka"]:
            shot(page, "street-molodka")
            if click_at_version(page, "#act-molodka", version):
                page.wait_for_selector("#act-molodka", state="hidden")
            continue
        if not turn["mine"]:
            continue
        if turn["selected"]:                          # chosen in a trick a molodka has restarted since
            click_at_version(page, "#act-clear", version)
            continue
        if not turn["need"]:                          # lead: choose one card, then "Lead"
            page.locator('#hand .card[data-legal="true"]').first.click()
            pressed = at_version(page, version, "() => [...document.querySelectorAll('#hand .card.selected')]"
                                 ".map((c) => c.getAttribute('aria-pressed'))")
            if pressed is None:
                continue                              # a bot's molodka restarted the trick meanwhile
            assert pressed == ["true"], pressed
            if not click_at_version(page, "#act-play", version):
                continue
            led += 1
        else:                                         # answer with as many cards as were led
            need = turn["need"]
            for i in range(need):
                page.locator('#hand .card[data-legal="true"]:not(.selected)').first.click()
            chosen = at_version(page, version, "() => document.querySelectorAll('#hand .card.selected').length")
            if chosen is None:
                continue                              # a bot's molodka restarted the trick meanwhile
            assert chosen == need, (chosen, need)
            shot(page, "street-selection")
            log = page.locator("#log li").count()
            if not click_at_version(page, "#act-pass", version):    # a pass is always allowed
                continue
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
            passed += any(line.startswith(f"Аня (you) passes {need} card")
                          for line in page.locator("#log li").all_text_contents()[log:])
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert passed and led
    shot(page, "street")
    assert page.errors == []
    context.close()


EVERY_RULESET = """async () => {
  const { sections } = await import("/static/rules.js");
  const { setLang } = await import("/static/i18n.js");
  const { games } = await (await fetch("/api/games")).json();
  const holes = [];
  for (const game of games) for (const rules of game.rules) for (const players of rules.players) {
    const data = await (await fetch(`/api/games/${game.name}/rules/${rules.name}?players=${players}`)).json();
    for (const code of ["ru", "bg", "ar", "en"]) {      // English last: the page stays in English
      setLang(code);
      const parts = sections(data);
      const where = `${game.name} ${rules.name} ${players} ${code}`;
      if (!parts[0][1].length || parts.length < 3) holes.push(`${where}: no text`);
      for (const [key, items] of parts) for (const item of items) {
        const text = typeof item === "string" ? item : item?.textContent;
        if (typeof text !== "string" || /undefined|NaN|null|\\[object/.test(text)) holes.push(`${where} ${key}: ${text}`);
      }
    }
  }
  return holes;
}"""


def rules_cards(page: object) -> list[str]:
    """The cards of the Rules panel's trump order, highest first."""
    return page.eval_on_selector_all("#rules-trumps li", "items => items.map(i => i.dataset.card)")


def test_the_rules_panel_in_the_lobby_and_at_a_street_table(chromium: object,
                                                           serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-rules", "classic")
    set_options(page, {"match_target": 6})
    page.focus("#create-rules")                       # reachable by the keyboard, right after the rules
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "rules-open-home"
    assert page.inner_text("#rules-open-home") == "Правила"
    page.keyboard.press("Enter")
    page.wait_for_selector("#rules-trumps li")
    assert page.evaluate("document.querySelector('#rules').open")
    trumps = rules_cards(page)
    assert trumps[:3] == ["7C", "QC", "QS"] and trumps[-1] == "8C" and len(trumps) == 14
    text = page.inner_text("#rules-body")
    assert "шамок" in text and "Козырная масть — трефы" in text
    assert "Кто первым наберёт 6 штрафных очков" in text            # this table's option, not the preset's 12
    assert "туз — 11, десятка — 10, король — 4, дама — 3, валет — 2" in text
    assert "«яйца»" in text and "Шамок ловит даму" in text
    shot(page, "rules-classic")
    page.click('#rules .rules-lang[data-lang="en"]')
    page.wait_for_function("document.querySelector('#rules-title').textContent.startsWith('Rules')")
    text = page.inner_text("#rules-body")
    assert "reaches 6 penalty points" in text and "the shamok" in text
    assert rules_cards(page)[0] == "7C" and page.inner_text("#rules-open-home") == "Rules"
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#rules').open")
    assert page.evaluate("document.activeElement.id") == "rules-open-home"
    # Every ruleset and player count of every game, in both languages: an opening
    # sentence and no sentence with a hole in it (a phrase or a fact missing).
    assert page.evaluate(EVERY_RULESET) == []
    # Three players each for themselves: who is the goat when two reach the target at once.
    page.select_option("#create-rules", "full-hand")
    page.select_option("#create-players", "3")
    page.click("#rules-open-home")
    page.wait_for_selector("#rules-trumps li")
    text = page.inner_text("#rules-body")      # still in English, as switched above
    assert "3 players, each for themselves." in text
    assert "if level, both are goats and the third player wins" in text
    page.keyboard.press("Escape")
    assert page.errors == []
    context.close()

    # A street table on a phone: the rules of this deal, its shown trump suit first.
    created = httpx.post(f"{server.url}api/tables", json={"rules": "street", "name": "Аня",
                                                        "options": {"match_target": 40}}, timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2, 3):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "random"},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10)
    context = chromium.new_context(viewport={"width": 390, "height": 780}, locale="ru-RU")  # type: ignore
    context, page = new_page(chromium, context)
    page.goto(server.url)
    page.evaluate("([id, token]) => localStorage.setItem(`goat:token:${id}`, JSON.stringify({token, seat: 0}))",
                  [table, token])
    page.goto(f"{server.url}?table={table}")
    page.click("#start-btn")
    page.wait_for_selector("#trump .trump-label")
    label = page.inner_text("#trump .trump-label")
    suit = re.search(r"[♣♦♥♠] ([CDHS])", label).group(1)
    page.click("#rules-open")
    page.wait_for_selector("#rules-trumps li")
    names = {"C": "трефы", "D": "бубны", "H": "червы", "S": "пики"}
    assert f"Козырь этой сдачи — {'♣♦♥♠'['CDHS'.index(suit)]} {names[suit]}" in page.inner_text("#rules-body")
    assert rules_cards(page) == [f"{r}{suit}" for r in "ATKQJ9876"]
    text = page.inner_text("#rules-body")
    assert "рубашкой вверх" in text and "Молодка" in text and "4 — если 30 и меньше" in text
    assert "шамок" not in text.lower()
    box = page.locator("#rules").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(page, "rules-street-phone")
    page.click("#rules-close")
    page.wait_for_function("!document.querySelector('#rules').open")
    assert page.evaluate("document.activeElement.id") == "rules-open"
    assert page.errors == []
    context.close()


TRUMP_BOX = """async () => {
  const { S } = await import("/static/table.js");
  const { kozel } = await import("/static/kozel.js");
  const v = S.msg.view;
  const place = document.querySelector("#trump .trump-place");
  const box = document.createElement("div");          // the same view once seat 2 has drawn the card
  kozel.info({ ...v, trump_card_drawn_by: 2 }, box);
  return { text: place && place.textContent, place: v.trump_card_place ?? null, stock: v.stock_size,
           drawn: box.querySelector(".trump-place")?.textContent ?? null };
}"""


@pytest.mark.parametrize("place", ["hidden", "public"])
def test_the_trump_box_says_where_the_shown_card_lies_only_face_up(chromium: object,
                                                                    serve_process: Callable[..., ServeProcess],
                                                                    place: str) -> None:
    """Street's option ``trump_card_place``: under ``"public"`` the shown trump card
    lies face up in the stock, and the trump box says where (before the first trick
    nothing is drawn: its place as dealt, counted from 1) and, once drawn, who drew
    it; under ``"hidden"`` (the default) the box shows the card alone."""
    server = serve_process(*SERVE)
    table, token = street_table_i_lead(server, "random", {"trump_card_place": place})
    context, page = new_page(chromium, locale="en-US")
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    page.wait_for_selector("#status.my-turn")          # I lead the first trick: nothing drawn yet
    page.wait_for_selector("#trump .card")
    box = page.evaluate(TRUMP_BOX)
    if place == "public":
        assert box["stock"] == 20 and box["text"] == f"card {box['place'] + 1} from the top of the stock"
        assert box["drawn"].startswith("drawn by ") and box["drawn"] != "drawn by "
        shot(page, "street-trump-place")
    else:
        assert box["place"] is None and box["text"] is None
    assert page.errors == []
    context.close()


# ------------------------------------------------------------------ Spades
SPADES_TURN_OR = """(rows) => document.querySelector('#hand .card[data-legal="true"]')
    || document.querySelector('#bid-buttons:not([hidden]) button:not([disabled])')
    || document.querySelectorAll('#score tbody tr.deal-row').length >= rows"""


def bids_offered(page: object) -> list[str]:
    return [b.get_attribute("data-bid") for b in page.locator("#bid-buttons button").all()]


def face_down(page: object) -> int:
    """How many of my cards are drawn as card backs."""
    return page.locator("#hand .card.back").count()


NUMBER_BIDS = ["nil", *map(str, range(1, 14))]
BLIND = {"blind_nil_behind": 0, "double_nil": True}     # at 0 : 0 both teams may bid blind


def test_free_the_seat_waits_disabled_with_a_countdown_until_the_grace_is_over(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Bob sat and has no page open: Ann's lobby shows "Free the seat" for his
    seat greyed, counting down the seconds the server said are left ("Can be
    freed in 3 s", ..., 1 s), then enabled; a click frees it, no refusal (before,
    the button was there at once and a click within the grace was refused)."""
    server = serve_process(*SERVE, "--grace", "4")
    created = httpx.post(f"{server.url}api/tables", json={"rules": "classic", "name": "Ann"}, timeout=10).json()
    table, token = created["id"], created["token"]
    httpx.post(f"{server.url}api/tables/{table}/seats/1", json={"name": "Bob"}, timeout=10).raise_for_status()
    context, page = new_page(chromium, locale="en-US")
    sit_at(page, server.url, table, token, 0)
    free = '#seat-list .seat-row[data-seat="1"] button.free-seat'
    page.wait_for_selector(free)
    first = page.text_content(free)
    assert re.fullmatch(r"Can be freed in [1-4] s", first) and page.is_disabled(free), first
    page.wait_for_function("(sel) => document.querySelector(sel)?.textContent === 'Can be freed in 1 s'", arg=free)
    assert page.is_disabled(free)
    page.wait_for_selector(f"{free}:not([disabled])")
    assert page.text_content(free) == "Free the seat"
    page.click(free)
    page.wait_for_selector('#seat-list .seat-row[data-seat="1"].kind-empty')
    assert page.is_hidden("#toast") and page.errors == []
    context.close()


def test_lobby_creates_a_spades_table(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    games = page.locator("#create-game option").all_text_contents()
    assert games == ["Kozel", "Spades", "Yu-Gi-Oh!"]    # the catalog's games this page can draw
    page.select_option("#create-game", "spades")
    rules = [o.get_attribute("value") for o in page.locator("#create-rules option").all()]
    catalog = httpx.get(f"{server.url}api/games", timeout=10).json()
    presets = [r["name"] for g in catalog["games"] if g["name"] == "spades" for r in g["rules"]]
    assert rules == [r for r in presets if r != "spades"]   # every preset, the alias of standard once
    assert page.is_disabled("#create-players") and page.input_value("#create-players") == "4"
    page.click("#options-summary")
    assert page.locator('#option-list .option[data-option="double_nil"] input').is_checked() is False
    assert page.input_value('#option-list .option[data-option="target"] input') == "500"
    page.select_option("#create-rules", "joker-trumps")   # the form follows the ruleset's own values
    assert page.locator('#option-list .option[data-option="jokers"] input').is_checked()
    page.select_option("#create-rules", "standard")
    table = create_with_bots(page, server.url, game="spades", rules="standard", bot="random",
                             options={"double_nil": True, "target": 300})
    assert "Spades" in page.text_content("#lobby-title")
    assert page.text_content("#lobby-options") == "Options: double nil: yes, points to win: 300"
    shot(page, "spades-lobby")
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert (info["game"], info["rules"]) == ("spades", "standard")
    assert info["options"] == {"double_nil": True, "target": 300}      # only what was changed
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    page.goto(server.url)                                               # the open table is listed by game
    page.wait_for_selector(f'#table-list a[href="?table={table}"]')
    assert page.text_content(f'#table-list a[href="?table={table}"]').startswith("Spades · standard")
    assert page.errors == []
    context.close()


def test_the_create_form_says_why_the_server_would_refuse_its_options(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A choice the rules refuse only with the player count or another option
    (a 32-card deck among three players; eight cards a hand from 24) is answered
    under the options as it is made, in the engine's words, not first on Create;
    a change back clears it, and one the server accepts shows nothing."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-rules", "full-hand")
    page.select_option("#create-players", "4")
    page.click("#options-summary")
    deck = '#option-list .option[data-option="deck"] select'
    assert page.input_value(deck) == "32" and page.is_hidden("#options-check")
    page.select_option(deck, "24")
    page.wait_for_selector("#options-check:not([hidden])")
    assert "4 hands of 8 do not fit a 24-card deck" in page.text_content("#options-check")
    page.select_option(deck, "36")                       # accepted: the line goes
    page.wait_for_selector("#options-check", state="hidden")
    page.select_option(deck, "32")
    page.select_option("#create-players", "3")           # the edit stays; three players' own deck is 24
    assert page.input_value(deck) == "24"
    page.select_option(deck, "32")
    page.wait_for_selector("#options-check:not([hidden])")
    assert "32 cards do not share out evenly among 3 players" in page.text_content("#options-check")
    page.fill("#create-name", "Ann")
    page.click("#create-btn")                            # Create still asks; the server says the same
    page.wait_for_selector("#toast:not([hidden])")
    assert "32 cards do not share out evenly" in page.text_content("#toast")
    assert httpx.get(f"{server.url}api/tables", timeout=10).json()["tables"] == []
    page.select_option(deck, "24")
    page.wait_for_selector("#options-check", state="hidden")
    assert page.errors == []
    context.close()


def option_row(key: str) -> str:
    """The create form's row of option ``key``."""
    return f'#option-list .option[data-option="{key}"]'


def create_form_with_options(chromium: object,
                             serve_process: Callable[..., ServeProcess]) -> tuple[ServeProcess, Any, Any]:
    """A server and an English page at its create form with the options open."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.click("#options-summary")
    return server, context, page


def test_the_create_form_shows_the_options_that_matter_for_the_values_chosen(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The form's option rows follow the values chosen, as the rules' table of
    dependencies says: classic offers no molodka until its tricks are street
    (then trump_on_plain goes); street offers no jack order until its tricks are
    one card each with permanent trumps (its molodka then goes, and the server
    takes the table: a hidden row is not sent and street's molodka gives way)."""
    server, context, page = create_form_with_options(chromium, serve_process)
    row = option_row
    page.select_option("#create-rules", "classic")
    assert page.is_hidden(row("molodka")) and page.is_hidden(row("max_lead"))
    assert page.is_visible(row("trump_on_plain")) and page.is_visible(row("must_follow_trump"))
    page.select_option(f'{row("trick_style")} select', "street")
    assert page.is_visible(row("molodka")) and page.is_visible(row("max_lead"))
    assert page.is_hidden(row("max_molodka_per_trick"))                  # molodka still off
    assert page.is_hidden(row("trump_on_plain")) and page.is_hidden(row("must_follow_trump"))
    page.locator(f'{row("molodka")} input').set_checked(True)
    assert page.is_visible(row("max_molodka_per_trick"))

    page.select_option("#create-rules", "street")
    for key in ("trick_style", "molodka"):                # street's own values again (the edits equal them)
        assert page.is_visible(row(key))
    assert page.is_hidden(row("jack_order")) and page.is_hidden(row("must_follow_trump"))
    page.select_option(f'{row("trick_style")} select', "single")
    assert page.is_hidden(row("molodka")) and page.is_hidden(row("jack_order"))
    page.locator(f'{row("permanent_trumps")} input').set_checked(True)
    assert page.is_visible(row("jack_order")) and page.is_visible(row("must_follow_trump"))
    page.wait_for_selector("#options-check", state="hidden")           # the server takes it
    page.select_option(f'{row("jack_order")} select', "spades-high")
    page.fill("#create-name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    table = httpx.get(f"{server.url}api/tables", timeout=10).json()["tables"][0]
    assert table["options"] == {"trick_style": "single", "permanent_trumps": True, "jack_order": "spades-high"}
    assert page.errors == []
    context.close()


def test_the_create_form_shows_an_option_needing_any_of_two_and_hides_one_street_forces(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Spades' blind nil margin matters under blind nil *or* double nil: its row
    shows with either on and hides with both off. Kozel's trump lead and
    permanent trumps are forced by street tricks ("free", off): classic made
    street hides their rows, and the rows that need permanent trumps (the jacks'
    order, the shamok's catch and penalty) with them, an edit of the jacks' order
    included, and Create makes the table from the trick style alone (the server
    puts in the forced values, not classic's own)."""
    server, context, page = create_form_with_options(chromium, serve_process)
    row = option_row
    page.select_option("#create-game", "spades")
    page.select_option("#create-rules", "standard")
    assert page.is_visible(row("blind_nil_behind"))                      # blind nil on
    page.locator(f'{row("blind_nil")} input').set_checked(False)
    assert page.is_hidden(row("blind_nil_behind"))                       # both off
    page.locator(f'{row("double_nil")} input').set_checked(True)
    assert page.is_visible(row("blind_nil_behind"))                      # double nil alone
    page.locator(f'{row("blind_nil")} input').set_checked(True)
    assert page.is_visible(row("blind_nil_behind"))

    page.select_option("#create-game", "kozel")
    page.select_option("#create-rules", "classic")
    street_forced = ("trump_lead", "permanent_trumps", "jack_order", "shamok_catches_queen", "shamok_penalty")
    assert all(page.is_visible(row(key)) for key in street_forced)
    page.select_option(f'{row("jack_order")} select', "spades-high")
    page.select_option(f'{row("trick_style")} select', "street")
    assert all(page.is_hidden(row(key)) for key in street_forced)
    assert page.is_visible(row("molodka"))
    page.wait_for_selector("#options-check", state="hidden")           # the server takes it
    page.fill("#create-name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    table = httpx.get(f"{server.url}api/tables", timeout=10).json()["tables"][0]
    assert (table["rules"], table["options"]) == ("classic", {"trick_style": "street"})
    assert page.errors == []
    context.close()


def test_a_hidden_row_counts_as_the_rulesets_value_not_the_edit_made_before_it_hid(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A row hidden without a forced value (``fallbacks``) counts as the ruleset's
    own value, never as the edit made before it hid, and sends nothing. No option
    today needs such a row alone, so the catalog is made to have one: the trump
    card's place needing only that it comes from the stock. Full hand (the trump
    card from the deck): the card from the stock shows its place, set public;
    a chosen trump suit hides where the card comes from, and its place with it
    (the edit "stock" no longer counts), and Create sends the suit alone; the
    edits come back with a drawn suit. Street (the card from the stock): the card
    from the deck hides its place, and a chosen suit shows it again, the hidden
    row counting as street's own "stock", not the edit "deck"."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")

    def one_need_less(route: Any) -> None:
        response = route.fetch()
        catalog = response.json()
        kozel = next(game for game in catalog["games"] if game["name"] == "kozel")
        kozel["needs"]["trump_card_place"] = {"trump_card_from": ["stock"]}
        route.fulfill(response=response, json=catalog)

    page.route(re.compile(r"/api/games$"), one_need_less)
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.click("#options-summary")
    row = option_row
    suit, origin, place = (f'{row(key)} select' for key in ("trump_suit", "trump_card_from", "trump_card_place"))
    page.select_option("#create-rules", "full-hand")
    assert page.is_visible(row("trump_card_from")) and page.is_hidden(row("trump_card_place"))
    page.select_option(origin, "stock")
    page.select_option(place, "public")
    page.select_option(suit, "C")
    assert page.is_hidden(row("trump_card_from")) and page.is_hidden(row("trump_card_place"))
    assert page.text_content("#options-summary") == "Options (1 changed)"
    page.wait_for_selector("#options-check", state="hidden")
    page.fill("#create-name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    table = httpx.get(f"{server.url}api/tables", timeout=10).json()["tables"][0]
    assert (table["rules"], table["options"]) == ("full-hand", {"trump_suit": "C"})

    page.goto(server.url)                                   # a fresh form (the edits are the page's)
    page.wait_for_selector("#create-game option", state="attached")
    page.click("#options-summary")
    page.select_option("#create-rules", "full-hand")
    page.select_option(origin, "stock")
    page.select_option(place, "public")
    page.select_option(suit, "C")
    page.select_option(suit, "drawn")                       # the rows show again with their edits
    assert (page.input_value(origin), page.input_value(place)) == ("stock", "public")
    page.select_option("#create-rules", "street")
    page.select_option(origin, "deck")
    assert page.is_hidden(row("trump_card_place"))
    page.select_option(suit, "C")
    assert page.is_hidden(row("trump_card_from")) and page.is_visible(row("trump_card_place"))
    assert page.errors == []
    context.close()


def test_the_create_form_says_the_rules_refusal_in_the_pages_language(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """On the Russian page an impossible combination of options is refused in
    Russian, its options named as the form labels them: Spades' mirror bids with
    blind nil, Kozel's 32-card deck among three players (under the options, and
    as Create's toast); switching to English words the next refusal in English."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)                      # ru-RU
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-game", "spades")
    page.select_option("#create-rules", "mirror")
    page.click("#options-summary")
    page.locator('#option-list .option[data-option="blind_nil"] input').set_checked(True)
    page.wait_for_selector("#options-check:not([hidden])")
    assert page.text_content("#options-check") == ("«зеркальные заказы» задают каждый заказ и несовместимы "
                                                   "с параметрами: слепой нил (выключите их).")
    page.select_option("#create-game", "kozel")
    page.select_option("#create-rules", "full-hand")
    page.select_option("#create-players", "3")
    page.select_option('#option-list .option[data-option="deck"] select', "32")
    page.wait_for_selector("#options-check:not([hidden])")
    assert page.text_content("#options-check") == "Колода из 32 карт не делится поровну между 3 игроками."
    page.fill("#create-name", "Аня")
    page.click("#create-btn")                               # Create's refusal, the same way
    page.wait_for_selector("#toast:not([hidden])")
    assert page.text_content("#toast") == "Колода из 32 карт не делится поровну между 3 игроками."
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.select_option('#option-list .option[data-option="deck"] select', "24")
    page.wait_for_selector("#options-check", state="hidden")
    page.select_option('#option-list .option[data-option="deck"] select', "32")
    page.wait_for_selector("#options-check:not([hidden])")
    assert page.text_content("#options-check") == "32 cards do not share out evenly among 3 players."
    assert page.errors == []
    context.close()


def test_a_spades_deal_against_three_bots(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = create_with_bots(page, server.url, game="spades", rules="standard", options={"max_deals": 1})
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    assert page.text_content("#trumps") == "Пики — козыри"
    assert page.get_attribute("#spades-broken", "data-broken") == "false"

    bid = played = keyboard = 0
    last_trick_seen = broken_seen = False
    while deal_rows(page) == 0:
        page.wait_for_function(SPADES_TURN_OR, arg=1)
        if deal_rows(page):
            break
        version = int(page.get_attribute("body", "data-version"))
        if page.is_visible("#bid-buttons"):                 # my bid: by keyboard, from the hand
            offered = bids_offered(page)
            # At 0-0 neither team is 100 behind: no blind bids, as the engine says.
            assert offered == ["nil", *map(str, range(1, 14))]
            cards = page.locator("#hand .card")
            assert cards.count() == 13 and page.locator("#hand .card.illegal").count() == 0  # nothing dimmed
            assert page.locator('#hand .card[data-legal="true"]').count() == 0
            assert "Ваш заказ" in page.text_content("#status")
            shot(page, "spades-bidding")
            page.focus('#hand .card[tabindex="0"]')
            page.keyboard.press("ArrowUp")                   # up to the bids, as to Kozel's buttons
            assert page.evaluate("document.activeElement.dataset.bid") == "nil"
            for _ in range(3):
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.bid") == "3"
            page.keyboard.press("Enter")
            bid += 1
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
            page.wait_for_selector(".seat-box.me .game-badge")
            assert page.text_content(".seat-box.me .game-badge") == "заказ: 3"
            continue
        if not last_trick_seen and page.locator("#log li", has_text="Взятка →").count():
            page.click("#last-trick-btn")                   # on my turn: the bots wait, the deal goes on
            assert page.locator("#last-trick .last-row").count() == 4
            assert page.locator("#contracts .contract").count() == 2     # each team's bids and tricks
            shot(page, "spades-mid-deal")
            last_trick_seen = True
        by_keyboard = keyboard == 0                         # one card with the keyboard alone
        play_a_legal_card(page, by_keyboard)
        keyboard += by_keyboard
        played += 1
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
        broken_seen = broken_seen or page.get_attribute("#spades-broken", "data-broken") == "true"
    assert bid == 1 and played == 13 and keyboard == 1 and last_trick_seen
    row = page.locator("#score tbody tr.deal-row").first
    cells = [row.locator("td").nth(i).text_content() for i in range(2)]
    assert re.search(r"заказ 3 \+ (\d+|Нил),", cells[0])                # my bid beside my partner's
    took = [int(re.search(r"взято (\d+)", c).group(1)) for c in cells]
    assert sum(took) == 13
    assert re.search(r"^Итого−?\d+ / 500мешки: \d+−?\d+ / 500мешки: \d+$", page.text_content("#score tfoot"))
    log = page.locator("#log li").all_text_contents()
    assert "Аня (вы) заказывает 3" in log
    assert sum(line.startswith("Аня (вы): ") for line in log) == 13     # every card I played
    assert any(line.startswith("Сдача 1: Мы ") for line in log)
    assert broken_seen or all("♠" not in line for line in log)          # spades broken shows once one is played
    shot(page, "spades-score-sheet")
    # One deal is the whole match (max_deals=1), unless the scores are equal: then another deal is played.
    page.wait_for_selector("#result:not([hidden]), #bid-buttons:not([hidden]) button, #hand .card")
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    if page.is_visible("#result"):
        totals = [int(page.text_content(f"#score tfoot td:nth-of-type({i}) .pts").split(" / ")[0].replace("−", "-"))
                  for i in (1, 2)]
        assert totals[0] != totals[1] and info["status"] == "finished"
        verdict = "Ваша команда победила!" if totals[0] > totals[1] else "Ваша команда проиграла."
        assert page.text_content("#result-text").startswith(verdict)
        assert page.text_content("#result-text").endswith(f"счёт {max(totals)} : {min(totals)}.".replace("-", "−"))
        assert page.text_content("#status") == "Партия окончена"
        shot(page, "spades-result")
        assert page.is_visible("#review-btn")                          # DDS reviews Spades deals
        page.click("#review-btn")
        page.wait_for_selector("#review-table:not([hidden]), #review-status:not(:empty)", timeout=60_000)
        page.wait_for_function("!document.querySelector('#review-status').textContent.startsWith('Считаю')")
        review = httpx.get(f"{server.url}api/tables/{table}/review/1", timeout=60).json()
        assert page.text_content("#review-note").startswith("Оценка: сколько взяток возьмёт сторона игрока")
        if review["moves"]:
            assert page.locator("#review-table tbody tr").count() == len(review["moves"])
            assert all(" отдано взяток — " in item for item in page.locator("#review-summary li").all_text_contents())
            assert page.text_content("#review-skipped") == \
                f"Ходов без разбора (торговля, ходы, пока был жив нил или бимо): {len(review['skipped'])}."
            score = review["moves"][0]["best_result"]["score"]          # the deal with best play, scored
            assert page.text_content("#review-best") == ("Счёт раздачи, если все играют безошибочно с первого "
                                                         f"оценённого хода: Мы {score[0]}, Они {score[1]}")
            changed = sum(1 for m in review["moves"] if m["result"] != m["best_result"])
            assert page.locator("#review-table tbody tr.result-changed").count() == changed
            choose_review_rows(page, review, "spades")                      # Spades' deal diagram
        else:                                                          # a nil alive all deal
            assert page.text_content("#review-status").startswith("В этой раздаче нет оценённых ходов")
        page.keyboard.press("Escape")
        page.click("#result-close")
    else:
        assert info["status"] == "playing"

    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Score sheet" in page.text_content("#game .side") and "Spades are trumps" == page.text_content("#trumps")
    assert re.search(r"bid 3 \+ (\d+|Nil), took \d+", page.locator("#score tbody tr.deal-row").first.text_content())
    page.set_viewport_size({"width": 390, "height": 844})   # a phone
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    shot(page, "spades-mobile")
    assert page.errors == []
    assert info["game"] == "spades" and info["options"] == {"max_deals": 1}
    context.close()


@pytest.mark.parametrize(("options", "line"), [({}, "−500"), ({"lose_at": -200}, "−200")])
def test_the_spades_score_says_where_negative_reverse_loses(chromium: object, serve_process: Callable[..., ServeProcess],
                                                            options: dict[str, object], line: str) -> None:
    """The score's notes named ``lose_at`` only: under negative-reverse (a team at
    or below −target loses) they said nothing of losing; with both, the higher line decides."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    create_with_bots(page, server.url, game="spades", rules="negative-reverse", bot="random", options=options)
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function("document.querySelector('#score-note').textContent.length > 0")
    assert f"Команда с {line} очками или меньше проигрывает." in page.text_content("#score-note")
    assert page.errors == []
    context.close()


def test_spades_blind_bids_and_the_double_nil_exchange(chromium: object,
                                                     serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    create_with_bots(page, server.url, game="spades", rules="standard",
                     options={"double_nil": True, "blind_nil_behind": 0})
    page.click("#start-btn")
    page.wait_for_selector("#bid-buttons:not([hidden]) button")
    assert bids_offered(page) == ["blind-nil", "double-nil"]      # the options allow them; the cards are unseen
    assert face_down(page) == 13 and page.locator("#hand button.card").count() == 0
    assert page.is_visible("#act-look") and page.text_content("#act-look") == "Look at my cards"
    assert "±200" in page.get_attribute('#bid-buttons button[data-bid="double-nil"]', "title")
    shot(page, "spades-blind-bids")
    page.click('#bid-buttons button[data-bid="double-nil"]')      # without looking
    page.wait_for_selector(".seat-box.me .game-badge")
    assert page.text_content(".seat-box.me .game-badge") == "bid: Double nil"
    page.wait_for_selector("#hand button.card")
    assert face_down(page) == 0 and page.is_hidden("#act-look")    # bid: the cards turn up
    given: list[str] = []
    while len(given) < 3:                                       # three cards to my partner, face down
        page.wait_for_selector('#hand .card[data-legal="true"]')
        status = page.text_content("#status")
        if not status.startswith("▶") and "Double nil: give" not in status:
            break                                               # the exchange is over
        assert f"({3 - len(given)} to give)" in status
        assert page.locator('#hand .card[data-legal="true"]').count() == page.locator("#hand .card").count()
        version = int(page.get_attribute("body", "data-version"))
        card = page.locator('#hand .card[data-legal="true"]').last
        given.append(card.get_attribute("data-card"))
        card.click()
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert len(given) == 3
    page.wait_for_function("[...document.querySelectorAll('#log li')].filter("
                           "li => li.textContent.startsWith('Bot 3 gives')).length === 3")
    log = page.locator("#log li").evaluate_all("lis => lis.map((li) => (li.querySelector('.shown') || li).textContent)")
    assert [line for line in log if line.startswith("Аня (you) gives")] == [
        f"Аня (you) gives {'10' if c[0] == 'T' else c[0]}{dict(C='♣', D='♦', H='♥', S='♠')[c[1]]}" for c in given]
    hand = [c.get_attribute("data-card") for c in page.locator("#hand .card").all()]
    assert not set(given) & set(hand) and len(hand) == 13       # three given, three received
    received = [line for line in log if line.startswith("Bot 3 gives ")]   # shown once they are mine
    symbol = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
    assert {("T" if r[12:-1] == "10" else r[12:-1]) + symbol[r[-1]] for r in received} <= set(hand)
    shot(page, "spades-exchange")
    assert page.errors == []
    context.close()


def test_spades_jokers_are_drawn(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    from goat.games import spades

    def first_hand(seed: int) -> list[str]:   # the table's first deal, drawn as the server draws it
        state = spades.new_state("joker-trumps", first_dealer=seat_rng(str(seed), "first-dealer").randrange(4))
        return [str(c) for c in state.sample_chance(seat_rng(str(seed), "deal/1")).hands[0]]

    seed = next(s for s in range(200) if {"LJ", "BJ"} <= set(first_hand(s)))
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"game": "spades", "rules": "joker-trumps", "name": "Аня",
                                                        "seed": seed}, timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2, 3):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "random"},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10)
    context, page = new_page(chromium)
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    page.wait_for_selector("#hand .card")
    cards = [c.get_attribute("data-card") for c in page.locator("#hand .card").all()]
    assert cards[-2:] == ["LJ", "BJ"] and sorted(cards) == sorted(first_hand(seed))   # the server's order, jokers last
    assert page.get_attribute('#hand .card[data-card="BJ"]', "aria-label").startswith("большой джокер")
    assert page.text_content('#hand .card[data-card="LJ"] .letter') == "LJ"
    assert "джокеры старше" in page.text_content("#trumps")
    shot(page, "spades-jokers")
    assert page.errors == []
    context.close()


def blind_bid_table(chromium: object, serve_process: Callable[..., ServeProcess],
                    rules: str = "standard", hints: bool = False) -> tuple[object, object]:
    """A started Spades table (me at seat 0, bots elsewhere) whose options let
    both teams bid blind: my page, at my first bid, with my hand face down."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    create_with_bots(page, server.url, game="spades", rules=rules, options=BLIND, hints=hints)
    page.click("#start-btn")
    page.wait_for_selector("#bid-buttons:not([hidden]) button")
    return context, page


def test_spades_look_at_my_cards_on_my_turn(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    context, page = blind_bid_table(chromium, serve_process)
    assert bids_offered(page) == ["blind-nil", "double-nil"] and face_down(page) == 13
    assert page.get_attribute("#hand", "aria-label") == "Ваши карты рубашкой вверх: 13"
    assert page.text_content("#status").startswith("Ваш заказ: слепой нил, не глядя в карты")
    page.focus(".langs .lang:last-child")                 # the keyboard alone: Tab reaches the look control
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "act-look"
    assert page.text_content("#act-look") == "Посмотреть карты"
    page.keyboard.press("ArrowRight")                       # the blind bids beside it
    assert page.evaluate("document.activeElement.dataset.bid") == "blind-nil"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")                            # look
    page.wait_for_selector("#hand button.card")
    assert face_down(page) == 0 and page.locator("#hand button.card").count() == 13
    assert page.is_hidden("#act-look") and bids_offered(page) == NUMBER_BIDS   # no blind bid left
    assert page.get_attribute("#hand", "aria-label") == "Ваши карты"
    assert page.evaluate("document.activeElement.dataset.bid") == "nil"       # the keyboard goes on from here
    # the server keeps the look, not the page (which kept "goat:looked:<table>" in its storage)
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('goat:looked'))") == []
    page.reload()                                           # the look holds for this deal
    page.wait_for_selector("#bid-buttons:not([hidden]) button")
    assert face_down(page) == 0 and page.locator("#hand button.card").count() == 13
    assert bids_offered(page) == NUMBER_BIDS and page.is_hidden("#act-look")
    page.focus('#hand .card[tabindex="0"]')
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat-box.me .game-badge")
    assert page.text_content(".seat-box.me .game-badge") == "заказ: 2"
    assert page.errors == []
    context.close()


def test_the_others_still_face_down_are_shown_so(chromium: object,
                                               serve_process: Callable[..., ServeProcess]) -> None:
    """As across a card table one sees who has not picked up their hand (a blind
    nil may be coming): at my first bid each other seat shows its bid, or, not yet
    bid, "карты не открыты" (the bots look only on their own turn) — never both,
    never neither; once the bidding is over, no seat shows it."""
    context, page = blind_bid_table(chromium, serve_process)
    others = page.locator(".seat-box:not(.me)")
    assert others.count() == 3
    for i in range(3):
        tags = others.nth(i).locator(".game-badge").all_text_contents()
        assert len(tags) == 1 and (tags[0] == "карты не открыты" or tags[0].startswith("заказ: ")), tags
    page.click("#act-look")
    page.wait_for_selector('#bid-buttons button[data-bid="3"]').click()
    page.wait_for_function("() => !document.querySelector('#bid-buttons:not([hidden]) button')")
    page.wait_for_function("() => document.querySelectorAll('.seat-box .game-badge').length === 4 && "
                           "[...document.querySelectorAll('.seat-box .game-badge')]"
                           ".every((b) => b.textContent.startsWith('заказ: '))")
    assert page.errors == []
    context.close()


def test_no_hint_while_my_hand_is_face_down(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A hint reads my cards, so before a blind bid (hand face down) none is
    offered, by button or key; once I look, the bid the hint names is marked."""
    context, page = blind_bid_table(chromium, serve_process, hints=True)
    assert face_down(page) == 13 and page.is_hidden("#act-hint")
    asked: list[str] = []                                   # every hint the page asks for, as it leaves
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/hint") else None)
    page.keyboard.press("h")
    assert page.locator("#log li.hint-line").count() == 0 and page.locator(".hinted").count() == 0
    page.click("#act-look")
    page.wait_for_selector("#act-hint:not([hidden])")
    page.click("#act-hint")
    marked = page.locator("#bid-buttons button.hinted")
    marked.wait_for()
    assert marked.get_attribute("data-bid") in bids_offered(page)
    assert page.locator("#log li.hint-line").count() == 1
    assert page.locator("#log li.hint-line").text_content().startswith("Подсказка: ")
    # the button's request is the only one: the H key, pressed before, asked for none (no wait
    # for something not to happen: a request the key had made would have left first)
    assert len(asked) == 1, asked
    assert page.errors == []
    context.close()


def test_a_hint_stays_marked_when_another_seat_looks(chromium: object,
                                                     serve_process: Callable[..., ServeProcess]) -> None:
    """A hint is for my position, not for one table version: Боря (seat 2) looks
    and asks for a hint; then Аня turns her cards over out of turn, a new version
    that decides nothing, and the hinted bid stays marked on Боря's page. Before,
    the page kept a hint for the one version it was asked at: the look took it away."""
    server = serve_process(*SERVE)
    me, boris = partners_after_seat_2(chromium, server, BLIND, hints=True)
    boris.wait_for_selector("#bid-buttons:not([hidden]) button")
    boris.click("#act-look")
    boris.wait_for_selector("#act-hint:not([hidden])")
    boris.click("#act-hint")
    marked = boris.locator("#bid-buttons button.hinted")
    marked.wait_for()
    hinted = marked.get_attribute("data-bid")
    version = int(boris.get_attribute("body", "data-version"))
    me.wait_for_selector("#act-look:not([hidden])")
    me.click("#act-look")                                       # out of turn
    boris.wait_for_function(f"+document.body.dataset.version > {version}")
    assert boris.locator("#bid-buttons button.hinted").get_attribute("data-bid") == hinted
    assert boris.locator("#log li.hint-line").count() == 1
    boris.click("#act-hint")                                    # asked again: said again, the same bid
    boris.wait_for_function("document.querySelectorAll('#log li.hint-line').length === 2")
    assert boris.locator("#bid-buttons button.hinted").get_attribute("data-bid") == hinted
    assert me.errors == [] and boris.errors == []
    me.context.close()
    boris.context.close()


def test_spades_face_up_cards_stay_face_up_in_a_blind_hand(chromium: object,
                                                            serve_process: Callable[..., ServeProcess]) -> None:
    """Face-up-four: the four cards everyone saw dealt are drawn face up while the
    rest of my hand waits face down for a blind bid, first and in deal order (at
    their sorted places they would say something of the hidden nine)."""
    context, page = blind_bid_table(chromium, serve_process, rules="face-up-four")
    assert bids_offered(page) == ["blind-nil", "double-nil"] and face_down(page) == 9
    opened = [c.get_attribute("data-card") for c in page.locator("#hand .card.open").all()]
    assert len(opened) == 4 and page.locator("#hand button.card").count() == 0   # none is a control
    assert page.get_attribute("#hand", "aria-label") == "Ваши карты рубашкой вверх: 9"
    assert page.locator("#hand .card").nth(0).get_attribute("data-card") == opened[0]
    assert page.locator(".seat-box:not(.me) .face-up .card").count() == 12   # the others' four each
    shot(page, "spades-face-up-blind")
    page.click("#act-look")
    page.wait_for_selector("#hand button.card")
    hand = [c.get_attribute("data-card") for c in page.locator("#hand button.card").all()]
    assert len(hand) == 13 and set(opened) <= set(hand) and face_down(page) == 0
    assert page.errors == []
    context.close()


def two_people_and_bots(chromium: object, server: ServeProcess, body: dict[str, object], other: int,
                        locales: tuple[str, str], ready: str = "#lobby:not([hidden])"
                        ) -> tuple[str, str, list[tuple[object, object]]]:
    """A table made with ``body`` (``POST /api/tables``) where Аня sits at seat 0
    and Боря at seat ``other``, heuristic bots in the other seats; each person's
    page open at the table (in ``locales``, until ``ready`` shows). Returns the
    table id, Аня's token and the two (context, page)."""
    created = httpx.post(f"{server.url}api/tables", json={**body, "name": "Аня"}, timeout=10).json()
    table, token = created["id"], created["token"]
    boris = httpx.post(f"{server.url}api/tables/{table}/seats/{other}", json={"name": "Боря"}, timeout=10).json()["token"]
    for seat in range(1, 4):
        if seat != other:
            httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "heuristic"},
                       headers={"Authorization": f"Bearer {token}"}, timeout=10)
    pages = []
    for seat, key, locale in ((0, token, locales[0]), (other, boris, locales[1])):
        context, page = new_page(chromium, locale=locale)
        sit_at(page, server.url, table, key, seat)
        page.wait_for_selector(ready)
        pages.append((context, page))
    return table, token, pages


def partners_after_seat_2(chromium: object, server: ServeProcess,
                          options: dict[str, object], hints: bool = False) -> tuple[object, object]:
    """A started Spades table where seat 0 deals, so seat 2 bids before seat 0:
    two people, partners — Аня at seat 0 (English page) and Боря at seat 2
    (Russian page) — and heuristic bots at 1 and 3. Returns their pages."""
    seed = next(s for s in range(100) if seat_rng(str(s), "first-dealer").randrange(4) == 0)
    table, token, pages = two_people_and_bots(
        chromium, server, {"game": "spades", "rules": "standard", "options": options, "seed": seed,
                           "hints": hints},
        other=2, locales=("en-US", "ru-RU"))
    (_, me), (_, boris) = pages
    httpx.post(f"{server.url}api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return me, boris


def test_spades_blind_nil_before_looking(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Two people, partners at seats 0 and 2, bots at 1 and 3; seat 0 deals, so
    seat 2 bids before seat 0. Seat 0 sees face-down cards while waiting, looks
    early; seat 2 bids blind nil without looking and leaves (a bot plays on for
    it); the deal is played out, and the next deal starts face down again when
    the team may still bid blind."""
    server = serve_process(*SERVE, "--grace", "0")
    me, boris = partners_after_seat_2(chromium, server, BLIND)
    partner_context = boris.context

    waiting = "document.querySelector('#status').textContent.startsWith('Waiting for Боря to bid')"
    me.wait_for_function(waiting)                           # not my turn yet: the cards are face down already
    assert face_down(me) == 13 and me.locator("#hand button.card").count() == 0
    assert me.is_visible("#act-look") and me.is_hidden("#bid-buttons")
    assert "Your cards stay face down" in me.text_content("#status")
    shot(me, "spades-blind-waiting")
    me.reload()                                             # a reload does not show them
    me.wait_for_function(waiting)
    assert face_down(me) == 13 and me.is_visible("#act-look")
    me.focus("#act-look")
    me.keyboard.press("Enter")                              # look early
    me.wait_for_selector("#hand button.card")
    assert face_down(me) == 0 and me.locator("#hand button.card").count() == 13 and me.is_hidden("#act-look")
    assert me.evaluate("document.activeElement.dataset.card")              # the focus moves into the hand
    assert "face down" not in me.text_content("#status")
    me.reload()
    me.wait_for_selector("#hand button.card")
    assert face_down(me) == 0

    boris.wait_for_selector("#bid-buttons:not([hidden]) button")            # the partner has not looked
    assert bids_offered(boris) == ["blind-nil", "double-nil"] and face_down(boris) == 13
    boris.click('#bid-buttons button[data-bid="blind-nil"]')
    boris.wait_for_selector(".seat-box.me .game-badge")
    assert boris.text_content(".seat-box.me .game-badge") == "заказ: Слепой нил"
    boris.wait_for_selector("#hand button.card")
    assert face_down(boris) == 0 and boris.locator("#hand button.card").count() == 13
    assert boris.errors == []
    partner_context.close()                                 # --grace 0: a bot plays on for seat 2

    me.wait_for_selector("#bid-buttons:not([hidden]) button")
    assert bids_offered(me) == NUMBER_BIDS                  # looked: no blind bid on my turn
    me.click('#bid-buttons button[data-bid="3"]')
    played = 0
    while deal_rows(me) == 0:
        me.wait_for_function(SPADES_TURN_OR, arg=1)
        if deal_rows(me):
            break
        version = int(me.get_attribute("body", "data-version"))
        me.locator('#hand .card[data-legal="true"]').first.click()
        played += 1
        me.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert played == 13
    assert re.search(r"bid 3 \+ Blind nil, took \d+", me.locator("#score tbody tr.deal-row").first.text_content())
    assert "Боря bids Blind nil" in me.locator("#log li").all_text_contents()

    # The next deal: the look was this deal's only. Face down again iff our team may still bid blind.
    me.wait_for_function("[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('Deal 2: '))")
    totals = [int(me.text_content(f"#score tfoot td:nth-of-type({i}) .pts").split(" / ")[0].replace("−", "-"))
              for i in (1, 2)]
    behind = totals[0] <= totals[1]
    assert face_down(me) == (13 if behind else 0) and me.is_visible("#act-look") == behind
    shot(me, "spades-blind-next-deal")
    assert me.errors == []
    me.context.close()


def test_spades_a_partners_bid_can_rule_out_my_blind_bid(chromium: object,
                                                         serve_process: Callable[..., ServeProcess]) -> None:
    """The team's bids must total at least 4: while my partner has not bid, a
    blind nil may still come, so my cards wait face down; my partner bids 1,
    which leaves no blind (nor plain) nil for me, so on my turn the cards turn
    up without my looking, with the bids the engine allows."""
    server = serve_process(*SERVE)
    me, boris = partners_after_seat_2(chromium, server, {**BLIND, "min_team_bid": 4})
    me.wait_for_function("document.querySelector('#status').textContent.startsWith('Waiting for Боря to bid')")
    assert face_down(me) == 13 and me.is_visible("#act-look")
    boris.wait_for_selector("#bid-buttons:not([hidden]) button")
    boris.click("#act-look")
    boris.wait_for_selector('#bid-buttons button[data-bid="1"]')
    boris.click('#bid-buttons button[data-bid="1"]')
    me.wait_for_selector("#bid-buttons:not([hidden]) button")
    assert bids_offered(me) == [str(n) for n in range(3, 14)]       # 1 + 3 makes the team's 4
    assert face_down(me) == 0 and me.locator("#hand button.card").count() == 13
    assert me.is_hidden("#act-look") and "face down" not in me.text_content("#status")
    assert me.errors == [] and boris.errors == []
    me.context.close()
    boris.context.close()


def test_spades_a_bid_left_only_blind_is_offered_after_looking(chromium: object,
                                                               serve_process: Callable[..., ServeProcess]) -> None:
    """Nil is off and a team's bids may total at most 4: my partner bids 4, which
    leaves me only blind nil. Once I had looked, the page offered no bid at all
    (blind bids are for unseen cards) and the table waited for ever."""
    server = serve_process(*SERVE)
    me, boris = partners_after_seat_2(chromium, server, {"nil": False, "max_team_bid": 4, "blind_nil_behind": 0})
    boris.wait_for_selector("#bid-buttons:not([hidden]) button")
    boris.click("#act-look")
    boris.click('#bid-buttons button[data-bid="4"]')
    me.wait_for_selector('#bid-buttons:not([hidden]) button[data-bid="blind-nil"]')
    me.click("#act-look")
    me.wait_for_selector("#hand button.card")
    assert bids_offered(me) == ["blind-nil"] and me.is_visible("#bid-buttons")
    me.click('#bid-buttons button[data-bid="blind-nil"]')
    me.wait_for_selector(".seat-box.me .game-badge")
    assert me.text_content(".seat-box.me .game-badge") == "bid: Blind nil"
    assert me.errors == [] and boris.errors == []
    me.context.close()
    boris.context.close()


# --------------------------------------------------------------- Yu-Gi-Oh!
YGO_WAIT_TURN = """() => document.querySelector('#duel-actions:not([hidden]) #duel-groups button:not([disabled])')
    || document.querySelector('#duel-result:not([hidden])')"""


def ygo_actions(page: object) -> list[str]:
    return [b.get_attribute("data-action") for b in page.locator("#duel-groups button").all()]


def ygo_lp(page: object) -> tuple[int, int] | None:
    """(my LP, the opponent's LP) as the page shows them, both read from one drawing
    (the bot's moves redraw the players), or None while no board is drawn."""
    lp = page.evaluate("""() => ['bottom', 'top'].map((side) =>
        document.querySelector(`.duel-player[data-side="${side}"] .lp`)?.dataset.lp)""")
    return None if None in lp else (int(lp[0]), int(lp[1]))


def ygo_pick(actions: list[str], attacked_this_turn: bool) -> str:
    """Any legal action will do; these make a duel move on: attack, summon,
    set, then to battle once a turn, end the turn, pass, choose."""
    def first(pred: Callable[[str], bool]) -> str | None:
        return next((a for a in actions if pred(a)), None)

    return (first(lambda a: " attack " in a)
            or first(lambda a: " summon " in a)
            or first(lambda a: " set " in a)
            or (None if attacked_this_turn else first(lambda a: a.endswith(" phase battle")))
            or first(lambda a: a.endswith(" phase end"))
            or first(lambda a: a.endswith(" phase main2"))
            or first(lambda a: a.endswith(" pass") or a.endswith(" done"))
            or actions[0])


def in_language(page: object, lang: str) -> None:
    """Switch the page to ``lang`` with its language button and wait until it is drawn in it."""
    page.click(f".lang[data-lang='{lang}']")
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)


def ygo_play_moves(page: object, moves: int) -> None:
    """Make up to ``moves`` of my duel's decisions (``ygo_pick``, at most one
    battle a turn), each waited for until the page has drawn its result; stops
    early at the duel's end."""
    attacked = False
    for _ in range(moves):
        page.wait_for_function(YGO_WAIT_TURN)
        if page.locator("#duel-result:not([hidden])").count():
            break
        chosen = ygo_pick(ygo_actions(page), attacked)
        attacked = attacked or " attack " in chosen
        version = int(page.get_attribute("body", "data-version"))
        page.locator(f'#duel-groups button[data-action="{chosen}"]').first.click()
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)


def ygo_check_option_labels(page: object) -> None:
    """Every Yu-Gi-Oh! option of the form has an English and a Russian label
    (not its key) and a title that explains it."""
    def labels() -> list[tuple[str, str, str]]:
        return page.eval_on_selector_all("#option-list .option", "rows => rows.map(r => [r.dataset.option,"
                                         " r.querySelector('.option-name').textContent, r.title])")

    english = labels()
    assert len(english) == 29
    for key, name, title in english:
        assert name != key and "_" not in name, key
        assert title.endswith(f"({key})") and len(title) > len(key) + 12, key
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    russian = labels()
    assert [k for k, _, _ in russian] == [k for k, _, _ in english]
    for key, name, title in russian:
        assert re.search("[а-яё]", name, re.I) and re.search("[а-яё]", title, re.I), key
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")


def ygo_check_card_details(page: object, catalog: dict[str, dict]) -> None:
    """A monster in my hand shows its printed ATK/DEF and Level (from the card
    catalog, not the view); Tab to the next hand card opens the detail panel
    with its effect text; Escape closes it. The Russian page shows the card's
    Russian text (``lang="ru"``), and switching back redraws an open panel."""
    monster = page.locator("#duel-hand .ycard.kind-monster").first
    name = monster.get_attribute("data-name")
    entry = catalog[name]
    assert monster.locator(".ystats").text_content() == f"{entry['atk']} / {entry['def']}"
    assert f"★{entry['level']}" in monster.locator(".ylevel").text_content()
    assert monster.locator(".ykind").text_content().endswith("Monster")
    assert f"ATK {entry['atk']}" in monster.get_attribute("aria-label")
    hand = page.locator("#duel-hand .ycard")
    hand.first.focus()
    page.keyboard.press("Tab")                                     # the keyboard alone reaches the next card
    second = hand.nth(1)
    assert second.evaluate("b => b === document.activeElement")
    shown = second.get_attribute("data-name")
    page.wait_for_selector("#card-detail:not([hidden])")
    assert page.text_content("#card-detail .detail-name") == shown
    assert page.text_content("#card-detail .detail-text") == catalog[shown]["text"]
    assert page.get_attribute("#card-detail .detail-text", "lang") == "en"
    assert second.get_attribute("aria-describedby") == "card-detail"
    shot(page, "yugioh-card-detail")
    page.keyboard.press("Escape")
    page.wait_for_selector("#card-detail", state="hidden")
    # In Russian the panel reads the card's Russian text, marked lang="ru"; the name stays as printed.
    russian = catalog[shown]["texts"]["ru"]
    assert russian != catalog[shown]["text"] and re.search("[а-яё]", russian, re.I)
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    hand.nth(1).focus()
    page.wait_for_selector("#card-detail:not([hidden])")
    assert page.text_content("#card-detail .detail-name") == shown
    assert page.text_content("#card-detail .detail-text") == russian
    assert page.get_attribute("#card-detail .detail-text", "lang") == "ru"
    shot(page, "yugioh-card-detail-ru")
    # Switching back with the panel open redraws it in English: the keyboard stays on the card
    # (a click on the language button that leaves the focus where it is, as a shortcut would).
    page.evaluate("document.querySelector(\".lang[data-lang='en']\").click()")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert hand.nth(1).evaluate("b => b === document.activeElement")
    assert page.is_visible("#card-detail") and page.text_content("#card-detail .detail-name") == shown
    assert page.text_content("#card-detail .detail-text") == catalog[shown]["text"]
    assert page.get_attribute("#card-detail .detail-text", "lang") == "en"
    page.keyboard.press("Escape")
    page.wait_for_selector("#card-detail", state="hidden")


def ygo_side_deck_one_swap(page: object) -> None:
    """After duel 1: the side-deck picker instead of hundreds of swap buttons;
    Sangan out, Mystical Elf in; the filter still lists swaps; Done; duel 2's
    deck list shows the swap."""
    page.wait_for_selector("#duel-side")
    assert page.locator(".duel-player.turn").count() == 0                   # between duels: nobody's turn
    assert not any("▶" in name for name in page.locator(".duel-player .duel-head .name").all_text_contents())
    assert page.locator("#duel-groups .verb-swap").count() == 0            # no wall of swap buttons
    main = page.locator('#duel-side [data-deck="main"] button')
    assert sum(int(b.get_attribute("data-count")) for b in main.all()) == 40
    side = page.locator('#duel-side [data-deck="side"] button')
    assert side.count() > 1 and all(b.is_disabled() for b in side.all())   # a main card first
    version = int(page.get_attribute("body", "data-version"))
    page.click('#duel-side [data-deck="main"] button[data-card="Sangan"]')
    elf = page.locator('#duel-side [data-deck="side"] button[data-card="Mystical Elf"]')
    assert elf.get_attribute("data-action") == "0 swap Sangan / Mystical Elf" and elf.is_enabled()
    shot(page, "yugioh-side-deck")
    elf.click()
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    page.wait_for_selector('#duel-side [data-deck="side"] button[data-card="Sangan"]')
    assert page.locator('#duel-side [data-deck="main"] button[data-card="Sangan"]').count() == 0
    assert page.get_attribute('#duel-side [data-deck="main"] button[data-card="Mystical Elf"]', "data-count") == "1"
    page.fill("#duel-search", "Sangan")                                   # the full list, behind the filter
    listed = [b.get_attribute("data-action") for b in page.locator("#duel-groups .verb-swap button").all()]
    assert listed and all(" swap " in a and "Sangan" in a for a in listed)
    page.fill("#duel-search", "")
    page.dispatch_event("#duel-search", "input")
    version = int(page.get_attribute("body", "data-version"))
    page.click('#duel-side button[data-action="0 done"]')
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    duel_2 = "document.querySelector('#duel-turn .duel-no')?.textContent.includes('Duel 2')"
    go_first = '#duel-groups button[data-action="0 choose first"]:not([disabled])'
    for _ in range(3):      # on to duel 2 (go first, if asked), however long the bot's side-decking takes
        page.wait_for_function(f"() => {duel_2} || document.querySelector('{go_first}')", timeout=60_000)
        if page.evaluate(duel_2):
            break
        page.click(go_first)
    assert "Duel 2" in page.text_content("#duel-turn .duel-no")
    page.click('.duel-player[data-side="bottom"] .pile[data-pile="decklist0"]')
    assert page.text_content("#duel-pile-title") == "My deck"
    assert page.locator('#duel-pile [data-deck="side"] li[data-card="Sangan"]').count() == 1
    assert page.locator('#duel-pile [data-deck="main"] li[data-card="Sangan"]').count() == 0
    assert page.get_attribute('#duel-pile [data-deck="main"] li[data-card="Mystical Elf"]', "data-count") == "1"
    counts = page.locator('#duel-pile [data-deck="main"] li[data-card]').all()
    assert sum(int(li.get_attribute("data-count")) for li in counts) == 40


def ygo_russian_prompt(page: object, catalog: dict[str, dict]) -> str:
    """The decision line in Russian: the prompt is worded from its key and
    arguments (ygo.prompts), phases and steps translated; only card names (as
    printed) stay English. Returns the prompt."""
    page.wait_for_function("() => /^(Ваше решение|Решает .*?): /.test(document.querySelector('#duel-status').textContent)")
    prompt = re.sub(r"^(Ваше решение|Решает .*?): ", "", page.text_content("#duel-status"))
    assert re.search("[а-яё]", prompt, re.I), prompt
    latin = prompt
    for name in sorted(catalog, key=len, reverse=True):   # card names may stay English
        latin = latin.replace(name, "")
    assert not re.search("[A-Za-z]{2,}", latin), prompt   # no English word, no engine name (main1, calc)
    return prompt


def ygo_russian_log(page: object, catalog: dict[str, dict]) -> list[str]:
    """The duel log in Russian: every line worded from its key and arguments
    (ygo.log, ygo.causes), positions, zones and reasons translated; only card
    names (as printed) and "LP" stay English. Returns the lines."""
    lines = page.locator("#duel-log li:not(.log-head)").all_text_contents()
    for line in lines:
        assert re.search("[а-яё]", line, re.I), line
        latin = line
        for name in sorted(catalog, key=len, reverse=True):
            latin = latin.replace(name, "")
        assert not re.search("[A-Za-z]{2,}", latin.replace("LP", "")), line   # no English word left
        assert not re.search(r"\(вы\)[),]", line), line   # an owner is "ваша карта", not "(Аня (вы))"
    return lines


def seed_the_tables_created(page: Any, seed: int) -> None:
    """Add ``"seed": seed`` to the body of every table the page creates. The form
    has no seed field, and a test asserting what happens in its game (that the
    duel lasts ten decisions, that LP change) must not depend on the seed the
    server draws: at LP 2000 the bot now and then won within a few decisions."""
    def add_seed(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        route.continue_(post_data=json.dumps({**route.request.post_data_json, "seed": seed}))

    page.route(re.compile(r"/api/tables$"), add_seed)


def test_a_yugioh_duel_against_greedy(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    page.fill("#create-name", "Аня")
    page.wait_for_selector("#create-game option", state="attached")
    assert "Yu-Gi-Oh!" in page.locator("#create-game option").all_text_contents()
    page.select_option("#create-game", "yugioh")
    assert [o.get_attribute("value") for o in page.locator("#create-rules option").all()] == ["goat", "official"]
    assert page.is_disabled("#create-players") and page.input_value("#create-players") == "2"
    page.click("#options-summary")                                # the options come from the catalog
    assert page.input_value('#option-list .option[data-option="decks"] select') == "goat_control"
    ygo_check_option_labels(page)
    field = page.locator('#option-list .option[data-option="starting_lp"] input')
    assert field.input_value() == "8000"
    field.fill("2000")                                            # a short duel
    field.dispatch_event("change")
    seed_the_tables_created(page, 4)               # a duel of 45 decisions of mine; LP change on both sides
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.locator("#seat-list .seat-row").count() == 2
    page.wait_for_function("document.querySelector('#bot-kind').options.length > 1")
    assert page.input_value("#bot-kind") == "greedy"              # the game's default bot
    page.click('.seat-row[data-seat="1"] .add-bot')
    page.wait_for_selector('.seat-row[data-seat="1"].kind-bot')
    table = re.search(r"table=([0-9a-f]+)", page.url).group(1)
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert info["game"] == "yugioh" and info["options"] == {"starting_lp": 2000} and info["seats"][1]["bot"] == "greedy"
    assert info["chosen_seed"] is True                            # the duel is the same every run
    page.click("#start-btn")
    page.wait_for_selector("#duel:not([hidden])")
    assert page.is_hidden("#game")

    catalog = httpx.get(f"{server.url}api/games/yugioh/cards", timeout=10).json()["cards"]
    decisions = keyboard = narrowed_hand = narrowed_field = waited = 0
    lp_seen: set[tuple[int, int]] = set()
    statuses: set[str] = set()      # the decision lines: prompts worded by the page (ygo.prompts), not the engine
    attacked_turn = None
    shot_taken = False
    while decisions < 1500:     # a long duel ends by deck-out at the latest
        page.wait_for_function(YGO_WAIT_TURN, timeout=60_000)
        if page.is_visible("#duel-result") or page.locator("#duel-score .duel-row").count():
            break
        version = int(page.get_attribute("body", "data-version"))
        assert "my-turn" in page.get_attribute("#duel-status", "class")
        status = page.text_content("#duel-status")
        assert status.startswith("Your decision: ")
        assert not re.search(r"\b(draw|standby|main1|main2|battle|end|damage|calc)( /|:)", status), status
        statuses.add(status)
        actions = ygo_actions(page)
        assert actions and all(a.startswith("0 ") for a in actions)
        # The opponent's hand is card backs only: as many as it holds, and no names.
        if page.locator(".opp-hand").count():                     # (none before the first duel: go first?)
            backs = page.locator('.duel-player[data-side="top"] .opp-hand .ycard.back')
            count = int(page.locator('.duel-player[data-side="top"] .opp-hand .hint').text_content())
            assert backs.count() == count and page.locator(".opp-hand [data-name]").count() == 0
            lp = ygo_lp(page)           # my decision: the board holds still
            assert lp is not None
            lp_seen.add(lp)
        turn = page.text_content("#duel-turn")
        choice = ygo_pick(actions, attacked_turn == turn)
        verb, what = choice.split(" ", 2)[1], (choice.split(" ", 2) + [""])[2]
        if verb in ("summon", "set") and narrowed_hand < 3:        # a click on the card narrows the list to it
            page.click(f'#duel-hand .ycard[data-name="{what}"]')
            narrowed = ygo_actions(page)
            assert choice in narrowed and all(what in a for a in narrowed) and len(narrowed) <= len(actions)
            assert page.is_visible("#duel-show-all")
            narrowed_hand += 1
            if not shot_taken and page.locator(".duel-player .ycard.zone-monster:not(.empty)").count():
                shot(page, "yugioh-narrowed")
                shot_taken = True
        elif verb == "attack" and narrowed_field < 3:             # the attacker on the field, then its attack
            place = re.search(r"@0M\d", what).group()
            page.click(f'.duel-player[data-side="bottom"] .ycard[data-place="{place}"]')
            narrowed = ygo_actions(page)
            assert choice in narrowed and all(place in a for a in narrowed)
            narrowed_field += 1
            attacked_turn = turn
        elif verb == "attack":
            attacked_turn = turn
        if keyboard == 0 and verb == "phase":                     # once by the keyboard alone: Tab, Enter
            page.click("#duel-show-all") if page.is_visible("#duel-show-all") else None
            target = page.locator(f'#duel-groups button[data-action="{choice}"]')
            target.evaluate("b => { const all = [...document.querySelectorAll('#duel-groups button')];"
                            " const i = all.indexOf(b); (i ? all[i - 1] : document.querySelector('#duel-search')"
                            " || document.querySelector('#duel-filter-label')).focus(); }")
            if page.evaluate("document.activeElement.tagName") != "BUTTON" or target.evaluate(
                    "b => b === document.activeElement"):
                target.focus()
            else:
                page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.dataset.action") == choice
            page.keyboard.press("Enter")
            keyboard += 1
        else:
            page.click(f'#duel-groups button[data-action="{choice}"]')
        decisions += 1
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
        if lp := ygo_lp(page):
            lp_seen.add(lp)
        hidden, my_turn = page.evaluate("() => [document.querySelector('#duel-actions').hidden,"
                                        " document.querySelector('#duel-status').classList.contains('my-turn')]")
        if hidden:                                                # not my decision: no actions, no "my turn"
            assert not my_turn
            waited += 1
        else:
            assert my_turn
    assert decisions >= 10 and waited >= 1 and keyboard == 1 and narrowed_hand >= 1
    assert "Your decision: Main Phase 1: your move" in statuses
    assert page.locator("#duel-score .duel-row").count(), f"duel 1 did not end in {decisions} decisions"
    if lp := ygo_lp(page):                                        # as the duel ended (one blow may end it)
        lp_seen.add(lp)
    assert any(lp != (2000, 2000) for lp in lp_seen)               # LP changed on the page
    assert page.locator("#duel-log li").count() > 10
    assert "Turn " in page.text_content("#duel-turn")
    page.click('.duel-player[data-side="bottom"] .pile[data-pile="gy0"]')   # a Graveyard's cards on demand
    assert page.text_content("#duel-pile-title") == "Graveyard"
    gy = int(page.text_content('.duel-player[data-side="bottom"] .pile[data-pile="gy0"]').split(": ")[1])
    assert page.locator("#duel-pile .pile-list li:not(.hint)").count() == gy
    shot(page, "yugioh-duel")
    if page.locator("#duel-score .duel-row").count():     # the duel's winner is marked (a draw: nobody)
        drawn = any("ends: draw" in line for line in page.locator("#duel-log li").all_text_contents())
        assert page.locator("#duel-score .duel-row td.won").count() == (0 if drawn else 1)
    ygo_side_deck_one_swap(page)
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert "Кладбище" in page.text_content('.duel-player[data-side="bottom"] .piles')
    prompts = set()
    for _ in range(8):                                   # duel 2 in Russian: each decision line too
        page.wait_for_function(YGO_WAIT_TURN, timeout=60_000)
        prompts.add(ygo_russian_prompt(page, catalog))
        if page.is_visible("#duel-result"):
            break
        version = int(page.get_attribute("body", "data-version"))
        page.click(f'#duel-groups button[data-action="{ygo_pick(ygo_actions(page), True)}"]')
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert len(prompts) >= 2 and any(re.search("фаза", p, re.I) for p in prompts), prompts   # phases translated
    lines = ygo_russian_log(page, catalog)                                     # and the duel log
    players = r"(Аня \(вы\)|Бот 2)"                                           # seats by the table's names
    assert any(re.fullmatch(rf"Ход 1: {players}", line) for line in lines), lines[:6]
    assert any(re.fullmatch(rf"{players} берёт (карту|.+)", line) for line in lines), lines[:12]
    page.set_viewport_size({"width": 390, "height": 844})                    # a phone
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    shot(page, "yugioh-mobile")
    assert page.errors == []
    context.close()


def seated_at_a_duel_against_greedy(page: Any, url: str, seed: int, name: str = "Аня") -> tuple[str, str]:
    """A seeded Yu-Gi-Oh! table made through the API, ``name`` at seat 0 in ``page``
    and greedy at seat 1, not started: its id and the player's token."""
    created = httpx.post(f"{url}api/tables", json={"game": "yugioh", "name": name, "seed": seed},
                         timeout=10).json()
    table, token = created["id"], created["token"]
    httpx.post(f"{url}api/tables/{table}/seats/1/bot", json={"bot": "greedy"},
               headers={"Authorization": f"Bearer {token}"}, timeout=10).raise_for_status()
    sit_at(page, url, table, token, 0)
    return table, token


def ygo_decide_until(page: Any, reached: Callable[[], object], what: str, decisions: int = 20) -> None:
    """Make my duel's decisions (``ygo_pick``) until one of them finds ``reached()``
    true; fails saying ``what`` was not reached in ``decisions`` of them."""
    for _ in range(decisions):
        page.wait_for_function(YGO_WAIT_TURN, timeout=60_000)
        if reached():
            return
        version = int(page.get_attribute("body", "data-version"))
        page.click(f'#duel-groups button[data-action="{ygo_pick(ygo_actions(page), True)}"]')
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    raise AssertionError(f"not reached in {decisions} decisions of the duel: {what}")


def test_a_duel_card_shows_its_details(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A card in my hand shows its printed numbers and, focused, its effect text
    (``ygo_check_card_details``). The table is seeded so that my hand holds a
    monster at my first decisions: an unseeded duel lacks one now and then."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    table, token = seated_at_a_duel_against_greedy(page, server.url, seed=9)
    page.wait_for_selector("#lobby:not([hidden])")
    httpx.post(f"{server.url}api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    catalog = httpx.get(f"{server.url}api/games/yugioh/cards", timeout=10).json()["cards"]
    ygo_decide_until(page, lambda: page.locator("#duel-hand .ycard.kind-monster").count()
                     and page.locator("#duel-hand .ycard").count() >= 2, "a monster and another card in my hand")
    ygo_check_card_details(page, catalog)
    assert page.errors == []
    context.close()


def create_yugioh_table_for_30_card_decks(page: Any, url: str, name: str) -> None:
    """Create a Yu-Gi-Oh! table as ``name`` from the lobby form, with a 30-card
    main deck legal (the test decks' size), and wait for its deck panel."""
    page.goto(url)
    page.fill("#create-name", name)
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-game", "yugioh")
    set_options(page, {"min_main_deck": 30})
    page.click("#create-btn")
    page.wait_for_selector("#deck-panel:not([hidden])")


def test_a_yugioh_player_brings_their_own_deck(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """In the lobby of a Yu-Gi-Oh! table the seated player pastes a deck list:
    a bad one gets the server's one-line reason, a good one (from a file, then
    pasted after a clear) its counts, and the seat says "own deck"; started against greedy, the hand holds cards of
    that deck. A Kozel lobby has no such panel."""
    from .test_yugioh_decks import NORMALS, normal_ydk

    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    create_yugioh_table_for_30_card_decks(page, server.url, "Ann")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.text_content("#deck-panel h2") == "Your deck"
    page.wait_for_function("document.querySelector('#deck-status').textContent.includes(\"table's\")")

    page.fill("#deck-text", normal_ydk().replace("#extra", "Raigeki\n#extra"))
    page.click("#deck-use")
    page.wait_for_selector("#deck-status.error")
    error = page.text_content("#deck-status")
    assert "Raigeki is Forbidden" in error and "\n" not in error
    page.set_input_files("#deck-file", files=[{"name": "normals.ydk", "mimeType": "text/plain",
                                               "buffer": normal_ydk().encode()}])   # a file: read and sent
    page.wait_for_selector("#deck-status.ok")
    assert page.text_content("#deck-status") == "30 main / 0 fusion / 0 side"
    assert page.input_value("#deck-text") == normal_ydk()
    page.click("#deck-clear")                                    # back to the table's deck
    page.wait_for_function("document.querySelector('#deck-status').textContent.includes(\"table's\")")
    assert page.is_disabled("#deck-clear")
    assert httpx.get(f"{server.url}api/tables/{re.search(r'table=([0-9a-f]+)', page.url).group(1)}",
                     timeout=10).json()["seats"][0]["own_deck"] is False
    page.fill("#deck-text", normal_ydk())
    page.click("#deck-use")
    page.wait_for_selector("#deck-status.ok")
    assert page.text_content("#deck-status") == "30 main / 0 fusion / 0 side"
    page.wait_for_function("document.querySelector('.seat-row[data-seat=\"0\"] .seat-name')"
                           ".textContent.includes('own deck')")
    table = re.search(r"table=([0-9a-f]+)", page.url).group(1)
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert info["seats"][0]["own_deck"] is True and "Dark Magician" not in str(info)
    shot(page, "yugioh-own-deck")

    page.wait_for_function("document.querySelector('#bot-kind').options.length > 1")
    page.click('.seat-row[data-seat="1"] .add-bot')
    page.wait_for_selector('.seat-row[data-seat="1"].kind-bot')
    page.click("#start-btn")
    page.wait_for_selector("#duel:not([hidden])")
    for _ in range(10):   # the opening decisions (first or second) until the hand is dealt
        page.wait_for_function(YGO_WAIT_TURN, timeout=60_000)
        if page.locator("#duel-hand .ycard").count():   # (the bot may have made me discard already)
            break
        version = int(page.get_attribute("body", "data-version"))
        page.click(f'#duel-groups button[data-action="{ygo_actions(page)[0]}"]')
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    names = [b.get_attribute("data-name") for b in page.locator("#duel-hand .ycard").all()]
    assert names and set(names) <= set(NORMALS), names
    assert page.errors == []

    create_with_bots(page, server.url)                           # a Kozel lobby: no deck panel
    assert page.is_hidden("#deck-panel")
    assert "own deck" not in page.text_content("#seat-list")
    assert page.errors == []
    context.close()


def test_a_refused_deck_is_said_in_the_pages_language(chromium: object,
                                                      serve_process: Callable[..., ServeProcess]) -> None:
    """On the Russian page a bad deck is refused in Russian — the line it was
    read at and the card as printed, every problem of an illegal deck on a line
    of its own — and switching to English words the shown refusal again."""
    from .test_yugioh_decks import normal_ydk

    server = serve_process(*SERVE)
    context, page = new_page(chromium)                      # ru-RU
    create_yugioh_table_for_30_card_decks(page, server.url, "Аня")
    page.wait_for_function("document.querySelector('#deck-status').textContent.includes('колодой стола')")

    def refused(text: str) -> str:
        """What the status says once the page has shown the refusal of ``text``."""
        shown = page.text_content("#deck-status")
        page.fill("#deck-text", text)
        page.click("#deck-use")
        page.wait_for_function("(old) => document.querySelector('#deck-status.error')"
                               " && document.querySelector('#deck-status').textContent !== old", arg=shown)
        return page.text_content("#deck-status")

    body = normal_ydk()
    assert refused(body.replace("#extra", "Raigeki\n#extra")) == "Строка 33. Карта «Raigeki» запрещена в формате Goat."
    assert refused(body.replace("#main\n", "#main\nBlue Eyes\n")) == "Строка 3. Неизвестная карта «Blue Eyes»."
    several = body.replace("Dark Magician\n", "").replace("#extra", "Vorse Raider\n#extra") + "Sangan\nSangan\n"
    assert refused(several).split("\n") == ["Колода не по правилам:",
                                             "• В основной колоде 28 карт (нужно не меньше 30).",
                                             "• В сайд-деке 2 карты (можно 0 или 15).",
                                             "• 2 копии Sangan (ограничена: не больше 1).",
                                             "• 4 копии Vorse Raider (не больше 3)."]
    shot(page, "yugioh-deck-refused-ru")
    assert refused(body + "Sangan\n") == "В сайд-деке 1 карта (можно 0 или 15)."
    page.click(".lang[data-lang='en']")                     # the shown refusal, in the new language
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.text_content("#deck-status") == "The side deck has 1 card (0 or 15 allowed)."
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert refused(body.replace("Dark Magician\n", "")) == "В основной колоде 27 карт (нужно не меньше 30)."
    assert refused("  ") == "Сначала вставьте список колоды."   # the page's own refusal, the same way
    assert page.errors == []
    context.close()


def chat_lines(page: object) -> list[str]:
    return page.locator("#chat-list .chat-msg").all_text_contents()


def test_table_chat_between_two_pages(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Аня (seat 0) and Боря (seat 1) at one Kozel table with two bots, each in
    their own browser, and a spectator on a phone. They talk in the lobby and
    during play; markup someone types is shown as text; a new message does not
    take the focus from the hand; keys typed in the chat input (arrows, Home,
    Enter, H) never play a card; the spectator reads (the collapsed panel
    counts what is new) but cannot write."""
    server = serve_process(*SERVE)
    table, token, pages = two_people_and_bots(chromium, server, {"rules": "classic", "seed": 4}, other=1,
                                              locales=("ru-RU", "en-US"),
                                              ready="#lobby:not([hidden]) #chat:not([hidden])")
    (ann_context, ann), (boris_context, boris) = pages
    phone_context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-US")  # type: ignore
    _, watcher = new_page(chromium, phone_context)
    watcher.goto(f"{server.url}?table={table}")
    watcher.wait_for_selector("#lobby:not([hidden]) #chat:not([hidden])")

    # In the lobby: Enter sends, the other page and the spectator see it with the sender's name.
    assert ann.get_attribute("#chat-list", "aria-live") == "polite"
    ann.fill("#chat-input", "привет, сыграем?")
    ann.press("#chat-input", "Enter")
    boris.wait_for_function("document.querySelectorAll('#chat-list .chat-msg').length === 1")
    assert "Аня: привет, сыграем?" in chat_lines(boris)[0]
    ann.wait_for_function("document.querySelector('#chat-input').value === ''")   # sent: the input is free
    assert "Аня (вы): привет, сыграем?" in chat_lines(ann)[0]
    assert watcher.get_attribute("#chat-toggle", "aria-expanded") == "false"      # collapsed on a phone
    watcher.wait_for_selector("#chat-toggle .chat-unread:not([hidden])")
    assert watcher.text_content("#chat-toggle .chat-unread") == "1 new"
    watcher.click("#chat-toggle")
    assert watcher.is_disabled("#chat-input")                                     # spectators read only
    assert "take a seat" in watcher.text_content("#chat-note")
    assert "Аня: привет, сыграем?" in chat_lines(watcher)[0]

    httpx.post(f"{server.url}api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    for page in (ann, boris):
        page.wait_for_selector("#game:not([hidden]) .side #chat:not([hidden])")
        page.wait_for_selector("#hand .card")
    # Whoever is to act first (the bots wait for them) keeps the focus on the hand.
    actor = None
    while actor is None:
        for page in (ann, boris):
            if page.locator('#hand .card[data-legal="true"]').count():
                actor = page
        time.sleep(0.05)
    other = boris if actor is ann else ann
    actor.focus('#hand .card[tabindex="0"]')
    focused = actor.evaluate("document.activeElement.dataset.card")
    markup = "<img src=x onerror=\"window.pwned=1\"><b>bold</b>"
    other.fill("#chat-input", markup)
    other.click("#chat-send")
    actor.wait_for_function("document.querySelectorAll('#chat-list .chat-msg').length === 2")
    assert actor.locator("#chat-list .chat-msg").nth(1).locator(".chat-text").text_content() == markup
    assert actor.locator("#chat-list img, #chat-list b").count() == 0
    assert actor.evaluate("window.pwned") is None
    assert actor.evaluate("document.activeElement.dataset.card") == focused      # the focus stayed on the hand

    # Typing in the chat: arrows, Home, H and Enter belong to the input, not to the hand.
    version = actor.get_attribute("body", "data-version")
    cards = actor.locator("#hand .card").count()
    actor.click("#chat-input")
    for key in ("ArrowRight", "ArrowLeft", "Home", "End", "h", "H"):
        actor.keyboard.press(key)
    actor.keyboard.type("ход за мной")
    actor.keyboard.press("Enter")
    actor.wait_for_function("document.querySelectorAll('#chat-list .chat-msg').length === 3")
    assert chat_lines(actor)[2].endswith("ход за мной")
    assert actor.get_attribute("body", "data-version") == version and actor.locator("#hand .card").count() == cards
    assert actor.evaluate("document.activeElement.id") == "chat-input"
    other.wait_for_function("document.querySelectorAll('#chat-list .chat-msg').length === 3")
    shot(actor, "chat-table")

    # A reload brings the recent messages back.
    other.reload()
    other.wait_for_selector("#game:not([hidden]) #chat:not([hidden])")
    other.wait_for_function("document.querySelectorAll('#chat-list .chat-msg').length === 3")
    assert other.locator("#chat-list .chat-msg .chat-text").nth(1).text_content() == markup
    assert ann.errors == [] and boris.errors == [] and watcher.errors == []
    ann_context.close()
    boris_context.close()
    phone_context.close()


def test_table_chat_beside_a_duel(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The duel page has the chat panel in its side column too, and a message sent
    there comes back into it."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table, token = seated_at_a_duel_against_greedy(page, server.url, seed=9)
    page.wait_for_selector("#lobby:not([hidden]) #chat:not([hidden])")
    httpx.post(f"{server.url}api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    page.wait_for_selector("#duel:not([hidden]) .side #chat:not([hidden])")
    page.fill("#chat-input", "удачи!")
    page.click("#chat-send")
    page.wait_for_function("document.querySelectorAll('#duel #chat-list .chat-msg').length === 1")
    assert "Аня (вы): удачи!" in chat_lines(page)[0]
    assert page.errors == []
    context.close()


def test_muting_a_seat_in_the_chat(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Аня (Russian page) mutes Боря: his messages, shown and new, are hidden on
    her page only — a new one is not counted as unread — a line says so, a
    reload keeps it, and "Показать" brings them back. Боря's own messages have
    no mute control on his page; Аня's have one there."""
    server = serve_process(*SERVE)
    table, _, pages = two_people_and_bots(chromium, server, {"rules": "classic", "seed": 4}, other=1,
                                          locales=("ru-RU", "en-US"),
                                          ready="#lobby:not([hidden]) #chat:not([hidden])")
    (ann_context, ann), (boris_context, boris) = pages
    visible = "document.querySelectorAll('#chat-list .chat-msg:not([hidden])').length"
    kept = "document.querySelectorAll('#chat-list .chat-msg').length"

    def say(page: object, text: str, count: int) -> None:
        page.fill("#chat-input", text)
        page.press("#chat-input", "Enter")
        for p in (ann, boris):
            p.wait_for_function(f"{kept} === {count}")

    say(boris, "first", 1)
    say(boris, "second", 2)
    say(ann, "привет", 3)
    assert boris.locator("#chat-list .chat-mute").count() == 1                 # only on Аня's message
    assert boris.get_attribute("#chat-list .chat-msg >> nth=2 >> .chat-mute", "aria-label") == "Mute Аня"
    mutes = ann.get_by_role("button", name="Скрыть сообщения игрока Боря")
    assert mutes.count() == 2 and ann.locator("#chat-list .chat-mute").count() == 2
    assert ann.is_hidden("#chat-muted")
    shot(ann, "chat-mute-controls")
    mutes.first.click()
    assert ann.evaluate(visible) == 1 and chat_lines(ann)[2].endswith("привет")
    assert ann.is_visible("#chat-muted")
    assert ann.text_content("#chat-muted .chat-muted-line") == "Сообщения игрока Боря скрыты · Показать"
    assert ann.evaluate("document.activeElement.getAttribute('aria-label')") == "Показать сообщения игрока Боря"
    assert boris.evaluate(visible) == 3                                        # his page is untouched

    say(boris, "third", 4)                                                     # a new one is hidden too
    assert ann.evaluate(visible) == 1
    ann.click("#chat-toggle")                                                  # collapsed: new ones count
    say(boris, "fourth", 5)
    assert ann.is_hidden("#chat-toggle .chat-unread")                          # ... but not a muted one's
    ann.click("#chat-toggle")

    ann.reload()
    ann.wait_for_selector("#lobby:not([hidden]) #chat:not([hidden])")
    ann.wait_for_function(f"{kept} === 5")
    assert ann.evaluate(visible) == 1 and ann.is_visible("#chat-muted")
    shot(ann, "chat-muted")
    ann.get_by_role("button", name="Показать сообщения игрока Боря").click()
    assert ann.evaluate(visible) == 5 and ann.is_hidden("#chat-muted")
    assert [line.split(": ", 1)[1] for line in chat_lines(ann)] == ["first", "second", "привет", "third", "fourth"]
    assert ann.evaluate(f"localStorage.getItem('goat:chat-muted:{table}')") is None
    assert ann.errors == [] and boris.errors == []
    ann_context.close()
    boris_context.close()


def test_the_chat_setting_in_the_page(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The create form's "Chat" choice: at a "lobby" table the lobby says the
    chat closes during play, the input works in the lobby and is disabled
    with a note once the game is played; at an "off" table it is disabled
    with its own note from the start."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    values = page.eval_on_selector_all("#create-chat option", "os => os.map(o => [o.value, o.textContent])")
    assert values == [["on", "включён"], ["lobby", "только в лобби и после игры"], ["off", "выключен"]]
    assert page.text_content("label:has(#create-chat)").startswith("Чат")

    create_with_bots(page, server.url, chat="lobby")
    assert "Чат закрыт во время игры" in page.text_content("#lobby-options")
    assert page.is_enabled("#chat-input") and page.is_hidden("#chat-note")
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden]) .side #chat:not([hidden])")
    page.wait_for_selector("#chat-input:disabled")
    assert page.is_disabled("#chat-send")
    assert page.text_content("#chat-note") == "Во время игры чат за этим столом закрыт; он откроется после игры."

    create_with_bots(page, server.url, chat="off")
    assert "Чат выключен" in page.text_content("#lobby-options")
    assert page.is_disabled("#chat-input") and page.is_disabled("#chat-send")
    assert page.text_content("#chat-note") == "Чат за этим столом выключен."
    page.click(".lang[data-lang='en']")
    assert page.text_content("#chat-note") == "The chat is off at this table."
    assert page.errors == []
    context.close()


def test_the_standings_panel_after_a_finished_match(chromium: object,
                                                    serve_process: Callable[..., ServeProcess]) -> None:
    """A quick classic match played to its end, then the home page's
    "Таблица игроков": Аня's line (played 1, won or the goat as the record
    says), the period and the game chosen by keyboard, bots on demand, the CSV
    link with the same filters, on a phone too, and in English."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = finish_a_quick_match(page, server.url)
    record = httpx.get(f"{server.url}api/tables/{table}/record", timeout=10).json()
    ann_lost = record["result"]["loser_team"] == 0
    page.goto(server.url)
    panel = page.locator("#standings")
    panel.locator("#standings-table tbody tr").first.wait_for()
    assert panel.locator("h2").text_content() == "Таблица игроков"
    assert page.locator("#standings-game").input_value() == "kozel"
    assert page.locator("#standings-period").input_value() == "today"
    heads = panel.locator("thead th").all_text_contents()
    assert heads == ["№", "Игрок", "Партий", "Побед", "Поражений", "Козёл", "Доля побед"]
    rows = panel.locator("tbody tr")
    assert rows.count() == 1                                    # bots are not people
    cells = rows.first.locator("th, td").all_text_contents()
    assert cells[1].startswith("Аня") and cells[2] == "1"
    assert (cells[3], cells[4], cells[5]) == (("0", "1", "1") if ann_lost else ("1", "0", "0"))
    assert "1 партия" in page.text_content("#standings-status")
    csv_link = page.locator("#standings-csv")
    assert csv_link.text_content() == "Скачать (CSV)"
    href = csv_link.get_attribute("href")
    assert href.startswith("api/standings.csv?game=kozel&since=")
    csv_text = httpx.get(f"{server.url}{href}", timeout=10).content.decode("utf-8-sig")
    assert "Аня" in csv_text.splitlines()[1]

    page.focus("#standings-bots")                               # by keyboard: bots too
    page.keyboard.press("Space")
    page.wait_for_function("document.querySelectorAll('#standings-table tbody tr').length === 2")
    assert "heuristic (бот)" in panel.locator("tbody").text_content()
    assert "bots=1" in csv_link.get_attribute("href")
    page.focus("#standings-game")                               # Spades: no game yet
    page.select_option("#standings-game", "spades")
    page.wait_for_selector("#standings-table", state="hidden")
    assert page.text_content("#standings-status") == "За это время сыгранных партий нет."
    page.select_option("#standings-game", "kozel")
    page.select_option("#standings-period", "all")
    page.wait_for_selector("#standings-table tbody tr")
    assert "since" not in csv_link.get_attribute("href")
    shot(page, "standings-ru")

    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.querySelector('#standings h2').textContent === 'Standings'")
    page.wait_for_function("document.querySelector('#standings-status').textContent.includes('1 game counted')")
    assert panel.locator("thead th").all_text_contents() == ["#", "Player", "Played", "Won", "Lost", "Goat",
                                                             "Win rate"]
    assert "heuristic (bot)" in panel.locator("tbody").text_content()
    assert page.locator("#standings-period option:checked").text_content() == "all time"
    shot(page, "standings-en")
    assert page.errors == []
    context.close()

    phone = chromium.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU",  # type: ignore[attr-defined]
                                 is_mobile=True, has_touch=True)
    _, small = new_page(chromium, phone)
    small.goto(server.url)
    small.locator("#standings-table tbody tr").first.wait_for()
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= 390                                          # the table scrolls in its box, not the page
    small.locator("#standings").scroll_into_view_if_needed()
    shot(small, "standings-phone")
    assert small.errors == []
    phone.close()


def test_every_option_of_every_game_is_explained(chromium: object,
                                                   serve_process: Callable[..., ServeProcess]) -> None:
    """Each option of each ruleset of each game the server offers (``/api/games``,
    the engines' own lists) has a one-line explanation (``optTitle``) in every
    language of the page, and the create form shows it as the option's tooltip:
    the Kozel and Spades options showed only their key (``match_target``), so an
    organiser could not tell what they do; a new option without one fails here."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    catalog = httpx.get(f"{server.url}api/games", timeout=10).json()["games"]
    options = sorted({key for game in catalog for preset in game["rules"]
                      for values in preset["options"].values() for key in values})
    assert {"match_target", "shamok_penalty", "trump_card_place", "blind_nil", "starting_lp"} <= set(options)
    missing = page.evaluate("""async (options) => {
        const { STRINGS, LANGS } = await import("/static/i18n.js");
        const out = [];
        for (const code of LANGS) {
            for (const k of options) {
                const text = STRINGS[code].optTitle?.[k];
                if (typeof text !== "string" || !text.trim() || text === k) out.push(`${code} optTitle.${k}`);
            }
        }
        return out;
    }""", options)
    assert missing == []
    page.wait_for_selector("#create-game option", state="attached")
    page.select_option("#create-rules", "street")
    page.click("#options-summary")
    title = page.get_attribute('#option-list .option[data-option="match_target"]', "title")
    assert title.startswith("Penalty points at which a team") and title.endswith("(match_target)")
    assert page.errors == []
    context.close()


def test_every_option_figure_of_kozel_and_spades_is_in_its_explanation(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Each whole number a Kozel or Spades option is set to by some ruleset (at
    some player count, as ``/api/games`` lists them) is written in that option's
    explanation (``optTitle``) in every language: the tooltips give the defaults
    per ruleset in figures ("(12)", "classic, street: 4; full hand: 8"), so a
    preset whose default changed while its tooltip kept the old figure fails
    here. Only the figures are compared, never the prose around them: true/false
    and choice defaults are words in four languages, which no test reads."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    catalog = httpx.get(f"{server.url}api/games", timeout=10).json()["games"]
    figures: dict[str, set[int]] = {}
    for game in catalog:
        if game["name"] not in ("kozel", "spades"):
            continue
        for preset in game["rules"]:
            for values in preset["options"].values():
                for key, value in values.items():
                    if isinstance(value, int) and not isinstance(value, bool):
                        figures.setdefault(key, set()).add(value)
    assert {"hand_size", "match_target", "shamok_penalty", "target", "min_team_bid", "face_up_cards"} <= set(figures)
    stale = page.evaluate("""async (figures) => {
        const { STRINGS, LANGS } = await import("/static/i18n.js");
        const out = [];
        for (const code of LANGS) {
            for (const [key, values] of Object.entries(figures)) {
                const text = (STRINGS[code].optTitle?.[key] ?? "").replaceAll("\\u2212", "-");
                const written = new Set(text.match(/-?\\d+/g) ?? []);
                for (const n of values) if (!written.has(String(n))) out.push(`${code} optTitle.${key} lacks ${n}`);
            }
        }
        return out;
    }""", {key: sorted(values) for key, values in figures.items()})
    assert stale == []
    assert page.errors == []
    context.close()


def test_every_option_and_choice_of_every_game_has_words(chromium: object,
                                                          serve_process: Callable[..., ServeProcess]) -> None:
    """The create form and the lobby name each option of each game (from
    ``/api/games``, the engines' own lists) and each value of a choice in the
    page's words, in both languages: an option added to an engine without them
    showed its key (``set_penalty_per``) or its raw value (``missing-trick``)."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    catalog = httpx.get(f"{server.url}api/games", timeout=10).json()["games"]
    options = sorted({key for game in catalog for preset in game["rules"]
                      for values in preset["options"].values() for key in values})
    values = sorted({str(v) for game in catalog for choice in game["choices"].values() for v in choice
                     if isinstance(v, str) and not v.isdigit()})
    assert "set_penalty_per" in options and "missing-trick" in values
    missing = page.evaluate("""async ([options, values]) => {
        const { STRINGS } = await import("/static/i18n.js");
        const out = [];
        for (const code of ["en", "ru"]) {
            for (const k of options) if (typeof STRINGS[code].opt[k] !== "string") out.push(`${code} opt.${k}`);
            for (const v of values) if (typeof STRINGS[code].choice[v] !== "string") out.push(`${code} choice.${v}`);
        }
        return out;
    }""", [options, values])
    assert missing == []

    def panel(path: str, option: str, values: list[str]) -> dict[str, str]:
        """The rules panel's text of ``/api/games/{path}`` for each value of
        ``option``, in both languages (keys ``"value en"``, ``"value ru"``)."""
        return page.evaluate("""async ([path, option, values]) => {
            const { sections } = await import("/static/rules.js");
            const { setLang } = await import("/static/i18n.js");
            const out = {};
            for (const value of values) {
                const options = encodeURIComponent(JSON.stringify({ [option]: value }));
                const data = await (await fetch(`/api/games/${path}?options=${options}`)).json();
                for (const code of ["en", "ru"]) {
                    setLang(code);
                    out[`${value} ${code}`] = sections(data).flatMap(([, items]) => items)
                        .map((item) => typeof item === "string" ? item : item?.textContent).join(" ");
                }
            }
            return out;
        }""", [path, option, values])

    said = panel("spades/rules/standard", "set_penalty_per", ["bid-trick", "missing-trick"])
    assert "minus 10 a bid trick" in said["bid-trick en"] and "minus 10 a missing trick" in said["missing-trick en"]
    assert "за каждую недобранную взятку" in said["missing-trick ru"]
    assert "за каждую заказанную взятку" in said["bid-trick ru"]
    # Kozel's trump_on_plain: the panel says which reading the table plays
    said = panel("kozel/rules/full-hand", "trump_on_plain", ["when-void", "always"])
    for code, words in (("en", "even by a player who holds the suit"), ("ru", "даже когда масть есть")):
        assert words in said[f"always {code}"] and words not in said[f"when-void {code}"]
    # Kozel's trump_card_place: street's shown card face down (only which card), or face up in its place
    said = panel("kozel/rules/street", "trump_card_place", ["hidden", "public"])
    for code, hidden, public in (("en", "everyone knows the card but not where it lies",
                                  "everyone sees where it lies and who draws it"),
                                 ("ru", "но не где она лежит", "все видят, где она и кому достанется")):
        assert hidden in said[f"hidden {code}"] and hidden not in said[f"public {code}"]
        assert public in said[f"public {code}"] and public not in said[f"hidden {code}"]
    # Spades' wheels_by: a team's bid, or one player's
    said = panel("spades/rules/wheels", "wheels_by", ["team", "player"])
    for code, words in (("en", "when one player bids 10 tricks or more"), ("ru", "если игрок заказал 10 взяток")):
        assert words in said[f"player {code}"] and words not in said[f"team {code}"]
    # Spades' bemo_one_per_team: the panel says the partner of a Bemo bidder bids none
    said = panel("spades/rules/bemo", "bemo_one_per_team", [False, True])
    for code, words in (("en", "One Bemo a team: once a player bids one, the partner may not."),
                        ("ru", "Бимо у пары одно")):
        assert words in said[f"true {code}"] and words not in said[f"false {code}"]
    assert "counts as a bid of 6 (9) tricks toward the team's contract" in said["false en"]
    # Spades' blind_nil_behind: 0 lets either team bid blind ("0 or more points behind" before)
    said = panel("spades/rules/standard", "blind_nil_behind", [0, 150])
    assert "allowed to either team" in said["0 en"] and "0 or more" not in said["0 en"]
    assert "можно любой паре" in said["0 ru"] and "отстаёт на 0" not in said["0 ru"]
    assert "allowed only to a team 150 or more points behind" in said["150 en"]
    assert "отстаёт на 150 очков и больше" in said["150 ru"]
    context.close()
