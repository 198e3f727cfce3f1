"""What a second walk through the browser table found in the corners the first
(``test_browser_walk.py``) did not reach, each as a player meets it (Debian's
chromium, as ``test_browser.py``):

* the end of a match in the reader's own words: a royal goat among three
  players names its winner (it said nothing), as do two goats at once, one playing alone is no "team",
  a seated player is not told "Them is the goat" or "Them won" (the sheet's
  column names are no subjects), in both languages; the review of a deal that
  ended as dealt says so instead of an empty table;
* the score sheet a player prints says who "Мы" and "Они" are;
* Start pressed with the keyboard at a duel leaves the focus on its decision;
* a duel's choices that name no card (go first or second) in the page's language;
* a move made when time ran out, a bid or a duel's decision, in the page's words;
* Spades' face-up-four: my own cards the others have seen are marked in my hand;
* the lobby's title counts its players in words ("3 игрока"), not a bare "· 3";
* a refused move is said in the page's language alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, new_page, sit_at  # noqa: F401 - fixture
from .test_browser_walk import seated, start_by_keyboard, table_with_bots

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: A 3-player full-hand table whose first deal gives seat 0 all four aces.
ROYAL_SEED = "34"
#: A duel whose coin toss lets seat 0 choose to go first or second.
CHOOSER_SEED = "2"

#: result() of a game module for a made-up end of a match, as seat ``seat`` (null: watching) reads it.
RESULT = """async ([game, seat, players, view, code]) => {
    const i18n = await import("/static/i18n.js");
    const { S } = await import("/static/table.js");
    const module = await import(`/static/${game}.js`);
    const seats = [...Array(players).keys()].map((s) => ({seat: s, kind: "human", name: `P${s + 1}`}));
    const saved = [S.msg, S.seat];
    i18n.setLang(code);
    S.msg = {players, seats, view};
    S.seat = seat;
    try { return module[game].result({players, ...view}); } finally { [S.msg, S.seat] = saved; }
}"""


def test_the_end_of_a_match_is_said_to_each_reader(chromium: object,
                                                   serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", rules="full-hand", players=3, seed=ROYAL_SEED)
    context, page = new_page(chromium)
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    assert page.text_content("#lobby-title").endswith("· Козёл · на все карты · 3 игрока")   # not a bare "· 3"
    # its creator chose the seed (so the deals): everyone in the lobby is told
    assert "Заданные сдачи: создатель стола выбрал их зерно" in page.text_content("#lobby-options")
    page.click("#start-btn")
    page.wait_for_selector("#result:not([hidden])")              # the deal ends as it is dealt
    assert page.text_content("#result-text") == "Четыре туза: вы выиграли партию (королевский козёл)!"
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.querySelector('#result-text').textContent.startsWith('Four aces')")
    assert page.text_content("#result-text") == "Four aces: you win the match (royal goat)!"
    watcher_context, watcher = new_page(chromium)
    watcher.goto(f"{server.url}?table={table}")
    watcher.wait_for_selector("#result:not([hidden])")
    assert watcher.text_content("#result-text") == "Четыре туза — королевский козёл: Аня — победа в партии."
    watcher.click("#review-btn")                                 # its review: no card to weigh
    watcher.wait_for_function("document.querySelector('#review-status').textContent.startsWith('В этой')")
    assert watcher.is_hidden("#review-table") and watcher.locator("#review-summary li").count() == 0

    def said(game: str, seat: int | None, players: int, view: dict[str, object], code: str = "en") -> str:
        return page.evaluate(RESULT, [game, seat, players, view, code])

    kozel = {"loser_team": 1, "penalty_total": [0, 12], "deal_results": [{"ended_by": "cards-exhausted"}]}
    assert said("kozel", 0, 4, kozel) == "Your team won! The other team is the goat with 12 penalty points."
    assert said("kozel", 1, 4, kozel) == "Your team is the goat with 12 penalty points."
    assert said("kozel", None, 4, kozel) == "P2 + P4 are the goats with 12 penalty points."
    assert said("kozel", 1, 3, kozel) == "You are the goat with 12 penalty points."
    assert said("kozel", 1, 3, kozel, "ru") == "Вы — козёл: 12 штрафных очков."
    assert said("kozel", 0, 3, kozel, "ru") == "Вы победили! P2 — козёл: 12 штрафных очков."
    royal = {"loser_team": 0, "penalty_total": [0, 0], "deal_results": [{"ended_by": "royal-goat", "winner_team": 1}]}
    assert said("kozel", 0, 4, royal) == "Four aces: the other team wins the match (royal goat)."
    assert said("kozel", 1, 4, royal, "ru") == "Четыре туза: ваша команда выиграла партию (королевский козёл)!"
    # Two goats at once (3 players, both losers of a deal reach 12): the deal's winner won.
    two = {"loser_team": None, "penalty_total": [0, 12, 12],
           "deal_results": [{"ended_by": "cards-exhausted", "winner_team": 0}]}
    assert said("kozel", 0, 3, two) == "You won! Two goats: P2 (12) and P3 (12)."
    assert said("kozel", 2, 3, two) == "You are a goat with 12 penalty points, and so is P2 (12)."
    assert said("kozel", 1, 3, two, "ru") == "Вы — козёл: 12 штрафных очков; и P3 тоже (12)."
    assert said("kozel", None, 3, two, "ru") == "Победа: P1. Два козла: P2 (12) и P3 (12)."
    spades = {"winner_team": 1, "score_total": [-60, 72]}
    assert said("spades", 0, 4, spades) == "Your team lost. Final score 72 to −60."
    assert said("spades", 1, 4, spades, "ru") == "Ваша команда победила! Итоговый счёт 72 : −60."
    assert said("spades", None, 4, spades) == "P2 + P4 won, 72 to −60."
    assert page.errors == [] and watcher.errors == []
    watcher_context.close()
    context.close()


@pytest.mark.parametrize("game", ["kozel", "spades"])
def test_a_players_printed_sheet_says_who_is_us(chromium: object, serve_process: Callable[..., ServeProcess],
                                                game: str) -> None:
    """The sheet a player prints heads its columns "Мы" and "Они": the heading
    above it names the players of each (a spectator's columns name them already)."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game=game)
    context, page = seated(chromium, server.url, table, token)
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden]) #score thead th")
    page.emulate_media(media="print")
    assert page.is_visible(".print-head p") and page.is_visible("#score")
    assert page.text_content("#score thead").endswith("МыОни")
    assert page.text_content(".print-head p") == "Мы: Аня + Бот 3 · Они: Бот 2 + Бот 4"
    watcher_context, watcher = new_page(chromium)
    watcher.goto(f"{server.url}?table={table}")
    watcher.wait_for_selector("#game:not([hidden]) #score thead th")
    assert watcher.text_content(".print-head p") == "Аня, Бот 2, Бот 3, Бот 4"
    assert page.errors == [] and watcher.errors == []
    watcher_context.close()
    context.close()


def test_start_by_the_keyboard_lands_on_the_duels_decision(chromium: object,
                                                           serve_process: Callable[..., ServeProcess]) -> None:
    """As at the card tables (``test_browser_walk``): Start pressed with Enter hides
    the lobby, and the focus goes to the duel's actions, not to the page, from
    where a keyboard player had to Tab past both fields to decide."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    page.wait_for_selector("#duel-actions:not([hidden]) #duel-groups button:not([disabled])")
    page.wait_for_function("document.activeElement?.closest('#duel-actions, #duel-hand') != null")
    version = int(page.get_attribute("body", "data-version"))
    page.keyboard.press("Enter")                                  # the decision, made from there
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert page.errors == []
    context.close()


def test_the_duels_word_choices_are_translated(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Going first or second (and a position) are choices that name no card: their
    buttons said the engine's "first" and "second" on the Russian page."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy", seed=CHOOSER_SEED)
    context, page = seated(chromium, server.url, table, token)
    page.click("#start-btn")
    first = page.locator('#duel-groups button[data-action="0 choose first"]')
    first.wait_for()
    assert first.text_content() == "Ходить первым" and first.get_attribute("aria-label") == "Выбрать: Ходить первым"
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.querySelector('#duel-groups button').textContent === 'Go first'")
    assert page.locator("#duel-groups button").all_text_contents() == ["Go first", "Go second"]
    assert page.errors == []
    context.close()


@pytest.mark.parametrize(("game", "bot", "seed", "said"), [
    ("spades", "heuristic", "1", r"заказывает (\d+|Нил)"),                 # a bid: the log's words
    ("yugioh", "greedy", CHOOSER_SEED, r"Выбрать: Ходить (первым|вторым)"),   # a duel's: its button's
])
def test_the_clocks_move_is_said_in_the_pages_words(chromium: object, serve_process: Callable[..., ServeProcess],
                                                    game: str, bot: str, seed: str, said: str) -> None:
    """When time runs out on a move that plays no card, the log said the engine's
    text ("— bid 1", "— choose first", "— pass") on the Russian page."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game=game, bot=bot, seed=seed, move_seconds=1)
    context, page = seated(chromium, server.url, table, token)
    page.click("#start-btn")
    line = page.locator(".clock-line").first
    line.wait_for()
    assert re.fullmatch(rf"Время вышло: за игрока Аня \(вы\) — {said}", line.text_content()), line.text_content()
    assert page.errors == []
    context.close()


def test_my_cards_dealt_face_up_are_marked(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """In face-up-four each hand's four face-up cards are shown at the others' seats;
    in my own hand nothing told which of mine the others know."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="spades", rules="face-up-four")
    context, page = seated(chromium, server.url, table, token)
    page.click("#start-btn")
    page.wait_for_selector("#hand button.card")
    seen = page.locator("#hand .card.seen")
    assert seen.count() == 4 and page.locator("#hand .card").count() == 13
    assert all("сдана в открытую, её видят все" in card.get_attribute("aria-label") for card in seen.all())
    assert page.locator('.seat-box[data-pos="top"] .face-up .card').count() == 4    # as the partner's are shown
    assert page.errors == []
    context.close()


def test_the_finished_list_says_goats_and_minus_as_the_tables_do(chromium: object,
                                                                 serve_process: Callable[..., ServeProcess]) -> None:
    """The home page's finished games: a losing team of two is "козлы" (one player
    "козёл"), as the result box says, and a negative Spades score has a true minus
    sign, as the score sheet writes it. (The list is served here as the API
    answers it, so every kind of ending is at hand without playing it.)"""
    server = serve_process(*SERVE)
    seats = [{"seat": s, "kind": "human", "name": n, "bot": None, "connected": False}
             for s, n in enumerate(["Аня", "Боря", "Вера", "Гоша"])]
    finished = [
        {"id": "k4", "game": "kozel", "rules": "classic", "players": 4, "seats": seats,
         "result": {"penalty": [12, 4], "goat": 0}, "finished_at": "2026-12-02T18:00:00+00:00"},
        {"id": "k3", "game": "kozel", "rules": "full-hand", "players": 3, "seats": seats[:3],
         "result": {"penalty": [3, 12, 6], "goat": 1}, "finished_at": "2026-12-02T18:00:00+00:00"},
        {"id": "s4", "game": "spades", "rules": "standard", "players": 4, "seats": seats,
         "result": {"score": [-60, 512], "winner": 1}, "finished_at": "2026-12-02T18:00:00+00:00"},
    ]
    context, page = new_page(chromium)
    page.route(re.compile(r"/api/tables\?status=finished"), lambda route: route.fulfill(json={"tables": finished}))
    page.goto(server.url)
    page.wait_for_selector('#finished-list li[data-table="s4"]')
    said = {t["id"]: page.text_content(f'#finished-list li[data-table="{t["id"]}"] .finished-result')
            for t in finished}
    assert said == {"k4": "Аня + Вера — козлы (12 : 4)", "k3": "Боря — козёл (3 : 12 : 6)",
                    "s4": "Боря + Гоша — победа (−60 : 512)"}
    assert page.errors == []
    context.close()


#: Send a move the page would never offer: a card not in my hand, with the table's version.
SEND_FOREIGN_CARD = """async () => {
    const { S } = await import("/static/table.js");
    const hand = new Set(S.msg.view.hand);
    const card = [..."789TJQKA"].flatMap((r) => [..."CDHS"].map((s) => r + s)).find((c) => !hand.has(c));
    S.ws.send(JSON.stringify({ type: "action", action: `0 play ${card}`, version: S.msg.version, id: "t-foreign" }));
}"""


def test_a_refused_move_is_said_in_one_language(chromium: object,
                                                serve_process: Callable[..., ServeProcess]) -> None:
    """The server's detail of a refused move is English; the Russian page says the
    refusal's title alone ("Так ходить нельзя."), not a sentence of two languages,
    and the English page keeps the detail."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", bot="random")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    for code, expected in (("ru", "Так ходить нельзя."), ("en", "Illegal move: ")):
        page.click(f".lang[data-lang='{code}']")
        page.wait_for_selector('#hand .card[data-legal="true"]', timeout=30_000)
        page.evaluate(SEND_FOREIGN_CARD)
        page.wait_for_selector("#toast:not([hidden])")
        said = page.text_content("#toast")
        assert said == expected if code == "ru" else said.startswith(expected) and "seat 0" in said, said
        page.evaluate("document.querySelector('#toast').hidden = true")
    assert page.errors == []
    context.close()
