"""The page in Arabic (right to left) and in Bulgarian, in a real browser
(Debian's chromium, as ``test_browser.py``):

* a browser that asks for Arabic (``ar-EG``) gets the page in Arabic with
  ``dir="rtl"`` and ``lang="ar"``, the language picker names the languages in
  their own script, numbers in the digits 0–9 (not ٠–٩); a street deal played for a few turns shows no English
  sentence in the table's areas (the bots' algorithm names and "CSV" are names),
  the arrow keys walk the hand right to left as it reads;
  the seats keep their physical places (the next player on my left, the partner
  opposite), and the choice of another language is remembered across a reload;
* a browser that asks for Bulgarian (``bg-BG``) gets the duel in Bulgarian: a
  few turns against ``greedy`` show no English word in the duel's areas but card
  names and ATK/DEF (which the Bulgarian rulebook prints in Latin), and a hand
  card's effect text is the Bulgarian one;
* the Russian, Bulgarian and Arabic strings write arrows, ellipses and quotes with
  the language's own marks; an Arabic word after a count of two agrees with the
  dual, and so does a Kozel team of two named the goat (Bulgarian and English: the
  plural), or a royal goat's winner; a Spades or finished-list winner of two is
  Bulgarian "спечелиха"; the Bemo rule names the contract by the bidding rule's word;
* the duel log's lines begin with a capital letter in English, Russian and
  Bulgarian ("Chain link 1 resolves": the engine's templates begin in lower
  case), a player's name that begins one stays as they wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest


from .conftest import ServeProcess
from .test_browser import (CHROMIUM, SERVE, STREET_TURN, YGO_WAIT_TURN, at_version, chromium,  # noqa: F401
                           click_at_version, new_page, shot, sit_at, street_table_i_lead, ygo_actions, ygo_pick,
                           in_language, seated_at_a_duel_against_greedy, ygo_play_moves)
from .test_browser_walk2 import RESULT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: The visible text of the areas a player reads (not the chat, whose messages are people's own words).
SHOWN = """(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)])
    .filter((e) => e.getClientRects().length).map((e) => e.innerText).join("\\n")"""
#: Latin words that are names in any language: the bots' algorithms, a file format.
NAMES = {"heuristic", "random", "greedy", "ismcts", "pimc", "mc", "CSV", "JSON"}


def latin_words(text: str, allowed: set[str]) -> set[str]:
    """The Latin words of two letters or more in ``text`` that are not ``allowed``
    (one letter is a card's rank or suit letter: K♠, S)."""
    return {word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in allowed}


def test_arabic_page_reads_right_to_left_through_a_street_deal(chromium: object,
                                                               serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = street_table_i_lead(server, "heuristic")
    context, page = new_page(chromium, locale="ar-EG")
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
    assert page.text_content(".lang[data-lang='ar']") == "العربية"
    assert page.text_content(".lang[data-lang='bg']") == "Български"
    assert page.get_attribute(".lang[data-lang='ar']", "aria-pressed") == "true"
    assert page.text_content("#start-btn") == "ابدأ اللعبة"
    assert page.evaluate("getComputedStyle(document.querySelector('#invite-link')).direction") == "ltr"  # a URL
    page.fill("#chat-input", "مرحبا")                               # its time in the page's digits, not ٠–٩
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-list .chat-time")
    assert re.fullmatch(r"[^0-9\u0660-\u0669]*[0-9]{2}:[0-9]{2}[^0-9\u0660-\u0669]*",
                        page.text_content("#chat-list .chat-time"))
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    molodka = "#act-molodka:not([hidden]):not([disabled])"
    turns, keyed = 0, False
    while turns < 3:
        page.wait_for_function(f"document.querySelector('#status.my-turn') || document.querySelector('{molodka}')")
        turn = page.evaluate(STREET_TURN, molodka)
        version = turn["version"]
        if turn["molodka"]:
            if click_at_version(page, "#act-molodka", version):
                page.wait_for_selector("#act-molodka", state="hidden")
            continue
        if not turn["mine"]:
            continue
        if turn["selected"]:
            click_at_version(page, "#act-clear", version)
            continue
        if not keyed:                                 # the arrow keys walk the hand the way it reads
            page.focus('#hand .card[tabindex="0"]')
            page.keyboard.press("Home")
            page.keyboard.press("ArrowLeft")
            cards = page.locator("#hand button.card")
            assert cards.nth(1).evaluate("b => b === document.activeElement")
            assert cards.nth(1).bounding_box()["x"] < cards.nth(0).bounding_box()["x"]
            keyed = True
        for _ in range(max(turn["need"], 1)):
            page.locator('#hand .card[data-legal="true"]:not(.selected)').first.click()
        if click_at_version(page, "#act-pass" if turn["need"] else "#act-play", version):
            turns += 1
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    shot(page, "street-ar")
    shown = page.evaluate(SHOWN, ["header .rules-btn", "#game .board", "#status", "#score", "#log", "#game .actions"])
    assert re.search("[\u0600-\u06ff]", shown)
    assert latin_words(shown, NAMES) == set(), shown
    # the seats where they are in every language: the next player on my left, the partner opposite
    box = {pos: page.locator(f".felt .pos-{pos}").bounding_box() for pos in ("left", "top", "right", "bottom")}
    assert box["left"]["x"] + box["left"]["width"] < box["top"]["x"] < box["right"]["x"]
    middle = {pos: box[pos]["x"] + box[pos]["width"] / 2 for pos in ("top", "bottom")}
    assert abs(middle["top"] - middle["bottom"]) < 5 and box["top"]["y"] < box["bottom"]["y"]
    assert "روبوت 3" in page.text_content(".felt .pos-top")                 # seat 3 of 4, my partner
    page.click(".lang[data-lang='bg']")
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["bg", "ltr"]
    assert page.errors == []
    context.close()


def test_bulgarian_duel_against_greedy(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"game": "yugioh", "name": "Аня", "seed": 7},
                         timeout=10).json()
    table, token = created["id"], created["token"]
    httpx.post(f"{server.url}api/tables/{table}/seats/1/bot", json={"bot": "greedy"},
               headers={"Authorization": f"Bearer {token}"}, timeout=10).raise_for_status()
    catalog = httpx.get(f"{server.url}api/games/yugioh/cards", timeout=10).json()["cards"]
    card_words = {word for name in catalog for word in re.findall(r"[A-Za-z]{2,}", name)}
    context, page = new_page(chromium, locale="bg-BG")
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["bg", "ltr"]
    page.click("#start-btn")
    page.wait_for_selector("#duel:not([hidden])")
    decisions, attacked = 0, False
    while decisions < 8:
        page.wait_for_function(YGO_WAIT_TURN)
        if page.locator("#duel-result:not([hidden])").count():
            break
        actions = ygo_actions(page)
        chosen = ygo_pick(actions, attacked)
        attacked = attacked or " attack " in chosen
        version = int(page.get_attribute("body", "data-version"))
        page.locator(f'#duel-groups button[data-action="{chosen}"]').first.click()
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
        decisions += 1
    shot(page, "duel-bg")
    shown = page.evaluate(SHOWN, ["header .rules-btn", "#duel"])
    assert "ЖТ" in shown and re.search("Фаза|фаза", shown)
    assert latin_words(shown, NAMES | card_words | {"ATK", "DEF", "LV", "Goat"}) == set(), shown
    hand = page.locator("#duel-hand .ycard")
    hand.first.focus()                                             # a hand card's text in Bulgarian
    name = hand.first.get_attribute("data-name")
    page.wait_for_selector("#card-detail:not([hidden])")
    assert page.text_content("#card-detail .detail-text") == catalog[name]["texts"]["bg"]
    assert page.get_attribute("#card-detail .detail-text", "lang") == "bg"
    assert page.errors == []
    context.close()


#: ASCII stand-ins a reader of these languages should not see, with what the language writes instead.
STAND_INS = {"->": "→ (Arabic ←)", "<-": "←", "...": "…", '"': "„“ in Bulgarian, «» in Russian and Arabic"}


def test_the_page_text_uses_each_languages_own_marks(chromium: object,
                                                     serve_process: Callable[..., ServeProcess]) -> None:
    """Every string of the Russian, Bulgarian and Arabic page (i18n.js ``STRINGS``,
    a Yu-Gi-Oh! log line "атакува с X → Y" as much as a button) writes an arrow, an
    ellipsis and quotes with the language's own marks, not their ASCII stand-ins.
    English keeps its "->": the duel's log reads it as the engine writes it."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    found = page.evaluate("""async () => {
        const { STRINGS } = await import("/static/i18n.js");
        const flat = (obj, prefix = "", out = {}) => {
            for (const [k, v] of Object.entries(obj)) {
                if (v && typeof v === "object") flat(v, prefix + k + ".", out);
                else out[prefix + k] = String(v);
            }
            return out;
        };
        return Object.fromEntries(["ru", "bg", "ar"].map((code) => [code, flat(STRINGS[code])]));
    }""")
    for code, strings in found.items():
        assert len(strings) > 300, code
        stand_ins = {key: [mark for mark in STAND_INS if mark in text] for key, text in strings.items()}
        assert {key: marks for key, marks in stand_ins.items() if marks} == {}, (code, STAND_INS)
    assert "→" in found["bg"]["ygo.log.attacks"] and "←" in found["ar"]["ygo.log.attacks"]
    context.close()


def test_arabic_words_after_a_count_agree_with_its_dual(chromium: object,
                                                         serve_process: Callable[..., ServeProcess]) -> None:
    """Two of a thing is the dual in Arabic, and what describes it is dual too
    ("لمّتان ضائعتان", two tricks given away, where three are "لمّات ضائعة"): the
    describing word sits in the count's forms. A dual after a verb or a preposition
    is oblique ("بطاقتين", "درجتي هزيمة"), as the Rules panel's counts all are."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    said = page.evaluate("""async () => {
        const m = await import("/static/i18n.js");
        const rules = (await import("/static/rules-ar.js")).default;
        m.setLang("ar");
        return {
            tricks: [1, 2, 3, 11].map((p) => m.t("review.summaryTricks", { team: "X", n: 1, p })),
            points: m.t("review.summary", { team: "X", n: 2, p: 2 }),
            passes: [2, 3].map((n) => m.t("passes", { name: "Y", n })),
            beat: m.t("yourTurnBeat", { n: 2 }),
            shamok: rules.shamok(2),
            doubleNil: rules.doubleNil(2, 200),
        };
    }""")
    assert said["tricks"] == ["X: 1 خطأ، و1 لمّة ضائعة", "X: 1 خطأ، و2 لمّتان ضائعتان",
                              "X: 1 خطأ، و3 لمّات ضائعة", "X: 1 خطأ، و11 لمّةً ضائعةً"]
    assert said["points"] == "X: 2 خطآن، و2 نقطتان ضائعتان"
    assert said["passes"] == ["Y يمرّر 2 بطاقتين مقلوبتين", "Y يمرّر 3 بطاقات مقلوبة"]
    assert said["beat"] == "دورك: اغلب بـ2 بطاقتين أو مرّر 2 مقلوبتين."
    assert "الفريق الذي لعب Q♣ 2 درجتي هزيمة." in said["shamok"]
    assert "يتبادل بعده الشريكان 2 بطاقتين:" in said["doubleNil"]
    assert page.errors == []
    context.close()


def test_a_goat_team_of_two_is_named_in_the_dual_or_the_plural(chromium: object,
                                                               serve_process: Callable[..., ServeProcess]) -> None:
    """A Kozel match's result for a team (``goatIs``, the finished list's
    ``sheets.goatTeam``: four players, two on a side) said the singular of a pair
    — Arabic "هو العنزة" (he is the goat), Bulgarian "е козел" — where one
    player's (``goatIsSolo``, ``sheets.goat``) is rightly singular: a pair is two
    goats, the dual "هما العنزتان", the plural "са козли", as Russian's "козлы"
    beside "козёл". A royal goat's winner told to someone watching
    (``royalGoat.won``) is one key for one player and a pair, and its verb after
    them was singular ("يفوز", "печели", "wins"): a pair is told ``royalGoat.wonTeam``.
    So are a Spades winner told to a watcher (``winnerIs``: Spades is always two
    teams of two) and the finished list's winner (``sheets.winner``, one key for a
    seat and a pair until ``sheets.winnerTeam``): Bulgarian "спечели" is one
    player's, a pair "спечелиха"; Arabic puts the verb first, where it stays
    singular ("فاز X + Y"). English named a pair the goat in the singular ("X + Y is
    the goat"): a pair "are the goats", as "win" beside "wins"."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    seats = [{"seat": s, "kind": "human", "name": n, "bot": None, "connected": False}
             for s, n in enumerate(["Аня", "Боря", "Вера", "Гоша"])]
    at = "2026-12-02T18:00:00+00:00"
    finished = [   # the finished list as the API answers it: every ending at hand without playing it
        {"id": "k4", "game": "kozel", "rules": "classic", "players": 4, "seats": seats,
         "result": {"penalty": [12, 4], "goat": 0}, "finished_at": at},
        {"id": "k4royal", "game": "kozel", "rules": "classic", "players": 4, "seats": seats,
         "result": {"penalty": [0, 0], "goat": None, "winner": 1}, "finished_at": at},
        {"id": "k3royal", "game": "kozel", "rules": "full-hand", "players": 3, "seats": seats[:3],
         "result": {"penalty": [0, 0, 0], "goat": None, "winner": 1}, "finished_at": at},
        {"id": "s4", "game": "spades", "rules": "standard", "players": 4, "seats": seats,
         "result": {"score": [-60, 512], "winner": 1}, "finished_at": at},
        {"id": "y2", "game": "yugioh", "rules": "goat", "players": 2, "seats": seats[:2],
         "result": {"wins": [2, 1], "winner": 0}, "finished_at": at},
    ]
    page.route(re.compile(r"/api/tables\?status=finished"), lambda route: route.fulfill(json={"tables": finished}))
    page.goto(server.url)
    page.wait_for_selector('#finished-list li[data-table="y2"]')

    def finished_list(code: str) -> dict[str, str]:
        """The finished list's results once the page is drawn in language ``code``."""
        before = page.text_content('#finished-list li[data-table="s4"] .finished-result')
        in_language(page, code)
        page.wait_for_function("(before) => document.querySelector("
                               "'#finished-list li[data-table=\"s4\"] .finished-result')?.textContent !== before",
                               arg=before)
        return {t["id"]: page.text_content(f'#finished-list li[data-table="{t["id"]}"] .finished-result')
                for t in finished}

    assert finished_list("bg") == {"k4": "Аня + Вера са козли (12 : 4)", "k4royal": "Боря + Гоша спечелиха (0 : 0)",
                                   "k3royal": "Боря спечели (0 : 0 : 0)", "s4": "Боря + Гоша спечелиха (−60 : 512)",
                                   "y2": "Аня спечели (2 : 1)"}
    assert finished_list("ar")["s4"] == "فاز Боря + Гоша (−60 : 512)"
    assert finished_list("en") == {"k4": "Аня + Вера are the goats (12 : 4)", "k4royal": "Боря + Гоша won (0 : 0)",
                                   "k3royal": "Боря won (0 : 0 : 0)", "s4": "Боря + Гоша won (−60 : 512)",
                                   "y2": "Аня won (2 : 1)"}
    said = page.evaluate("""async () => {
        const m = await import("/static/i18n.js");
        const out = {};
        for (const code of ["ar", "bg"]) {
            m.setLang(code);
            out[code] = {
                team: m.t("goatIs", { team: "X + Y", p: 12 }),
                solo: m.t("goatIsSolo", { team: "X", p: 12 }),
                sheetTeam: m.t("sheets.goatTeam", { team: "X + Y", totals: "12 : 4" }),
                sheetSolo: m.t("sheets.goat", { team: "X", totals: "12 : 4" }),
            };
        }
        return out;
    }""")
    ar, bg = said["ar"], said["bg"]
    assert ar["team"].startswith("X + Y هما العنزتان بـ12 ") and ar["sheetTeam"] == "X + Y هما العنزتان (12 : 4)"
    assert ar["solo"].startswith("X هو العنزة بـ12 ") and ar["sheetSolo"] == "X هو العنزة (12 : 4)"
    assert bg["team"] == "X + Y са козли с 12 наказателни точки." and bg["sheetTeam"] == "X + Y са козли (12 : 4)"
    assert bg["solo"] == "X е козел с 12 наказателни точки." and bg["sheetSolo"] == "X е козел (12 : 4)"

    def royal_goat_won(players: int, code: str) -> str:
        """result() of Kozel as someone watching reads a royal goat won by side 1."""
        view = {"loser_team": 0, "penalty_total": [0] * (players if players < 4 else 2),
                "deal_results": [{"ended_by": "royal-goat", "winner_team": 1}]}
        return page.evaluate(RESULT, ["kozel", None, players, view, code])

    assert royal_goat_won(4, "ar") == "أربعة آسات: P2 + P4 يفوزان بالمباراة (العنزة الملكية)."
    assert royal_goat_won(3, "ar") == "أربعة آسات: P2 يفوز بالمباراة (العنزة الملكية)."
    assert royal_goat_won(4, "bg") == "Четири аса: P2 + P4 печелят мача (кралски козел)."
    assert royal_goat_won(3, "bg") == "Четири аса: P2 печели мача (кралски козел)."
    assert royal_goat_won(4, "en") == "Four aces: P2 + P4 win the match (royal goat)."
    assert royal_goat_won(3, "en") == "Four aces: P2 wins the match (royal goat)."
    assert royal_goat_won(4, "ru") == "Четыре туза — королевский козёл: P2 + P4 — победа в партии."

    def result(game: str, players: int, view: dict[str, object], code: str) -> str:
        """The match's result as someone watching reads it."""
        return page.evaluate(RESULT, [game, None, players, view, code])

    def goat(players: int) -> dict[str, object]:
        """A Kozel match side 1 lost with 12 penalty points."""
        return {"loser_team": 1, "penalty_total": [0, 12, 0][:players if players < 4 else 2],
                "deal_results": [{"ended_by": "cards-exhausted"}]}

    assert result("kozel", 4, goat(4), "en") == "P2 + P4 are the goats with 12 penalty points."
    assert result("kozel", 3, goat(3), "en") == "P2 is the goat with 12 penalty points."
    spades = {"winner_team": 1, "score_total": [-60, 72]}
    assert result("spades", 4, spades, "bg") == "P2 + P4 спечелиха с 72 на −60."
    assert result("spades", 4, spades, "ar") == "فاز P2 + P4، 72 مقابل −60."
    assert page.errors == []
    context.close()


def test_the_bemo_rule_counts_toward_the_contract_the_bidding_rule_names(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The Rules panel's Bemo sentence says what a Bemo counts as in the team's
    contract with the word the bidding sentence defines the contract by (Bulgarian
    "договор", Arabic "عقد"), not the word for one player's bid."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    said = page.evaluate("""async () => {
        const out = {};
        for (const code of ["bg", "ar"]) {
            const rules = (await import(`/static/rules-${code}.js`)).default;
            out[code] = [rules.bidRound(1, true), rules.bemo({ tricks: 6, points: 100 }, { tricks: 9, points: 200 }, true)];
        }
        return out;
    }""")
    bid_round, bemo = said["bg"]
    assert "Договорът на отбора" in bid_round and "в договора на отбора то се брои" in bemo, bemo
    assert "Всеки отбор има само едно Bemo: щом единият партньор го обяви" in bemo, bemo
    bid_round, bemo = said["ar"]
    assert "وعقد الفريق" in bid_round and "ويُحسب في عقد الفريق" in bemo, bemo
    context.close()


def test_duel_log_lines_begin_with_a_capital(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The engine's log templates begin in lower case ("turn 2: player …", "chain
    link 1 resolves"; the records keep them): the page begins each line with a
    capital letter in English, Russian and Bulgarian; a line that begins with a
    player's name keeps the name as its player wrote it ("ann"); Arabic, which
    has no capitals, reads as its strings are written."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    seated_at_a_duel_against_greedy(page, server.url, 7, name="ann")
    page.click("#start-btn")
    page.wait_for_selector("#duel:not([hidden])")
    ygo_play_moves(page, 8)                   # two turns: "turn …" lines, mine and the bot's
    turn = {"en": "Turn ", "ru": "Ход ", "bg": "Ход ", "ar": "الدور "}
    yours = {"en": "Your Asura Priest is turned", "bg": "Вашата Asura Priest е обърната"}  # ygo.logYours
    for lang in ("en", "ru", "bg", "ar"):
        in_language(page, lang)
        lines = [line.strip() for line in page.locator("#duel-log li").all_inner_texts()]
        mine = [line for line in lines if line.startswith("ann")]
        others = [line for line in lines if not line.startswith("ann")]
        assert mine, (lang, lines)                                    # "ann (you) draws a card" as written
        assert [line for line in others if line[0] != line[0].upper()] == [], (lang, lines)
        assert any(line.startswith(turn[lang]) for line in others), (lang, lines)
        assert lang not in yours or any(line.startswith(yours[lang]) for line in others), (lang, lines)
    assert page.errors == []
    context.close()
