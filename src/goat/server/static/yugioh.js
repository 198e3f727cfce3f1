// The Yu-Gi-Oh! duel page: its own renderer, not the trick table's. It draws
// only what the seat's view holds (both fields, LP, my hand, the other hand as
// backs, piles and their counts, the chain, turn and phase, the pending
// decision, the duel log, the match score and result) and offers exactly the
// legal actions the server sent — it never decides what is legal.
//
// The legal actions are grouped by verb (summon, set, activate, attack, ...).
// A click on a card — in my hand, or on either field — narrows the list to the
// actions that name it (a hand card by its name, a field card by its place,
// "@1M3"); "Show all" and the filter box keep the whole list reachable (the
// side-decking decision offers hundreds of swaps). Cards and actions are
// buttons: Tab reaches them, Enter or Space uses them.
//
// Every card whose name the view gives (my hand, face-up cards, my own Set
// cards, piles, the chain) is decorated from the public card catalog
// (ygocards.js): its kind, Level and printed ATK/DEF, and a detail panel with
// the effect text on hover, focus or click. Side-decking between duels has a
// picker: a main deck card, then a side deck card, or Done — both lists read
// from the legal swaps' texts; the whole list of swaps stays behind the filter.

import { arrow, capitalised, lang, listOf, t } from "./i18n.js";
import { $, S, botLabel, button, drawResultOpener, el, focusLost, keepArriving, named, offlineNote, oneImage, sayStatus,
  seatName, showResult, toast, turnName } from "./table.js";
import { drawRematch } from "./rematch.js";
import { describe, fill, info, kindName, levelLine, loadCatalog, pinDetail, printedStats,
         quietDetail, refreshDetail, spoken, watchDetails } from "./ygocards.js";

const VERB_ORDER = ["choose", "summon", "set", "special", "flip", "position", "activate", "attack", "phase",
                    "pass", "done", "swap"];
const PLACE = /@([01])([MS])(\d)/g;
const SWAP = /^(\d) swap (.+) \/ (.+)$/;
/** The engine's choices that are words, not card labels ("0 choose first"; "deck" and
 * "graveyard": where Mystic Swordsman LV6 sends the monster it destroys). */
const CHOICES = ["first", "second", "attack", "defense", "deck", "graveyard"];

/** "0 summon Sangan" -> {seat, verb, args, text}. */
function parse(text) {
  const [seat, verb, ...rest] = text.split(" ");
  return { seat: Number(seat), verb, args: rest.join(" "), text };
}

function mySeat() {
  return S.seat === null ? 0 : S.seat;
}

/** A card label of the engine ("Sangan@0M2", "face-down@1S3", "Yami@0S6") for people:
 * "Sangan (M2)", "face-down (opponent's S3)". */
function pretty(args) {
  return args
    .replace(/face-down@/g, `${t("ygo.faceDownCard")}@`)
    .replace(PLACE, (_, seat, zone, slot) => {
      const where = zone === "S" && slot === "6" ? t("ygo.fieldZone") : `${zone}${slot}`;
      return Number(seat) === mySeat() ? ` (${where})` : ` (${t("ygo.theirs", { where })})`;
    })
    .replace(/ -> direct$/, ` ${arrow()} ${t("ygo.direct")}`)
    .replace(/ -> /g, ` ${arrow()} `)
    .replace(/ \/ /g, " ⇄ ");
}

function verbName(verb) {
  return named("ygo.verbs", verb);
}

/** What an action names after its verb, for people: a card label in words, or one
 * of the choices that name no card (go first or second, attack or defense position,
 * a Type declared for Tribe-Infecting Virus: worded as the card details and the log
 * word Types, so the Russian page offers "Заклинатель", not "Spellcaster"), and
 * which of a card's effects. */
function argsLabel(a) {
  if (a.verb === "phase") return phaseName(a.args);
  if (a.verb === "choose" && CHOICES.includes(a.args)) return named("ygo.choices", a.args);
  if (a.verb === "choose" && !a.args.includes("@")) return named("ygo.races", a.args);  // a card name stays as printed
  // One of a card's effects, named after its place ("...@0M1 attack twice"): the
  // effect's word as the log words it (ygo.labels), not the engine's English.
  const effect = a.verb === "activate" && /^(.*@[01][MS]\d) (.+)$/.exec(a.args);
  if (effect) return `${pretty(effect[1])} ${named("ygo.labels", effect[2])}`;
  return a.args ? pretty(a.args) : verbName(a.verb);
}

function phaseName(phase) {
  return phase ? named("ygo.phases", phase) : "";
}

/** "battle", "damage", "calc" (the view's phase, step and substep; the later ones may be missing) for people. */
function whereName(phase, step, substep) {
  return [phaseName(phase), ...(step ? [named("ygo.steps", step)] : []),
          ...(substep ? [named("ygo.substeps", substep)] : [])].join(" · ");
}

// How the arguments of a prompt or a log line are worded: phase and step
// names, attributes, what just happened, positions, Types, where a card came
// from, why it moved and why a duel ended are translated; card labels get
// their zone in words; seats are the players' names as the table shows them;
// numbers and card names (as printed) are not translated.
const SAY_ARGS = {
  seat: seatName,
  where: (where) => whereName(...where),
  events: (events) => listOf([...new Set(events)].map((e) => named("ygo.events", e))),
  phase: phaseName,
  attribute: (attribute) => named("ygo.attributes", attribute),
  position: (position) => named("ygo.positions", position),
  race: (race) => named("ygo.races", race),
  zone: (zone) => named("ygo.fromZones", zone),
  label: (label) => named("ygo.labels", label),
  end: (end) => named("ygo.reasons", end),
  target: pretty,
  reason: (reason) => sayText("ygo.causes", reason, reason.args?.card ?? reason.args?.text ?? reason.key),
};

/** The text of a key and its arguments (`say`, see goat/games/yugioh/prompts.py)
 * from the strings' `group` in the page's language; `fallback` (the engine's
 * English) when the strings have no such key (a newer server). */
function sayText(group, say, fallback) {
  const key = say && `${group}.${say.key}`;
  if (!key || typeof t(key) !== "string" || t(key) === key) return fallback;
  const args = {};
  for (const [name, value] of Object.entries(say.args || {})) {
    args[name] = name in SAY_ARGS ? SAY_ARGS[name](value) : value;
  }
  return t(key, args);
}

/** A decision's prompt in the page's language. */
function promptText(d) {
  return sayText("ygo.prompts", d.say, d.prompt);
}

/** A duel log line (`{text, say}`) in the page's language. A line that names
 * a card's owner in brackets ("Sangan (Аня) is destroyed") has its own wording
 * for the owner (`ygo.logYours`: "your Sangan is destroyed"), not the seat's
 * name with its "(you)" nested in the brackets. A line begins with a capital
 * letter ("Chain link 1 resolves": the engine's templates, which the records
 * keep, begin in lower case) unless it begins with a name, a player's as they
 * wrote it ("ann draws a card") or a card's as printed. */
function logText(entry) {
  const say = entry.say;
  const mine = say && S.seat !== null && S.seat !== undefined && say.args?.seat === S.seat
    && sayText("ygo.logYours", say, null) !== null;
  const group = mine ? "ygo.logYours" : "ygo.log";
  const text = sayText(group, say, entry.text);
  const wording = say ? t(`${group}.${say.key}`) : "";
  return typeof wording === "string" && wording.startsWith("{") ? text : capitalised(text);
}

// --------------------------------------------------------------- skeleton
function skeleton() {
  if ($("#duel")) return $("#duel");
  const page = el("section", "page duel");
  page.id = "duel";
  page.hidden = true;
  page.innerHTML = `
    <div class="duel-board">
      <div class="duel-player" data-side="top"></div>
      <div class="duel-middle">
        <div id="duel-turn" class="duel-turn"></div>
        <div id="duel-chain" class="duel-chain" aria-live="polite"></div>
      </div>
      <div class="duel-player" data-side="bottom"></div>
      <p id="duel-status" class="status" role="status" aria-live="polite"></p>
      <button id="duel-result-open" type="button" hidden></button>
      <div id="duel-hand" class="duel-hand" role="group"></div>
      <div id="duel-actions" class="duel-actions" role="region" hidden>
        <div class="row duel-filter">
          <span id="duel-filter-label" class="hint"></span>
          <button id="duel-show-all" type="button" hidden></button>
          <input id="duel-search" type="search">
        </div>
        <div id="duel-card-info" class="card-info" hidden></div>
        <div id="duel-groups"></div>
      </div>
    </div>
    <div class="side">
      <div class="panel sheet-panel">
        <h2 id="duel-score-title" tabindex="-1"></h2>
        <div id="duel-score"></div>
        <p class="sheet-links" data-sheet-links></p>
      </div>
      <div class="panel">
        <h2 id="duel-pile-title"></h2>
        <div id="duel-pile"></div>
      </div>
      <div class="panel">
        <h2 id="duel-log-title"></h2>
        <ol id="duel-log" class="log" aria-live="polite" aria-relevant="additions" tabindex="0"
            aria-labelledby="duel-log-title"></ol>
      </div>
    </div>
    <div id="duel-result" class="result" role="alertdialog" aria-modal="false" aria-labelledby="duel-result-title"
         aria-describedby="duel-result-text" tabindex="-1" hidden>
      <h2 id="duel-result-title"></h2>
      <p id="duel-result-text"></p>
      <div class="row">
        <span id="duel-rematch" class="rematch" hidden></span>
        <a id="duel-record" class="button" download></a>
        <a id="duel-new" class="button" href="/"></a>
        <button id="duel-result-close" type="button"></button>
      </div>
    </div>`;
  $("main").append(page);
  $("#duel-show-all").addEventListener("click", () => { S.duel.filter = null; redraw(); });
  $("#duel-search").addEventListener("input", () => { S.duel.search = $("#duel-search").value; drawActions(); });
  $("#duel-result-close").addEventListener("click", () => {
    S.duel.resultClosed = true;
    drawResult(S.msg.view);              // hides the box, shows the button that brings it back
    $("#duel-score-title").focus();      // not lost to the page: the match's score is next
  });
  return page;
}

let sendAction = null;
let redraw = () => {};

// ------------------------------------------------------------------ cards
/** A card's name on its card. A name as printed (`printed`) is English, marked
 * so: a browser that hyphenates English breaks a word too long for a phone's
 * ~44px field zone at a hyphen ("Noble-man"; style.css ends it in "…" where it
 * cannot), whatever the page's language. `dir` auto keeps an English name left
 * to right on the Arabic page, so that it is cut at its end, not its start. */
function nameOf(text, printed = true) {
  const name = el("span", "yname", text);
  if (printed) name.lang = "en";
  name.dir = "auto";
  return name;
}

/** A field card: a back for a card I may not see, else its name, ATK/DEF and
 * position; my own Set cards are marked "set". `place` is its label suffix ("@0M2"). */
function fieldCard(card, place, zone) {
  const b = el("button", `ycard zone-${zone}`);
  b.type = "button";
  b.dataset.place = place;
  if (!card) {
    b.classList.add("empty");
    b.disabled = true;
    b.setAttribute("aria-label", t("ygo.emptyZone", { where: place.slice(2) }));
    return b;
  }
  const hidden = card.name === "?";
  b.classList.toggle("back", hidden);
  b.classList.toggle("set", !card.face_up && !hidden);
  if (card.position) b.classList.add(`pos-${card.position}`);
  const parts = [];
  if (hidden) {
    b.append(nameOf(t("ygo.faceDown"), false));
    parts.push(t("ygo.faceDown"));
  } else {
    b.dataset.name = card.name;
    describe(b, card.name);
    b.append(nameOf(card.name));
    parts.push(card.name);
    if (!card.face_up) {
      b.append(el("span", "ytag set-tag", t("ygo.set")));
      parts.push(t("ygo.set").replace(/\u00ad/g, ""));   // the label is read, not wrapped
    }
  }
  const entry = hidden ? null : info(card.name);
  if (entry && entry.kind === "monster") {
    b.append(el("span", "ytag ylevel", `★${entry.level}`));
  } else if (entry) {
    b.append(el("span", "ytag ykind", kindName(entry)));
  }
  if (entry) parts.push(spoken(entry, false));
  if (card.atk !== undefined) {
    const stats = `${card.atk} / ${card.def}`;
    b.append(el("span", "ystats", stats));
    parts.push(`${t("ygo.atk")} ${card.atk}, ${t("ygo.def")} ${card.def}`);
  } else if (entry && entry.kind === "monster") {   // my own Set monster: its printed ATK/DEF
    b.append(el("span", "ystats printed", printedStats(entry)));
    parts.push(`${t("ygo.atk")} ${entry.atk}, ${t("ygo.def")} ${entry.def}`);
  }
  if (card.position) {
    b.append(el("span", "ytag", t(`ygo.${card.position}`)));
    parts.push(t(`ygo.${card.position}`));
  }
  if (card.counters) parts.push(t("ygo.counters", { n: card.counters }));
  if (card.equipped_to) {
    b.append(el("span", "ytag", `${arrow()} ${pretty(card.equipped_to)}`));
    parts.push(`${t("ygo.equippedTo")} ${pretty(card.equipped_to)}`);
  }
  b.setAttribute("aria-label", `${place.slice(2)}: ${parts.join(", ")}`);
  b.addEventListener("click", () => narrow({ kind: "place", key: place, name: hidden ? null : card.name,
                                              label: hidden ? `${t("ygo.faceDown")} ${place.slice(2)}` : card.name }, b));
  return b;
}

function pileButton(label, count, list, key) {
  const b = el("button", "pile", `${label}: ${count}`);
  b.type = "button";
  b.dataset.pile = key;
  if (list) b.addEventListener("click", () => { S.duel.pile = { key, label, list }; drawPile(); });
  else b.disabled = true;
  return b;
}

function drawPlayer(v, seat, box) {
  const p = v.players[seat];
  const mine = seat === S.seat;
  box.innerHTML = "";
  box.dataset.seat = seat;
  box.classList.toggle("me", mine);
  // A match over is nobody's turn, nor is the time between duels (side-decking,
  // going first or second), though the board still shows how the last duel ended.
  const between = (v.duel_results || []).length >= v.duel_number;
  const turn = v.turn_player === seat && !v.match_over && !between;
  box.classList.toggle("turn", turn);
  const head = el("div", "duel-head");
  head.append(turnName("span", turn, seatName(seat)));
  const lp = el("span", "lp", `${t("ygo.lp")} ${p.lp}`);
  lp.dataset.lp = String(p.lp);
  const before = S.duel.lp[seat];
  if (before !== undefined && before !== p.lp) {
    S.duel.delta[seat] = p.lp - before;
  }
  S.duel.lp[seat] = p.lp;
  head.append(lp);
  const delta = S.duel.delta[seat];
  if (delta) {
    const d = el("span", `lp-delta ${delta < 0 ? "down" : "up"}`, delta < 0 ? `−${-delta}` : `+${delta}`);
    d.title = t("ygo.lpChange");
    head.append(d);
  }
  const info = S.msg.seats[seat];
  if (info.kind === "bot") head.append(el("span", "badge", botLabel(S.msg, info.bot)));
  if (info.autoplay) head.append(el("span", "badge", t("away")));
  box.append(head);

  const piles = el("div", "piles");
  piles.append(pileButton(t("ygo.deck"), p.deck_count, null, `deck${seat}`));
  piles.append(pileButton(t("ygo.gy"), p.gy.length, p.gy, `gy${seat}`));
  piles.append(pileButton(t("ygo.banished"), p.banished.length, p.banished, `banished${seat}`));
  piles.append(pileButton(t("ygo.fusion"), p.fusion_count, p.fusion, `fusion${seat}`));
  if (mine && v.my_deck) {
    piles.append(pileButton(t("ygo.deckList"), `${v.my_deck.main_count} + ${v.my_deck.side.length}`, [],
                            `decklist${seat}`));
  } else if (!mine && v.decklists?.[seat]) {     // open deck lists: the other's list as brought
    const brought = v.decklists[seat];
    piles.append(pileButton(t("ygo.theirDeckList"), `${brought.main.length} + ${brought.side.length}`, [],
                            `decklist${seat}`));
  }
  if (!mine) {
    const hand = el("div", "opp-hand");
    hand.title = t("ygo.handCount", { n: p.hand_count });
    for (let i = 0; i < p.hand_count; i += 1) hand.append(el("span", "ycard back small"));
    hand.append(el("span", "hint", String(p.hand_count)));
    piles.append(oneImage(hand, t("ygo.handCount", { n: p.hand_count })));   // a name on a bare div is not read
  }

  const monsters = el("div", "zone-row monsters");
  monsters.setAttribute("role", "group");
  monsters.setAttribute("aria-label", t("ygo.monsterZones", { name: seatName(seat) }));
  p.monsters.forEach((c, i) => monsters.append(fieldCard(c, `@${seat}M${i + 1}`, "monster")));
  const spells = el("div", "zone-row spells");
  spells.setAttribute("role", "group");
  spells.setAttribute("aria-label", t("ygo.spellZones", { name: seatName(seat) }));
  p.spells.slice(0, 5).forEach((c, i) => spells.append(fieldCard(c, `@${seat}S${i + 1}`, "spell")));
  if (p.spells.length > 5) {
    const field = fieldCard(p.spells[5], `@${seat}S6`, "field");
    field.title = t("ygo.fieldZone");
    spells.append(field);
  }
  // my monsters face the middle: the opponent's rows are drawn spells first
  if (box.dataset.side === "top") box.append(piles, spells, monsters);
  else box.append(monsters, spells, piles);
}

function drawHand(v) {
  const hand = $("#duel-hand");
  hand.innerHTML = "";
  const p = v.players?.[S.seat];
  hand.hidden = S.seat === null || !p;
  if (hand.hidden) return;
  hand.setAttribute("aria-label", t("yourHand"));
  const legal = v.legal_actions || [];
  p.hand.forEach((name) => {
    const b = el("button", "ycard in-hand");
    b.type = "button";
    b.dataset.name = name;
    describe(b, name);
    b.append(nameOf(name));
    const entry = info(name);
    if (entry) {
      b.classList.add(`kind-${entry.kind}`);
      b.append(el("span", "ytag ykind", kindName(entry)));
      if (entry.kind === "monster") {
        b.append(el("span", "ytag ylevel", levelLine(entry)));
        b.append(el("span", "ystats", printedStats(entry)));
      }
    }
    // (a side-deck swap names cards of the Deck, not this hand's)
    const n = legal.filter((a) => parse(a).verb !== "swap" && namesHandCard(a, name)).length;
    b.dataset.actions = String(n);
    b.classList.toggle("usable", n > 0);
    const label = entry ? `${name}, ${spoken(entry)}` : name;
    b.setAttribute("aria-label", n ? `${label} — ${t("ygo.nActions", { n })}` : label);
    b.addEventListener("click", () => narrow({ kind: "name", key: name, name, label: name }, b));
    hand.append(b);
  });
}

// ---------------------------------------------------------------- actions
function namesHandCard(text, name) {
  const args = parse(text).args;
  let at = args.indexOf(name);
  while (at >= 0) {
    const after = args[at + name.length];
    const before = at === 0 ? " " : args[at - 1];
    if ((after === undefined || after === " ") && before === " ") return true;
    at = args.indexOf(name, at + 1);
  }
  return false;
}

function matches(text, filter) {
  if (!filter) return true;
  if (filter.kind === "place") return new RegExp(`${filter.key}(?!\\d)`).test(text);
  return namesHandCard(text, filter.key);
}

/** A click on a card: narrow the actions to it (its details then head the
 * actions box), or — with no action for it now — say so and pin its details. */
function narrow(filter, anchor) {
  const legal = S.seat === null ? [] : S.msg.view.legal_actions || [];
  if (!legal.length) {
    S.duel.pile = null;
    toast(`${filter.label}: ${t("ygo.notYourDecision")}`);
    pinDetail(anchor);
    return;
  }
  if (!legal.some((a) => matches(a, filter))) {
    toast(`${filter.label}: ${t("ygo.noActionFor")}`);
    pinDetail(anchor);
    return;
  }
  quietDetail(anchor);
  S.duel.filter = filter;
  drawActions();
  const first = document.querySelector("#duel-groups button");
  if (first) first.focus();
}

function drawActions() {
  const v = S.msg.view;
  const legal = S.seat === null ? [] : v.legal_actions || [];
  const box = $("#duel-actions");
  box.hidden = !legal.length;
  box.setAttribute("aria-label", t("ygo.actions"));
  if (!legal.length) {
    S.duel.filter = null;
    $("#duel-groups").innerHTML = "";
    return;
  }
  if (S.duel.filter && !legal.some((a) => matches(a, S.duel.filter))) S.duel.filter = null;
  const filter = S.duel.filter;
  const search = (S.duel.search || "").trim().toLowerCase();
  const shown = legal.filter((a) => matches(a, filter) && (!search || a.toLowerCase().includes(search)
                                                             || pretty(parse(a).args).toLowerCase().includes(search)));
  $("#duel-filter-label").textContent = filter
    ? t("ygo.actionsFor", { card: filter.label, n: shown.length, all: legal.length })
    : t("ygo.allActions", { n: legal.length });
  const cardBox = $("#duel-card-info");
  cardBox.hidden = !filter?.name;
  if (filter?.name) fill(cardBox, filter.name);
  const all = $("#duel-show-all");
  all.hidden = !filter;
  all.textContent = t("ygo.showAll");
  const searchBox = $("#duel-search");
  searchBox.placeholder = t("ygo.search");
  searchBox.setAttribute("aria-label", t("ygo.search"));
  searchBox.hidden = legal.length < 12;
  // Side-decking: the picker instead of hundreds of swap buttons; the swaps
  // themselves stay listed once the filter box is used or "all swaps" is asked.
  const swaps = legal.filter((a) => SWAP.test(a));
  const picker = swaps.length ? sidePicker(v, legal, swaps) : null;
  const listSwaps = !picker || search || S.duel.allSwaps;
  const groups = new Map();
  for (const text of shown) {
    const a = parse(text);
    if (picker && (a.verb === "done" || (a.verb === "swap" && !listSwaps))) continue;   // the picker has them
    if (!groups.has(a.verb)) groups.set(a.verb, []);
    groups.get(a.verb).push(a);
  }
  const order = [...groups.keys()].sort((x, y) => VERB_ORDER.indexOf(x) - VERB_ORDER.indexOf(y));
  const out = document.createDocumentFragment();
  if (picker) out.append(picker);
  for (const verb of order) {
    const group = el("div", `verb-group verb-${verb}`);
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", verbName(verb));
    group.dataset.verb = verb;
    group.append(el("h3", "", verbName(verb)));
    const row = el("div", "verb-buttons");
    for (const a of groups.get(verb)) {
      const label = argsLabel(a);
      const b = button(label, `act verb-${verb}`, () => sendAction(a.text));
      b.dataset.action = a.text;
      b.disabled = S.pending;
      b.setAttribute("aria-label", `${verbName(verb)}: ${label}`);
      row.append(b);
    }
    group.append(row);
    out.append(group);
  }
  $("#duel-groups").replaceChildren(out);
}

// ------------------------------------------------------------ side-decking
/** The side-deck picker: my main deck's cards (those a legal swap takes out),
 * then my side deck's (those a legal swap with the chosen one puts in), Done,
 * and "all swaps" for the full list. Nothing is decided here: each button
 * sends one of the legal actions' texts as it is. */
function sidePicker(v, legal, swaps) {
  const pairs = swaps.map((text) => {
    const [, , out, into] = SWAP.exec(text);
    return { text, out, into };
  });
  const outs = new Set(pairs.map((p) => p.out));
  if (S.duel.sideOut && !outs.has(S.duel.sideOut)) S.duel.sideOut = null;
  const chosen = S.duel.sideOut;
  const lists = deckLists(v, S.seat) || { main: [], side: v.my_deck?.side || [] };
  // the main list: my whole main deck when the view tells it, else the names the swaps take out
  const main = lists.main.length ? lists.main : [...outs];
  const box = el("div", "side-picker");
  box.id = "duel-side";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("ygo.sidePicker"));
  box.append(el("p", "hint", chosen ? t("ygo.sidePickIn", { card: chosen }) : t("ygo.sidePickOut")));
  const cols = el("div", "side-cols");

  const mainCol = el("div", "side-col");
  mainCol.setAttribute("role", "group");
  const mainTitle = t("ygo.mainDeck", { n: lists.mainCount ?? main.length });
  mainCol.setAttribute("aria-label", mainTitle);
  mainCol.append(el("h3", "", mainTitle));
  const mainRow = el("div", "side-list");
  mainRow.dataset.deck = "main";
  for (const [name, n] of counted(main)) {
    const b = button(`${n}× ${name}`, "side-card", () => {
      S.duel.sideOut = S.duel.sideOut === name ? null : name;
      drawActions();
      const next = document.querySelector('#duel-side [data-deck="side"] button:not([disabled])')
        || document.querySelector(`#duel-side [data-deck="main"] button[data-card="${CSS.escape(name)}"]`);
      if (next) next.focus();
    });
    b.dataset.card = name;
    b.dataset.count = String(n);
    describe(b, name);
    b.disabled = S.pending || !outs.has(name);
    b.setAttribute("aria-pressed", String(chosen === name));
    mainRow.append(b);
  }
  mainCol.append(mainRow);

  const sideCol = el("div", "side-col");
  sideCol.setAttribute("role", "group");
  const sideTitle = t("ygo.sideDeck", { n: lists.side.length });
  sideCol.setAttribute("aria-label", sideTitle);
  sideCol.append(el("h3", "", sideTitle));
  const sideRow = el("div", "side-list");
  sideRow.dataset.deck = "side";
  for (const [name, n] of counted(lists.side)) {
    const pair = chosen ? pairs.find((p) => p.out === chosen && p.into === name) : null;
    const b = button(`${n}× ${name}`, "side-card", () => {
      if (!pair) return;
      S.duel.sideOut = null;
      sendAction(pair.text);
    });
    b.dataset.card = name;
    b.dataset.count = String(n);
    describe(b, name);
    if (pair) {
      b.dataset.action = pair.text;
      b.setAttribute("aria-label", `${verbName("swap")}: ${pretty(parse(pair.text).args)}`);
    }
    b.disabled = S.pending || !pair;
    sideRow.append(b);
  }
  sideCol.append(sideRow);
  cols.append(mainCol, sideCol);
  box.append(cols);

  const row = el("div", "row");
  const done = legal.find((a) => parse(a).verb === "done");
  if (done) {
    const b = button(t("ygo.sideDone"), "primary side-done", () => { S.duel.sideOut = null; sendAction(done); });
    b.dataset.action = done;
    b.disabled = S.pending;
    row.append(b);
  }
  const all = button(S.duel.allSwaps ? t("ygo.hideSwaps") : t("ygo.allSwaps", { n: swaps.length }), "side-all", () => {
    S.duel.allSwaps = !S.duel.allSwaps;
    drawActions();
    $("#duel-side .side-all")?.focus();
  });
  all.setAttribute("aria-expanded", String(Boolean(S.duel.allSwaps)));
  row.append(all);
  box.append(row);
  return box;
}

// ------------------------------------------------------------ the rest
/** The duel the screen is about: the view's `duel_number` (the duel in play, or between
 * duels the last one, whose board is still shown), but duel 1 before the match's first
 * duel starts, where the view counts 0 finished duels and the question on screen is
 * "duel 1: go first or second?" — there is no duel 0 to name. */
function duelShown(v) {
  return Math.max(v.duel_number, 1);
}

function drawTurn(v) {
  const box = $("#duel-turn");
  box.innerHTML = "";
  box.append(el("span", "duel-no", t("ygo.duelNo", { n: duelShown(v), a: v.wins[0], b: v.wins[1] })));
  if (v.turn !== undefined) {
    box.append(el("span", "turn-no", t("ygo.turn", { n: v.turn, name: seatName(v.turn_player) })));
    const phase = el("span", "phase", whereName(v.phase, v.step, v.substep));
    phase.id = "duel-phase";
    phase.dataset.phase = v.phase || "";
    box.append(phase);
  }
  const chain = $("#duel-chain");
  chain.innerHTML = "";
  if (v.chain && v.chain.length) {
    chain.append(el("span", "chain-title", t("ygo.chain")));
    const list = el("ol", "chain-links");
    for (const link of v.chain) list.append(infoItem(`${link.card} (${seatName(link.seat)})`, link.card));
    chain.append(list);
  }
}

function drawStatus(v) {
  const status = $("#duel-status");
  let text;
  const d = v.decision;
  const mine = d && S.seat !== null && d.seat === S.seat && (v.legal_actions || []).length;
  if (v.match_over) text = t("matchOver");
  else if (!d) text = t("ygo.shuffling");
  else if (mine) text = t("ygo.yourDecision", { prompt: promptText(d) });
  else text = t("ygo.waiting", { name: seatName(d.seat), prompt: promptText(d) }) + offlineNote(d.seat);
  sayStatus(status, Boolean(mine) || v.match_over, text);
  status.classList.toggle("my-turn", Boolean(mine) && !v.match_over);
}

function drawPile() {
  const box = $("#duel-pile");
  const pile = S.duel.pile;
  $("#duel-pile-title").textContent = pile ? pile.label : t("ygo.piles");
  box.innerHTML = "";
  if (!pile) {
    box.append(el("p", "hint", t("ygo.pileHint")));
    return;
  }
  const v = S.msg.view;
  const seat = Number(pile.key.slice(-1));
  const kind = pile.key.slice(0, -1);
  if (kind === "decklist") {
    $("#duel-pile-title").textContent = t(seat === S.seat ? "ygo.deckList" : "ygo.theirDeckList");
  }
  const list = kind === "gy" ? v.players?.[seat]?.gy : kind === "banished" ? v.players?.[seat]?.banished
    : v.players?.[seat]?.fusion;
  box.append(el("p", "hint", seatName(seat)));
  if (kind === "decklist") {
    const lists = deckLists(v, seat);
    if (!lists) return;
    if (lists.asBrought) box.append(el("p", "hint", t("ygo.asBrought")));
    box.append(deckBlock(t("ygo.mainDeck", { n: lists.main.length }), lists.main, "main"));
    if (lists.fusion) box.append(deckBlock(t("ygo.fusionDeck", { n: lists.fusion.length }), lists.fusion, "fusion"));
    box.append(deckBlock(t("ygo.sideDeck", { n: lists.side.length }), lists.side, "side"));
    return;
  }
  const ul = el("ul", "pile-list");
  for (const name of list || []) ul.append(infoItem(name, name));
  if (!(list || []).length) ul.append(el("li", "hint", t("ygo.emptyPile")));
  box.append(ul);
}

/** A list item that names a card: focusable, so the keyboard reaches its details. */
function infoItem(text, name) {
  const li = el("li", "", text);
  if (name && name !== "?") {
    li.tabIndex = 0;
    describe(li, name);
  }
  return li;
}

/** Names with their counts, in first-seen order: [["Sangan", 1], ...]. */
function counted(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return [...counts.entries()];
}

/** One of my deck's lists as "2× Name" items. */
function deckBlock(title, names, key) {
  const block = el("div", `deck-block deck-${key}`);
  block.append(el("h3", "", title));
  const ul = el("ul", "pile-list");
  ul.dataset.deck = key;
  for (const [name, n] of counted(names)) {
    const li = infoItem(`${n}× ${name}`, name);
    li.dataset.card = name;
    li.dataset.count = String(n);
    ul.append(li);
  }
  if (!names.length) ul.append(el("li", "hint", t("ygo.emptyPile")));
  block.append(ul);
  return block;
}

/** My current main and side deck: the side list is the view's my_deck; the main
 * one is what I brought (decklists) with the side-decking swaps undone, since a
 * swap only trades cards between the two (the view gives the main deck's count).
 * The other seat's list only at a table with open deck lists, as it was brought. */
function deckLists(v, seat) {
  const mine = v.my_deck;
  const brought = v.decklists?.[seat];
  if (seat !== S.seat) {    // the other's list, only with open deck lists: as brought (side-decking is private)
    return brought ? { main: [...brought.main], fusion: [...brought.fusion], side: [...brought.side],
                       asBrought: true } : null;
  }
  if (!mine) return null;
  const side = [...mine.side];
  let main = [];
  if (brought) {
    const pool = [...brought.main, ...brought.side];
    for (const name of side) {
      const at = pool.indexOf(name);
      if (at >= 0) pool.splice(at, 1);
    }
    main = pool;
  }
  if (main.length !== mine.main_count) main = [];      // cannot tell: show the count only
  return { main, side, mainCount: mine.main_count };
}

function drawScore(v) {
  $("#duel-score-title").textContent = t("ygo.match");
  const box = $("#duel-score");
  box.innerHTML = "";
  const tbl = el("table", "score");
  const head = el("tr");
  head.append(el("th", "", t("ygo.duel")));
  for (const s of [0, 1]) head.append(el("th", "", seatName(s)));
  tbl.append(head);
  v.duel_results.forEach((r, i) => {
    const tr = el("tr", "duel-row");
    tr.append(el("th", "", String(i + 1)));
    for (const s of [0, 1]) {
      const won = r.winner === s;
      tr.append(el("td", won ? "won" : "", `${won ? "★ " : ""}${t("ygo.lp")} ${r.lp[s]}`));
    }
    tr.title = `${named("ygo.reasons", r.reason)}, ${t("ygo.turns", { n: r.turns })}`;
    tbl.append(tr);
  });
  const foot = el("tr", "total");
  foot.append(el("th", "", t("ygo.wins")));
  for (const s of [0, 1]) foot.append(el("td", "", String(v.wins[s])));
  tbl.append(foot);
  box.append(tbl);
}

function drawLog(v) {
  $("#duel-log-title").textContent = t("log");
  const log = $("#duel-log");
  const lines = v.log || [];
  const key = `${v.duel_number}/${lang()}`;
  if (S.duel.logKey !== key || lines.length < S.duel.logCount) {
    log.innerHTML = "";
    S.duel.logKey = key;
    S.duel.logCount = 0;
    log.append(el("li", "log-head", t("ygo.duelStart", { n: duelShown(v) })));
  }
  for (let i = S.duel.logCount; i < lines.length; i += 1) log.append(el("li", "", logText(lines[i])));
  S.duel.logCount = lines.length;
  while (log.children.length > 400) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function drawResult(v) {
  const box = $("#duel-result");
  const opener = $("#duel-result-open");
  drawResultOpener(opener, Boolean(v.match_over && S.duel.resultClosed), () => {
    S.duel.resultClosed = false;
    drawResult(S.msg.view);
  });
  showResult(box, v.match_over && !S.duel.resultClosed, "#duel-actions, #duel-hand");
  if (!v.match_over) return;
  $("#duel-result-title").textContent = t("matchOver");
  const last = v.duel_results[v.duel_results.length - 1];
  const winner = v.wins[0] === v.wins[1] ? null : v.wins[0] > v.wins[1] ? 0 : 1;
  const parts = [];
  if (S.seat !== null && winner !== null) parts.push(winner === S.seat ? t("ygo.youWon") : t("ygo.youLost"));
  parts.push(winner === null ? t("ygo.drawnMatch") : t("ygo.winnerIs", { name: seatName(winner), a: v.wins[winner],
                                                                           b: v.wins[1 - winner] }));
  if (last) parts.push(`(${named("ygo.reasons", last.reason)})`);
  $("#duel-result-text").textContent = parts.join(" ");
  $("#duel-record").textContent = t("downloadRecord");
  $("#duel-record").href = `api/tables/${S.tableId}/record`;
  $("#duel-new").textContent = t("newTable");
  $("#duel-result-close").textContent = t("close");
  drawRematch($("#duel-rematch"));
}

/** Draw the duel page from the last state message; `send` sends an action text. */
export function render(send, again) {
  sendAction = send;
  redraw = again;
  const page = skeleton();
  const m = S.msg;
  const v = m.view;
  if (!S.duel || S.duel.table !== S.tableId) {
    S.duel = { table: S.tableId, filter: null, search: "", pile: null, lp: {}, delta: {}, logKey: null, logCount: 0,
               resultClosed: false, version: -1, sideOut: null, allSwaps: false };
  }
  const sameState = S.duel.version === m.version;   // drawn again as it was: the catalog came, a hint, a refusal
  if (!sameState) {                              // a new state: the LP change shown is this version's
    S.duel.delta = {};
    S.duel.version = m.version;
  }
  page.hidden = false;
  document.body.dataset.game = "yugioh";
  watchDetails(page);
  loadCatalog(m.game || "yugioh", () => { if (S.msg?.game === "yugioh") again(); });
  const hadFocus = document.activeElement?.closest?.("#duel-actions, #duel-hand") ? document.activeElement : null;
  // A language switch redraws the same state: the keyboard stays on the hand card it was on
  // (and so its detail panel stays open, now in the new language).
  const relang = S.duel.lang !== undefined && S.duel.lang !== lang();
  S.duel.lang = lang();
  const handSlot = hadFocus?.parentElement?.id === "duel-hand"
    ? [...hadFocus.parentElement.children].indexOf(hadFocus) : -1;
  const me = mySeat();
  const top = page.querySelector('.duel-player[data-side="top"]');
  const bottom = page.querySelector('.duel-player[data-side="bottom"]');
  if (v.players) {
    drawPlayer(v, 1 - me, top);
    drawPlayer(v, me, bottom);
  } else {
    top.innerHTML = "";
    bottom.innerHTML = "";
  }
  drawTurn(v);
  drawStatus(v);
  drawHand(v);
  drawActions();
  drawScore(v);
  drawPile();
  drawLog(v);
  refreshDetail(page);
  if (hadFocus && !document.body.contains(hadFocus)) {
    // The same state drawn again (the card catalog arriving, a hint, a language switch) keeps the
    // keyboard on the control it was on, drawn anew: sent to the first decision, Enter made another
    // move than the one the player had chosen. A new state starts from its first decision.
    const redrawn = relang || sameState;
    const same = redrawn && handSlot >= 0 ? $("#duel-hand").children[handSlot] : null;
    const action = redrawn && hadFocus.dataset.action
      ? [...document.querySelectorAll("#duel-groups button[data-action]:not([disabled])")]
        .find((b) => b.dataset.action === hadFocus.dataset.action) : null;
    const next = action || (same?.dataset.name === hadFocus.dataset.name ? same : null) || firstControl();
    if (next) next.focus();
  } else if (S.arriving && S.seat !== null && focusLost()) {
    // arriving at the duel (the lobby's Start by the keyboard, a reload): the focus was
    // on the page or the hidden Start button; a keyboard player starts at the decision
    firstControl()?.focus();
  }
  // until something could take it: the first view may be the bot's, and my decision passing
  // to the other seat takes the actions away from under the keyboard until my next one
  keepArriving(hadFocus);
  drawResult(v);     // last: the result takes the focus from the play area
}

/** Where a keyboard player's focus goes when its place is gone: the first decision, else the hand. */
function firstControl() {
  return document.querySelector("#duel-groups button:not([disabled])") || document.querySelector("#duel-hand button");
}

/** An action as its button and group say it ("Activate: Graceful Charity", "Pass"). */
function sayAction(text) {
  const a = parse(text);
  return a.args ? `${verbName(a.verb)}: ${argsLabel(a)}` : verbName(a.verb);
}

export const yugioh = { name: "yugioh", render, sayAction };
