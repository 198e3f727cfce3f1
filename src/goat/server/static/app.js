// The browser table: lobby, seats, and the game drawn from this seat's view.
// Plain JavaScript modules, no build step. Everything the server says arrives
// on one WebSocket (see docs/server.md); the lobby uses the HTTP endpoints.
//
// One renderer for what every trick game has (seats, the trick, the hand and
// its keyboard, the last trick, the log, the result); each game's own panels
// (kozel.js, spades.js) draw the rest from its view. The page never decides
// what is legal: every control comes from the legal actions the server sent.
// A game may draw my own hand face down (game.handHidden: Spades before a blind
// bid, when the server sends no card of it); the cards are then card backs, as
// many as hand_sizes says, and the keyboard starts in the actions.
// A game that is not a trick game has a page of its own (RENDERERS: yugioh.js
// draws a duel), sharing the lobby, the connection and the helpers.

import { t, lang, listOf, setLang, markDocument, dir } from "./i18n.js";
import { cardBack, cardFace, cardName, cardsSaid, parseAction, SAID, SHOWN } from "./cards.js";
import { kozel } from "./kozel.js";
import { spades } from "./spades.js";
import { yugioh } from "./yugioh.js";
import { initReview, openReview, redrawReview, reviewOn } from "./review.js";
import { initOpenRecord, redrawOpenRecord } from "./openrecord.js";
import { claimSeat, drawClaim, drawRematch, keptSeat, noteRematch, tellRematch } from "./rematch.js";
import { chatNote, chosenChat, initChat, onChatMessage, placeChat } from "./chat.js";
import { drawHint, drawHintButton, drawHintMarks, initHints } from "./hints.js";
import { chosenSeconds, clockNote, drawClock, initClock } from "./clock.js";
import { initRules } from "./rules.js";
import { noteTurn } from "./notify.js";
import { drawSheetHead, drawSheetLinks, refreshFinished } from "./sheets.js";
import { initStandings, refreshStandings } from "./standings.js";
import { $, S, api, botAbout, botEntry, botLabel, button, drawResultOpener, el, focusLost, keepArriving, named,
  offlineNote, optionValue, playerName, posOf, refusal, refused,
  oneImage, online, savedSeat, saveSeat, sayStatus, seatName, showResult, spoken, toast, turnName } from "./table.js";

/** The games this page can draw; the lobby offers those of the server's catalog. */
const PANELS = { kozel, spades };
/** Games drawn by a page of their own instead of the trick table. */
const RENDERERS = { yugioh };

function panel() {
  return PANELS[S.msg?.game] || kozel;
}

// ------------------------------------------------------------------ helpers
function show(page) {
  for (const id of ["home", "lobby", "game", "duel"]) {
    const node = $(`#${id}`);
    if (node) node.hidden = id !== page;
  }
  reviewOn(page);    // the deal review is over one page (a finished table's, a record's on the home page)
}

function applyStatic() {
  markDocument();
  document.title = t("title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const b of document.querySelectorAll(".lang")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang()));
  $("#hand").setAttribute("aria-label", t("yourHand"));
  $("#trick").setAttribute("aria-label", t("trickArea"));
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
}

function banner(text) {
  const el = $("#banner");
  el.textContent = text || "";
  el.hidden = !text;
}

function forgetSeat(id) {
  localStorage.removeItem(`goat:token:${id}`);
}

function myName() {
  return (localStorage.getItem("goat:name") || "").trim();
}

let idCounter = 0;
function newId() {
  idCounter += 1;
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${idCounter}`;
}

// -------------------------------------------------------------------- home
async function showHome() {
  show("home");
  const nameInput = $("#create-name");
  nameInput.value = myName();
  try {
    S.catalog = S.catalog || (await api("GET", "api/games"));
  } catch (err) {
    toast(err.message);
    return;
  }
  fillGames();
  refreshTables();
  refreshFinished();
  refreshStandings();
}

/** The catalog's games this page can draw. */
function playableGames() {
  return S.catalog.games.filter((g) => g.name in PANELS || g.name in RENDERERS);
}

function chosenGame() {
  const games = playableGames();
  return games.find((g) => g.name === $("#create-game").value) || games[0];
}

function chosenRule() {
  const game = chosenGame();
  return game.rules.find((r) => r.name === $("#create-rules").value) || game.rules[0];
}

function fillGames() {
  const select = $("#create-game");
  const asked = new URLSearchParams(location.search).get("game");
  const chosen = select.value || asked || localStorage.getItem("goat:game") || "kozel";
  select.innerHTML = "";
  for (const g of playableGames()) select.add(new Option(named("games", g.name), g.name, false, g.name === chosen));
  fillRules();
}

function fillRules() {
  const game = chosenGame();
  const select = $("#create-rules");
  const chosen = select.value;
  select.innerHTML = "";
  const seen = new Set();
  for (const r of game.rules) {
    const same = JSON.stringify(r.options);     // an alias of an earlier preset ("spades" = "standard")
    if (seen.has(same)) continue;
    seen.add(same);
    select.add(new Option(named("rules", r.name), r.name, false, r.name === chosen));
  }
  fillPlayers();
}

function fillPlayers() {
  const rule = chosenRule();
  const select = $("#create-players");
  const chosen = Number(select.value);
  select.innerHTML = "";
  const keep = rule.players.includes(chosen) ? chosen : rule.default_players;
  for (const n of rule.players) select.add(new Option(String(n), String(n), false, n === keep));
  select.disabled = rule.players.length === 1;
  fillOptions();
}

function optionDefaults() {
  return chosenRule().options?.[$("#create-players").value] || {};
}

/** The option form of the chosen ruleset, built from the catalog: a checkbox for
 * true/false, a list for an option with choices, a number field for numbers
 * (empty: none, where the option may be none). Changes the player made stay
 * while the ruleset or the player count changes under them. */
function fillOptions() {
  const defaults = optionDefaults();
  const choices = chosenGame().choices || {};
  const list = $("#option-list");
  list.innerHTML = "";
  for (const [key, value] of Object.entries(defaults)) {
    const row = el("label", "option");
    row.dataset.option = key;
    const about = named("optTitle", key);                // a one-line explanation where there is one
    row.title = about === key ? key : `${about} (${key})`;
    row.append(el("span", "option-name", named("opt", key)));
    let input;
    if (typeof value === "boolean") {
      input = el("input");
      input.type = "checkbox";
    } else if (key in choices) {
      input = el("select");
      for (const c of choices[key]) input.add(new Option(named("choice", c), String(c)));
    } else if (typeof value === "number" || value === null) {
      input = el("input");
      input.type = "number";
      input.step = "1";
      if (value === null) input.placeholder = "—";
    } else {
      input = el("input");
    }
    input.name = `option-${key}`;
    const shown = key in S.optionEdits ? S.optionEdits[key] : value;
    if (input.type === "checkbox") input.checked = shown;
    else input.value = shown === null ? "" : String(shown);
    input.addEventListener("change", () => {
      const now = readOption(input, value);
      if (JSON.stringify(now) === JSON.stringify(value)) delete S.optionEdits[key];
      else S.optionEdits[key] = now;
      showNeededOptions();
      markOptions();
    });
    row.append(input);
    list.append(row);
  }
  showNeededOptions();
  markOptions();
}

/** The option values the form stands at: the ruleset's own with the player's edits. */
function chosenOptions() {
  const values = { ...optionDefaults() };
  for (const [key, value] of Object.entries(S.optionEdits)) if (key in values) values[key] = value;
  return values;
}

/** Whether ``key`` can matter under the form's values: the catalog's ``needs``
 * (the rules' one table) names the values of other options it needs, all of them
 * (an object), or any one of several such objects (a list: Spades' blind nil
 * margin matters under blind nil or double nil). */
function optionMatters(key, values) {
  const need = chosenGame().needs?.[key] || {};
  const holds = (way) => Object.entries(way).every(([other, allowed]) => allowed.some((v) => v === values[other]));
  return Array.isArray(need) ? need.some(holds) : holds(need);
}

/** The form's values as the rules read them: the ruleset's own with the
 * player's edits, where each option that cannot matter (its row hidden) counts
 * as the one value the rules force there (the catalog's ``fallbacks``: street
 * tricks lead trumps freely and have no permanent trumps), else as the
 * ruleset's own value — never as an edit made before its row hid, which is kept
 * for when it shows again but is not sent. The one rule of what a row is worth,
 * the page's copy of ``goat.games.ruleset.forced_values``: a forced value may
 * hide others (no permanent trumps, no jacks' order) or show one again (its
 * edit counts again), so each round starts from the edits, hiding what cannot
 * matter under the last round's values, until a round changes nothing. */
function formValues() {
  const own = optionDefaults();
  const chosen = chosenOptions();
  const fallbacks = chosenGame().fallbacks || {};
  let values = chosen;
  for (let round = 0; round <= Object.keys(chosen).length; round++) {
    const next = { ...chosen };
    for (const key of Object.keys(chosen)) {
      if (!optionMatters(key, values)) next[key] = key in fallbacks ? fallbacks[key] : own[key];
    }
    if (JSON.stringify(next) === JSON.stringify(values)) break;
    values = next;
  }
  return values;
}

/** Show each option's row only while it can matter under the form's values
 * (street's molodka once the tricks are street, the jacks' order once jacks are
 * permanent trumps, which street tricks are not). */
function showNeededOptions() {
  const values = formValues();
  for (const row of document.querySelectorAll("#option-list .option")) {
    row.hidden = !optionMatters(row.dataset.option, values);
  }
}

function readOption(input, base) {
  if (input.type === "checkbox") return input.checked;
  if (typeof base === "number" || base === null) {
    if (input.value.trim() === "") return base === null ? null : base;
    return Number.parseInt(input.value, 10);
  }
  return input.value;
}

/** Options that differ from the ruleset's own values, of those whose rows show
 * under ``formValues``: what the table is created with (a hidden row sends
 * nothing: the server's rules give it its value). */
function changedOptions() {
  const defaults = optionDefaults();
  const values = formValues();
  const changed = {};
  for (const key of Object.keys(S.optionEdits)) {   // in the order edited, as the table lists them
    if (key in values && optionMatters(key, values)
        && JSON.stringify(values[key]) !== JSON.stringify(defaults[key])) changed[key] = values[key];
  }
  return changed;
}

function markOptions() {
  const changed = changedOptions();
  for (const row of document.querySelectorAll("#option-list .option")) {
    row.classList.toggle("changed", row.dataset.option in changed);
  }
  const n = Object.keys(changed).length;
  $("#options-summary").textContent = n ? t("optionsChanged", { n }) : t("options");
  checkOptions(changed);
}

/** Ask the server whether the changed options make a table, before Create is
 * pressed (the rules panel's own request: the server answers with the engine's
 * one-line reason): a choice can be refused only together with the player count
 * or another option (a 32-card deck among three players, eight cards a hand
 * from a 24-card deck), which the form cannot know. The reason shows under the
 * options; an answer to an older choice is dropped. */
async function checkOptions(changed) {
  const node = $("#options-check");
  const ticket = ++S.optionsCheck;
  let reason = "";
  if (Object.keys(changed).length) {
    const query = new URLSearchParams({ players: $("#create-players").value, options: JSON.stringify(changed) });
    try {
      await api("GET", `api/games/${encodeURIComponent(chosenGame().name)}/rules/`
                + `${encodeURIComponent($("#create-rules").value)}?${query}`);
    } catch (err) {
      reason = err.message;
    }
  }
  if (ticket !== S.optionsCheck) return;
  node.textContent = reason;
  node.hidden = !reason;
}

function gameAndRules(table) {
  return `${named("games", table.game)} · ${named("rules", table.rules)}`;
}

/** A table's name as its headings say it: "Стол 1a2b · Козёл · классика". */
function tableTitle(m) {
  return t("lobbyTitle", { id: m.table, rules: gameAndRules(m) });
}

function optionsText(options) {
  return listOf(Object.entries(options || {}).map(([k, v]) => `${named("opt", k)}: ${optionValue(v)}`));
}

async function refreshTables() {
  const list = $("#table-list");
  try {
    const { tables } = await api("GET", "api/tables");
    list.innerHTML = "";
    if (!tables.length) list.innerHTML = `<li class="hint">${t("noTables")}</li>`;
    for (const table of tables) {
      const li = document.createElement("li");
      const names = listOf(table.seats.map((s) => (s.kind === "empty" ? "—" : playerName(s))));
      li.innerHTML = `<a href="?table=${table.id}"></a> <span class="hint"></span>`;
      li.querySelector("a").textContent = `${gameAndRules(table)} · ${table.id}`
        + (table.hints ? ` · ${t("hints.short")}` : "")
        + (table.move_seconds ? ` · ${clockNote(table, true)}` : "")
        + (table.chosen_seed ? ` · ${t("chosenSeed.short")}` : "");
      li.querySelector(".hint").textContent = names;
      list.append(li);
    }
  } catch (err) {
    list.textContent = err.message;
  }
}

/** A name to sit with, else false: the field focused and the reason said in the
 * page's language (spaces alone pass the field's "required" but are no name). */
function nameGiven(input) {
  const name = input.value.trim();
  if (name) return name;
  input.focus();
  toast(t("lobbyErrors.sayName"));
  return false;
}

async function createTable(event) {
  event.preventDefault();
  const name = nameGiven($("#create-name"));
  if (!name) return;
  localStorage.setItem("goat:name", name);
  try {
    const game = chosenGame().name;
    localStorage.setItem("goat:game", game);
    const body = { game, rules: $("#create-rules").value, players: Number($("#create-players").value),
                   options: changedOptions(), name, seat: 0, hints: $("#create-hints").checked,
                   move_seconds: chosenSeconds(), private: $("#create-private").checked, chat: chosenChat() };
    const table = await api("POST", "api/tables", body);
    saveSeat(table.id, table.token, 0);
    location.href = `?table=${table.id}`;
  } catch (err) {
    toast(err.message);
  }
}

// --------------------------------------------------------------- websocket
// A move is kept (S.outbox) from its sending until the table answers it: a state
// that moved or acknowledges it, or an error. A connection that drops meanwhile
// may have lost it on the way (a phone changing networks); the first state after
// the new connection's hello tells: the table still where the move left it, the
// same move goes again with its id and version. The server applies an id once, so
// a move that did arrive is answered `duplicate` and one the table has moved past
// `stale-version`: both end the wait quietly. Without this the hand stayed
// disabled for good, and the table waited on the player.
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // relative to the page's folder, as every URL of the page is: a reverse proxy may
  // serve the tables under a path of its own (https://club.example/goat/)
  const folder = location.pathname.replace(/[^/]*$/, "");
  const ws = new WebSocket(`${proto}//${location.host}${folder}ws/${S.tableId}`);
  S.ws = ws;
  ws.onopen = () => {
    S.resend = S.outbox;      // sent on a connection now gone: it may not have arrived
    ws.send(JSON.stringify({ type: "hello", token: S.token }));
  };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (event.code === 4404) {
      toast(t("errorCodes.unknown-table"));
      history.replaceState(null, "", folder);
      S.tableId = null;
      showHome();
      return;
    }
    if (event.code === 4403) {      // the stored key is void: watch instead
      settle();                     // a spectator's move would only be refused
      forgetSeat(S.tableId);
      S.token = null;
      S.seat = null;
    } else if (event.code === 4429) {   // this address holds the server's cap of connections
      banner(t("errorCodes.too-many-connections"));   // tried again until another tab closes
    } else {
      banner(t("reconnecting"));
    }
    S.retry += 1;
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(S.retry, 5)));
  };
}

/** A new connection for another seat (taken or left): no move of the old one goes again. */
function reconnect() {
  settle();
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

function onMessage(m) {
  if (onChatMessage(m)) return;       // table talk (chat.js): never the game's state
  if (m.type === "welcome") {
    // Back at the table: only now, not at the socket's open, which a connection the
    // server refuses (4429, over the address's cap) reaches too — reset there, the
    // wait never grew and every refused tab knocked twice a second for good.
    S.retry = 0;
    banner(null);
    S.seat = m.seat;
    return;
  }
  if (m.type === "state") {
    const moved = !S.msg || m.version !== S.msg.version;
    const lost = S.resend;            // the first state since a reconnect's hello
    S.resend = null;
    if (moved || m.ack) settle();
    else if (lost && lost === S.outbox) S.ws?.send(JSON.stringify(lost));
    const before = S.msg;
    S.msg = m;
    S.msgAt = performance.now();      // the lobby's countdowns (``free_in``) count from here
    noteRematch(m);
    tellRematch(before, m, S.duel?.table === S.tableId ? S.duel.resultClosed : S.resultClosed);   // a duel keeps its own
    document.body.dataset.version = String(m.version);  // for tests and debugging
    render();
    return;
  }
  if (m.type === "error") {
    settle();
    // The table moved on, or the move was made already (a resend that crossed
    // its answer): nothing to tell the player, the newest state shows it.
    if (m.code === "stale-version" || m.code === "duplicate") {
      S.ws?.send(JSON.stringify({ type: "sync" }));
      return;
    }
    if (m.code === "too-many-connections") return;   // its close (4429) says it in the banner, once
    // The code's title in the page's language; the server's detail is English, so
    // another language shows the title alone rather than a sentence of two languages.
    const title = t(`errorCodes.${m.code}`);
    const known = typeof title === "string" && !title.startsWith("errorCodes");
    toast(known && lang() !== "en" ? `${title}.` : `${known ? title : t("error")}: ${m.message}`);
    if (S.msg) render();
  }
}

/** Every game's move (a card, a bid, a duel's decision): kept until answered (see connect). */
function send(actionText) {
  if (S.pending || !S.msg) return;
  if (!online()) {
    toast(t("moveNotSent"));          // the banner says why; the click must not vanish unsaid
    return;
  }
  S.pending = true;
  S.outbox = { type: "action", action: actionText, version: S.msg.version, id: newId() };
  S.selected.clear();
  S.ws.send(JSON.stringify(S.outbox));
  render();
}

/** The move on its way is answered (or void): the hand is playable again. */
function settle() {
  S.pending = false;
  S.outbox = null;
  S.resend = null;
}

function render() {
  if (!S.msg) return;
  if (S.msg.status === "lobby") renderLobby();
  else if (RENDERERS[S.msg.game]) {
    S.arriving = S.arriving || $("#duel")?.hidden !== false;   // as renderGame (made by its first render)
    show("duel");
    if (S.msg.view) {
      RENDERERS[S.msg.game].render(send, render);
      drawHint();
    }
  } else renderGame();
  const heading = $("#table-title");      // at play, the page's heading for readers (the lobby has its own)
  heading.hidden = S.msg.status === "lobby";
  heading.textContent = tableTitle(S.msg);
  placeChat();
  drawSheetLinks();
  drawClock();
  noteTurn();
}

// ------------------------------------------------------------------- lobby
function renderLobby() {
  show("lobby");
  const m = S.msg;
  $("#lobby-title").textContent = `${tableTitle(m)} · ${t("playerCount", { n: m.players })}`;
  const options = [optionsText(m.options) ? `${t("options")}: ${optionsText(m.options)}` : "",
                   m.hints ? t("hints.on") : "", clockNote(m), m.private ? t("private.on") : "", chatNote(m),
                   m.chosen_seed ? t("chosenSeed.on") : ""]
    .filter(Boolean).join(" · ");
  $("#lobby-options").textContent = options;
  $("#lobby-options").hidden = !options;
  $("#invite-link").value = new URL(`?table=${m.table}`, location.href).href;
  const nameInput = $("#lobby-name");
  if (!nameInput.value) nameInput.value = myName();
  nameInput.closest("label").hidden = S.seat !== null;
  const list = $("#seat-list");
  // the rows are drawn anew: a keyboard on a seat's button stays in that seat's row
  const focusedRow = document.activeElement?.closest?.("#seat-list .seat-row")?.dataset.seat;
  list.innerHTML = "";
  for (const seat of m.seats) {
    const li = document.createElement("li");
    li.className = `seat-row kind-${seat.kind}`;
    li.dataset.seat = seat.seat;
    const label = document.createElement("span");
    label.className = "seat-label";
    label.textContent = t("seat", { n: seat.seat + 1 });
    const who = document.createElement("span");
    who.className = "seat-name";
    who.textContent = seat.kind === "empty" ? t("empty") : seatName(seat.seat);
    if (seat.kind === "bot") who.textContent += ` · ${botLabel(m, seat.bot)}`;
    else if (seat.kind === "human" && !seat.connected) who.textContent += ` · ${t("offline")}`;
    if (seat.own_deck) who.textContent += ` · ${t("ownDeck")}`;   // yes/no is all anyone learns
    li.append(label, who);
    const buttons = document.createElement("span");
    buttons.className = "seat-buttons";
    if (seat.kind === "empty" && S.seat === null) buttons.append(button(t("sitHere"), "sit", () => sit(seat.seat)));
    if (seat.kind === "empty" && S.seat !== null) {
      buttons.append(button(t("addBot"), "add-bot", () => setBot(seat.seat)));
    }
    if (seat.kind === "bot" && S.seat !== null) buttons.append(button(t("remove"), "remove", () => clearSeat(seat.seat)));
    if (seat.kind === "human" && seat.seat === S.seat) buttons.append(button(t("leave"), "leave", () => clearSeat(seat.seat, true)));
    // someone who left the lobby: the seat may be freed once the grace period has passed
    else if (seat.kind === "human" && !seat.connected && S.seat !== null) {
      const free = button(t("freeSeat"), "free-seat", () => clearSeat(seat.seat));
      free.dataset.freeAt = String(S.msgAt + 1000 * (seat.free_in || 0));
      buttons.append(free);
    }
    li.append(buttons);
    list.append(li);
  }
  tickFreeSeats();
  if (focusedRow !== undefined) list.querySelector(`.seat-row[data-seat="${focusedRow}"] button`)?.focus();
  const empty = m.seats.some((s) => s.kind === "empty");
  const start = $("#start-btn");
  start.hidden = S.seat === null;
  start.disabled = empty;
  const hints = [];
  if (S.seat === null) hints.push(t(empty ? "youAreSpectator" : "youAreSpectatorFull"));   // no seat to take: not "take one"
  else if (empty) hints.push(t("needAllSeats"));
  if (m.players === 4) hints.push(t("partners"));
  const kinds = $("#bot-kind");
  // the bots that play this table's game, weakest first, each as its level at
  // this table's rules and its name ("Strong — pimc"; the catalog's bot_levels)
  const entry = S.catalog?.games?.find((g) => g.name === m.game);
  const levels = entry?.rules?.find((r) => r.name === m.rules)?.bot_levels;
  const bots = levels?.map((e) => e.bot) || entry?.bots || S.catalog?.bots || ["heuristic"];
  const preferred = entry?.default_bot || S.catalog?.default_bot || "heuristic";
  const labels = bots.map((b) => {
    const level = levels?.find((e) => e.bot === b)?.level;
    return level ? t("botOption", { level: t(`botLevel.${level}`), bot: b }) : b;
  });
  if ([...kinds.options].map((o) => o.text).join("\n") !== labels.join("\n")) {
    const chosen = kinds.value;                  // a language switch keeps the choice
    kinds.innerHTML = "";
    bots.forEach((b, i) => kinds.add(new Option(labels[i], b, false, b === preferred)));
    if (bots.includes(chosen)) kinds.value = chosen;
  }
  kinds.closest(".bot-pick").hidden = S.seat === null;
  drawBotAbout();
  $("#lobby-hint").textContent = hints.join(" ");
  drawClaim($("#rematch-claim"), takeKeptSeat);
  renderDeckPanel(m);
}

/** Each "Free the seat" button stays disabled, saying the seconds left ("Can be
 * freed in 42 s"), until the moment the server's view gave (``free_in``, counted
 * from the state's arrival on this page's own monotonic clock, so never sooner
 * than the server allows); then it is enabled. The server still decides: a click
 * that crosses the holder's return is refused (409 ``seatAway``, 403). */
function tickFreeSeats() {
  clearTimeout(S.freeSeatTimer);
  let next = Infinity;
  for (const free of document.querySelectorAll("#seat-list button.free-seat")) {
    const left = Number(free.dataset.freeAt) - performance.now();
    const seconds = Math.ceil(left / 1000);
    const text = seconds > 0 ? t("freeSeatIn", { seconds }) : t("freeSeat");
    if (free.textContent !== text) free.textContent = text;
    free.disabled = seconds > 0;
    if (seconds > 0) next = Math.min(next, left - 1000 * (seconds - 1));   // when the count next drops
  }
  if (next < Infinity) S.freeSeatTimer = setTimeout(tickFreeSeats, next + 5);
}

/** The line under the bot choice: what the chosen bot does at this table's
 * rules and how long it thinks (redrawn when the choice changes). */
function drawBotAbout() {
  const m = S.msg;
  const about = $("#bot-about");
  if (!m || !about) return;
  const text = botAbout(m.game, botEntry(m, $("#bot-kind").value));
  if (about.textContent !== text) about.textContent = text;
}

// ---------------------------------------------------------- your own deck
// At a game whose seats say whether they have their own deck (`own_deck`:
// the server takes one, docs/server.md), the seated player may paste a .ydk
// list or choose a file. The list goes to the server with the seat's token
// and comes back only to that seat (GET .../deck); the page shows the
// server's refusal (S.deckError: its answer, worded by refusal() at each
// render, so in the language chosen since) or the counts of what it stored.

function takesDecks(m) {
  return m.seats.some((s) => "own_deck" in s);
}

function renderDeckPanel(m) {
  const panelNode = $("#deck-panel");
  panelNode.hidden = S.seat === null || !takesDecks(m);
  if (panelNode.hidden) {
    S.deckFor = null;
    return;
  }
  const key = `${m.table}:${S.seat}`;
  if (S.deckFor !== key) {       // a new seat: read back what the server holds for it
    S.deckFor = key;
    S.myDeck = null;
    S.deckError = null;
    $("#deck-text").value = "";
    api("GET", `api/tables/${S.tableId}/seats/${S.seat}/deck`, null, S.token).then((data) => {
      if (S.deckFor !== key) return;
      S.myDeck = data.deck;
      if (data.deck && !$("#deck-text").value) $("#deck-text").value = ydkText(data.deck);
      deckStatus();
    }).catch(() => {});
  }
  deckStatus();
}

function ydkText(deck) {
  return ["#main", ...deck.main, "#extra", ...(deck.fusion || []), "!side", ...(deck.side || [])].join("\n") + "\n";
}

function deckStatus() {
  const node = $("#deck-status");
  const deck = S.myDeck;
  if (S.deckError) {
    node.textContent = refusal(S.deckError);
    node.className = "hint deck-status error";
  } else if (deck) {
    node.textContent = t("deckSummary", { main: deck.main.length, fusion: (deck.fusion || []).length,
      side: (deck.side || []).length });
    node.className = "hint deck-status ok";
  } else {
    node.textContent = t("deckNone");
    node.className = "hint deck-status";
  }
  $("#deck-clear").disabled = !deck;
}

async function useDeck() {
  const text = $("#deck-text").value;
  if (!text.trim()) {
    S.deckError = { say: "deckEmpty" };
    deckStatus();
    return;
  }
  try {
    const response = await fetch(`api/tables/${S.tableId}/seats/${S.seat}/deck`, {
      method: "PUT", body: text,
      headers: { "Content-Type": "text/plain; charset=utf-8", Authorization: `Bearer ${S.token}` },
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw refused(response, data);
    S.myDeck = data.deck;
    S.deckError = null;
  } catch (err) {   // nothing was stored: the last good deck (if any) stays
    S.deckError = err.refusal || { error: err.message };
  }
  deckStatus();
}

async function clearDeck() {
  try {
    await api("DELETE", `api/tables/${S.tableId}/seats/${S.seat}/deck`, null, S.token);
    S.myDeck = null;
    S.deckError = null;
  } catch (err) {
    S.deckError = err.refusal || { error: err.message };
  }
  deckStatus();
}

async function deckFromFile(event) {
  const file = event.target.files?.[0];
  if (!file) return;
  $("#deck-text").value = await file.text();
  event.target.value = "";
  await useDeck();
}

async function sit(seat) {
  const name = nameGiven($("#lobby-name"));
  if (!name) return;
  localStorage.setItem("goat:name", name);
  try {
    const { token } = await api("POST", `api/tables/${S.tableId}/seats/${seat}`, { name });
    saveSeat(S.tableId, token, seat);
    S.token = token;
    reconnect();
  } catch (err) {
    // My own name, kept for me at this rematch, and this browser holds my seat of
    // the last match: that is me coming back (refused only where no token says so).
    const kept = err.refusal?.say === "nameKept" ? keptSeat(S.msg) : null;
    if (kept && kept.seat === err.refusal.args?.seat) await takeKeptSeat(kept);
    else toast(err.message);
  }
}

/** Sit in my seat of the last match, which this rematch keeps for me (rematch.js). */
async function takeKeptSeat(kept) {
  if (!kept) return;
  try {
    if (await claimSeat(kept)) reconnect();
    else toast(t("lobbyErrors.seatTaken", { n: kept.seat + 1 }));
  } catch (err) {
    toast(err.message);
  }
}

async function setBot(seat) {
  try {
    await api("POST", `api/tables/${S.tableId}/seats/${seat}/bot`, { bot: $("#bot-kind").value || "heuristic" }, S.token);
  } catch (err) {
    toast(err.message);
  }
}

async function clearSeat(seat, mine = false) {
  try {
    await api("DELETE", `api/tables/${S.tableId}/seats/${seat}`, null, S.token);
    if (mine) {
      forgetSeat(S.tableId);
      S.token = null;
      S.seat = null;
      reconnect();
    }
  } catch (err) {
    toast(err.message);
  }
}

async function startGame() {
  try {
    await api("POST", `api/tables/${S.tableId}/start`, null, S.token);
  } catch (err) {
    toast(err.message);
  }
}

// -------------------------------------------------------------------- game
function myLegal(view) {
  if (S.seat === null) return [];
  return view.legal_actions.map(parseAction).filter((a) => a.seat === S.seat);
}

function renderGame() {
  // Arriving at the table (the lobby's Start, a reload): the focus was on the
  // page, or on a Start button now hidden; a keyboard player starts from the hand.
  S.arriving = S.arriving || $("#game").hidden;
  show("game");
  const m = S.msg;
  const v = m.view;
  if (!v) return;
  document.body.dataset.game = v.game;
  const hadFocus = document.activeElement && document.activeElement.closest?.("#hand, #actions");
  const game = panel();
  renderSeats(m, v, game);
  game.info(v, $("#info"));
  renderTrick(v, game);
  drawHintButton(game.handHidden(v, myLegal(v)));   // before the hand: the toolbar's keyboard order counts it
  renderHand(v, game);
  drawHintMarks();
  renderStatus(v, game);
  renderLastTrick(v);
  renderScore(v, game);
  updateLog(v, game);
  if (hadFocus) restoreFocus(hadFocus.closest("#actions") ? "actions" : "hand");
  else if (S.arriving && S.seat !== null && focusLost()) restoreFocus("hand");
  // until the hand (or a button) could take it: the first view may come before the deal,
  // and a deal's end takes the hand away from under the keyboard until the next deal
  keepArriving(hadFocus);
  renderResult(v, game);     // last: the result takes the focus from the play area
}

function renderSeats(m, v, game) {
  for (const box of document.querySelectorAll(".seat-box")) {
    box.innerHTML = "";
    box.hidden = true;
  }
  for (let seat = 0; seat < m.players; seat += 1) {
    const box = $(`.seat-box[data-pos="${posOf(seat)}"]`);
    box.hidden = false;
    box.classList.toggle("turn", v.current_player === seat);
    box.classList.toggle("me", seat === S.seat);
    box.dataset.seat = seat;
    const info = m.seats[seat];
    box.append(turnName("div", v.current_player === seat, seatName(seat)));
    const badges = el("div", "badges");
    const tags = [];
    if (v.dealer === seat) tags.push(el("span", "badge", t("dealer")));
    if (info.kind === "bot") tags.push(el("span", "badge", botLabel(m, info.bot)));
    if (info.autoplay) tags.push(el("span", "badge", t("away")));
    else if (info.kind === "human" && !info.connected) tags.push(el("span", "badge", t("offline")));
    for (const text of game.badges(v, seat)) tags.push(el("span", "badge game-badge", text));
    tags.push(el("span", "badge tricks", t("tricks", { n: v.tricks_by_seat[seat] })));
    badges.append(...tags);
    box.append(badges);
    if (seat !== S.seat) {
      const fan = el("div", "fan");
      const count = v.hand_sizes[seat];
      for (let i = 0; i < Math.min(count, 8); i += 1) fan.append(cardBack("small"));
      oneImage(fan, t("cardsLeft", { n: count }));          // one "3 cards" rather than three backs
      fan.title = t("cardsLeft", { n: count });
      box.append(fan);
    }
    game.seatExtra(v, seat, box);
  }
}

function renderTrick(v, game) {
  for (const slot of document.querySelectorAll("#trick .slot")) slot.innerHTML = "";
  v.trick.forEach((play, index) => {
    const slot = $(`#trick .slot[data-pos="${posOf(play.seat)}"]`);
    const group = el("div", "play" + (index === v.trick_best ? " best" : ""));
    const best = index === v.trick_best && v.trick.length > 1;
    if (play.cards) for (const c of play.cards) group.append(cardFace(c));
    else for (let i = 0; i < play.count; i += 1) group.append(cardBack());
    if (best) group.append(el("span", "best-mark", "★"));
    // read as one: who, what, and whether it takes the trick so far
    oneImage(group, `${seatName(play.seat)}: ${describeCards(play)}${best ? ` — ${t("trickBest")}` : ""}`);
    slot.append(group);
  });
  const result = $("#deal-result");
  const last = v.deal_results[v.deal_results.length - 1];
  if (v.phase === "deal" && last && !v.match_over) {
    result.hidden = false;
    result.textContent = game.dealSummary(v.deal_results.length, last);
  } else {
    result.hidden = true;
  }
}

function describeCards(play) {
  return play.cards ? play.cards.map(cardName).join(", ") : t("passes", { name: "", n: play.count }).trim();
}

function renderHand(v, game) {
  const hand = $("#hand");
  hand.innerHTML = "";
  const legal = myLegal(v);
  const multi = game.multiCard(v);
  const cards = v.hand || [];
  const withCards = legal.some((a) => a.cards.length);   // dimmed only when I may act with a card
  hand.hidden = S.seat === null;
  hand.classList.toggle("many", cards.length > 8);
  const faceDown = game.handHidden(v, legal);
  // The cards everyone has seen (Spades' face-up-four): face down, they stay face up,
  // first and in deal order (drawn at their sorted places they would tell me about the
  // others); face up, they are marked, since the others know them.
  // Face down, the server sent no card but those (all still held while bidding).
  const seen = faceDown ? game.openWhileHidden(v) : game.openWhileHidden(v).filter((c) => cards.includes(c));
  const open = faceDown ? seen : [];
  const backs = faceDown ? Math.max(0, (v.hand_sizes?.[S.seat] ?? 0) - open.length) : 0;
  hand.classList.toggle("face-down", faceDown);
  hand.setAttribute("aria-label", faceDown ? t("handFaceDown", { n: backs }) : t("yourHand"));
  if (faceDown) {     // the same number of cards, none of them a control
    for (const card of open) {
      const face = cardFace(card);
      face.classList.add("open");
      face.setAttribute("aria-label", `${cardName(card)} — ${t("seenByAll")}`);
      hand.append(face);
    }
    for (let i = 0; i < backs; i++) {
      const back = cardBack();
      back.setAttribute("aria-hidden", "true");
      hand.append(back);
    }
  }
  const lead = game.selectionKey(v);
  if (lead !== S.lead) S.selected.clear();  // a new trick, or a molodka restarted it: choose again
  S.lead = lead;
  for (const c of [...S.selected]) if (!cards.includes(c)) S.selected.delete(c);
  S.focus = Math.max(0, Math.min(S.focus, cards.length - 1));
  if (!faceDown) cards.forEach((card, index) => {
    const face = cardFace(card, "button");
    face.type = "button";
    const playable = !S.pending && legal.some((a) => a.verb !== "molodka" && a.cards.includes(card)
                                               && (multi || a.cards.length === 1));
    face.dataset.legal = String(playable);
    face.classList.toggle("illegal", !playable && withCards);
    face.setAttribute("aria-disabled", String(!playable));
    if (multi) face.setAttribute("aria-pressed", String(S.selected.has(card)));
    if (S.selected.has(card)) face.classList.add("selected");
    if (v.must_lead === card) face.classList.add("must");
    if (seen.includes(card)) {
      face.classList.add("seen");
      face.title = t("seenByAll");
    }
    face.setAttribute("aria-label", cardName(card) + (playable ? "" : ` — ${t("notPlayable")}`)
                      + (seen.includes(card) ? ` — ${t("seenByAll")}` : "")
                      + (S.selected.has(card) ? ` — ${t("selected")}` : ""));
    face.tabIndex = index === S.focus ? 0 : -1;
    face.addEventListener("click", () => { S.focus = index; activate(card); });
    hand.append(face);
  });
  game.actions(v, legal, send, renderGame);
  drawResultOpener($("#act-result"), Boolean(v.match_over && S.resultClosed), () => {
    S.resultClosed = false;
    renderGame();                        // the box takes the focus from the button it hides
  });
  const buttons = visibleActions();
  buttons.forEach((b, i) => { b.tabIndex = i === Math.min(S.actionFocus, buttons.length - 1) ? 0 : -1; });
}

function visibleActions() {
  return [...document.querySelectorAll("#actions button")].filter((b) => !b.hidden && !b.closest("[hidden]"));
}

function activate(card) {
  const v = S.msg.view;
  const legal = myLegal(v);
  if (panel().multiCard(v)) {
    if (!legal.some((a) => a.verb !== "molodka" && a.cards.includes(card))) {
      toast(`${cardName(card)}: ${t("notPlayable")}`);
      return;
    }
    if (S.selected.has(card)) S.selected.delete(card);
    else S.selected.add(card);
    renderGame();
    return;
  }
  const action = legal.find((a) => a.verb !== "molodka" && a.cards.length === 1 && a.cards[0] === card);
  if (action && !S.pending) send(action.text);
  else if (!S.pending) toast(`${cardName(card)}: ${t("notPlayable")}`);
}

/** Focus back where it was (the hand or the actions), else on the other one:
 * a hand turned face down, or actions that are gone, leave focus on the page. */
function restoreFocus(where) {
  const buttons = visibleActions();
  const cards = handCards();
  const toButtons = () => buttons[Math.min(S.actionFocus, buttons.length - 1)].focus();
  if (where === "actions" && buttons.length) toButtons();
  else if (cards.length && !movesAreButtons(buttons, cards)) cards[Math.min(S.focus, cards.length - 1)].focus();
  else if (buttons.length) toButtons();
}

/** My move now is a button, not a card (Spades' bids, a blind bid's "look"): no
 * card of the hand can be played and I have something to do, so a keyboard player
 * arriving at the table starts on the moves rather than on a card that cannot go. */
function movesAreButtons(buttons, cards) {
  const v = S.msg?.view;
  return Boolean(buttons.length && v && myLegal(v).length && !cards.some((c) => c.dataset.legal === "true"));
}

/** The cards of my hand I can act on with the keyboard (not the backs of a hidden hand). */
function handCards() {
  return [...document.querySelectorAll("#hand button.card")];
}

/** +1 or -1 for an arrow key along a row of cards or buttons, else 0: the row
 * runs from the right on a right-to-left page, so there ← is the next one. */
function rowStep(key) {
  const forward = dir() === "rtl" ? "ArrowLeft" : "ArrowRight";
  const back = dir() === "rtl" ? "ArrowRight" : "ArrowLeft";
  return key === forward ? 1 : key === back ? -1 : 0;
}

function onHandKey(event) {
  const cards = handCards();
  if (!cards.length) return;
  let next = S.focus;
  if (rowStep(event.key)) next = (S.focus + rowStep(event.key) + cards.length) % cards.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = cards.length - 1;
  else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    activate(cards[S.focus].dataset.card);
    return;
  } else if (event.key === "ArrowUp") {
    const buttons = visibleActions();
    if (buttons.length) {
      event.preventDefault();
      S.actionFocus = 0;
      buttons.forEach((b, i) => { b.tabIndex = i === 0 ? 0 : -1; });
      buttons[0].focus();
    }
    return;
  } else {
    return;
  }
  event.preventDefault();
  cards[S.focus].tabIndex = -1;
  S.focus = next;
  cards[next].tabIndex = 0;
  cards[next].focus();
}

function onActionsKey(event) {
  const buttons = visibleActions();
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  let next = at;
  if (rowStep(event.key)) next = (at + rowStep(event.key) + buttons.length) % buttons.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = buttons.length - 1;
  else if (event.key === "ArrowDown") {
    event.preventDefault();
    restoreFocus("hand");
    return;
  } else {
    return;
  }
  event.preventDefault();
  S.actionFocus = next;
  buttons.forEach((b, i) => { b.tabIndex = i === next ? 0 : -1; });
  buttons[next].focus();
}

function renderStatus(v, game) {
  const myTurn = S.seat !== null && v.current_player === S.seat;
  const legal = myLegal(v);
  const waiting = myTurn || v.match_over ? "" : offlineNote(v.current_player);
  const text = game.status(v, myTurn, legal) + waiting;
  const said = game.status(v, myTurn, legal, SAID) + waiting;
  const status = $("#status");
  sayStatus(status, legal.length > 0 || v.match_over, text, said);   // mine to act (a molodka too), or the end
  status.classList.toggle("my-turn", myTurn && !v.match_over);
}

function renderLastTrick(v) {
  const btn = $("#last-trick-btn");
  btn.textContent = S.showLast ? t("hideLastTrick") : t("lastTrick");
  btn.setAttribute("aria-expanded", String(S.showLast));
  const box = $("#last-trick");
  box.hidden = !S.showLast;
  if (!S.showLast) return;
  box.innerHTML = "";
  if (!v.last_trick) {
    box.textContent = t("noLastTrick");
    return;
  }
  for (const play of v.last_trick.plays) {
    const row = el("div", "last-row");
    row.append(el("span", "who", seatName(play.seat)));
    if (play.cards) for (const c of play.cards) row.append(cardFace(c));
    else for (let i = 0; i < play.count; i += 1) row.append(cardBack("small"));
    box.append(row);
  }
  box.append(el("p", "", t("tookTrick", { name: seatName(v.last_trick.winner) })));
}

/** The score sheet's head (a column a team) is every game's; its rows are the game's. */
function renderScore(v, game) {
  const table = $("#score");
  const columns = v.players === 4 ? 2 : v.players;
  $("#game").dataset.sheetColumns = columns;     // three players' sheet: a wider side column where the screen allows
  $("#score-note").textContent = game.score(v, table);
  drawSheetHead(table, columns);                 // last: it measures the sheet with its rows
}

// --------------------------------------------------------------------- log
/** A log line: `text` on screen, `said` (its cards in words) for screen readers. */
function addLog(text, said = text) {
  const li = spoken(document.createElement("li"), text, said);
  const log = $("#log");
  log.append(li);
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
  return li;
}

/** An action's log line, its cards as `voice` writes them (cards.js: SHOWN, SAID);
 * `name` "" words it without its player (the clock's line names them). */
function describe(entry, v, game, name = seatName(parseAction(entry).seat), voice = SHOWN) {
  const a = parseAction(entry);
  const own = game.describe(a, name, v, voice);
  if (own !== null) return own;
  const hidden = a.cards.includes("?");
  const cards = voice.cards(a.cards);
  if (a.verb === "pass") return t("passes", { name, n: a.cards.length }) + (hidden ? "" : `: ${cards}`);
  if (a.verb === "give") return hidden ? t("gives", { name }) : t("givesCard", { name, cards });
  if (a.verb === "molodka") return t("declares", { name, cards });
  return t("plays", { name, cards });
}

/** An action's log line for the eye and for the ear: spoken()'s two texts. */
function describeBoth(entry, v, game) {
  const name = seatName(parseAction(entry).seat);
  return [describe(entry, v, game, name), describe(entry, v, game, name, SAID)];
}

/** A move in the page's words without its player: a card game's log line ("bids 1",
 * "passes 2 cards face down"), a duel's action as its button says it. */
function moveWords(action) {
  const duel = RENDERERS[S.msg.game];
  return duel ? duel.sayAction(action) : describe(action, S.msg.view, panel(), "").trim();
}

/** Where this deal's tricks ended in its history (index of the action that
 * completed one -> who took it), for a log drawn from a whole deal at once (a
 * reload, a spectator joining). Where the history is plain tricks of one action
 * a seat (no molodka restarted one), every trick's end is known and its winner
 * led the next; else only the last trick's, before the actions on the table. */
function trickEnds(v, tricks) {
  const ends = new Map();
  if (!tricks || !v.last_trick) return ends;
  const plays = [];
  v.history.forEach((entry, i) => {
    const a = parseAction(entry);
    if (a.verb === "play" || a.verb === "pass") plays.push({ i, seat: a.seat });
  });
  const n = v.players;
  if (plays.length === tricks * n + v.trick.length) {
    for (let k = 1; k <= tricks; k += 1) {
      ends.set(plays[k * n - 1].i, k === tricks ? v.last_trick.winner : plays[k * n].seat);
    }
  } else {
    ends.set(v.history.length - v.trick.length - 1, v.last_trick.winner);
  }
  return ends;
}

function updateLog(v, game) {
  const tricks = v.tricks_won.reduce((x, y) => x + y, 0);
  if (!S.log) S.log = { deal: -1, count: 0, tricks: 0, results: v.deal_results.length, lines: [] };
  if (v.deal_number !== S.log.deal) {
    S.log.deal = v.deal_number;
    S.log.count = 0;
    S.log.tricks = 0;
    S.log.lines = [];
    const start = v.deal_number > 0 ? game.dealStart(v) : null;
    if (start) addLog(start, game.dealStart(v, SAID));
  }
  // A give shown face down ("1 give ?") names its card once the exchange is complete
  // and the card is the recipient's: its line says so where it stands.
  for (let i = 0; i < S.log.count; i += 1) {
    const line = S.log.lines[i];
    if (line && line.entry !== v.history[i]) {
      line.entry = v.history[i];
      spoken(line.li, ...describeBoth(v.history[i], v, game));
    }
  }
  const ends = v.history.length > S.log.count && tricks > S.log.tricks ? trickEnds(v, tricks) : new Map();
  for (let i = S.log.count; i < v.history.length; i += 1) {
    S.log.lines[i] = { entry: v.history[i], li: addLog(...describeBoth(v.history[i], v, game)) };
    if (ends.has(i)) {
      const name = seatName(ends.get(i));
      addLog(t("trickTo", { name }), t("trickToSaid", { name }));
    }
  }
  S.log.count = v.history.length;
  S.log.tricks = tricks;
  while (S.log.results < v.deal_results.length) {
    S.log.results += 1;
    addLog(game.dealSummary(S.log.results, v.deal_results[S.log.results - 1]));
  }
}

function renderResult(v, game) {
  const box = $("#result");
  showResult(box, v.match_over && !S.resultClosed && $("#review").hidden, "#hand, #actions");
  if (!v.match_over) return;
  $("#result-text").textContent = game.result(v);
  $("#record-link").href = `api/tables/${S.tableId}/record`;
  $("#review-btn").hidden = !game.reviewable?.(v);
  drawRematch($("#rematch"));
  if (S.reviewAsked && game.reviewable?.(v)) {   // the finished games' "review" link (?review=1)
    S.reviewAsked = false;
    openReview(v);
  }
}

// -------------------------------------------------------------------- init
function init() {
  applyStatic();
  for (const b of document.querySelectorAll(".lang")) {
    b.addEventListener("click", () => {
      setLang(b.dataset.lang);
      applyStatic();
      if (S.catalog && !$("#home").hidden) { fillGames(); refreshTables(); refreshFinished(); refreshStandings(); }
      if (S.msg) {
        S.log = null;
        $("#log").innerHTML = "";
        render();
      }
      redrawReview();       // a table's, or a record's opened on the home page
      redrawOpenRecord();
    });
  }
  // the sheet's heads are names or initials by the width they have (sheets.js drawSheetHead)
  window.addEventListener("resize", () => { if (S.msg?.view && !$("#game").hidden) renderScore(S.msg.view, panel()); });
  $("#create-form").addEventListener("submit", createTable);
  initStandings();
  $("#create-game").addEventListener("change", () => { S.optionEdits = {}; fillRules(); });
  $("#create-rules").addEventListener("change", fillPlayers);
  $("#create-players").addEventListener("change", fillOptions);
  $("#bot-kind").addEventListener("change", drawBotAbout);
  $("#act-clear").addEventListener("click", () => { S.selected.clear(); renderGame(); });
  $("#copy-invite").addEventListener("click", async () => {
    const link = $("#invite-link");
    link.select();
    try { await navigator.clipboard.writeText(link.value); } catch { document.execCommand?.("copy"); }
    toast(t("copied"));
  });
  $("#start-btn").addEventListener("click", startGame);
  $("#deck-use").addEventListener("click", useDeck);
  $("#deck-clear").addEventListener("click", clearDeck);
  $("#deck-file").addEventListener("change", deckFromFile);
  $("#hand").addEventListener("keydown", onHandKey);
  $("#actions").addEventListener("keydown", onActionsKey);
  $("#last-trick-btn").addEventListener("click", () => { S.showLast = !S.showLast; renderLastTrick(S.msg.view); });
  $("#result-close").addEventListener("click", () => {
    S.resultClosed = true;
    renderGame();                        // hides the box, shows the button that brings it back
    $("#score-title").focus();           // not lost to the page: the match's score sheet is next
  });
  $("#review-btn").addEventListener("click", () => openReview(S.msg.view));
  initReview();
  initOpenRecord();
  initHints(render);
  initClock(moveWords);
  initChat();
  initRules();

  const id = new URLSearchParams(location.search).get("table");
  if (!id) {
    showHome();
    return;
  }
  S.tableId = id;
  S.reviewAsked = new URLSearchParams(location.search).get("review") === "1";
  const saved = savedSeat(id);
  S.token = saved?.token || null;
  api("GET", "api/games").then((c) => { S.catalog = c; if (S.msg) render(); }).catch(() => {});
  connect();
}

init();
