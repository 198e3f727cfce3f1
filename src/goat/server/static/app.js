// The browser table: lobby, seats, and the game drawn from this seat's view.
// Plain JavaScript modules, no build step. Everything the server says arrives
// on one WebSocket (see docs/server.md); the lobby uses the HTTP endpoints.

import { t, lang, setLang } from "./i18n.js";
import { cardBack, cardFace, cardName, cardsText, parseAction, setKey, short, SYMBOLS } from "./cards.js";

const $ = (selector) => document.querySelector(selector);
const POSITIONS = { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] };

const S = {
  tableId: null,
  token: null,
  seat: null,          // my seat, or null when watching
  ws: null,
  msg: null,           // the last state message
  selected: new Set(), // street: cards chosen for the next action
  lead: null,          // the trick the selection was made for
  focus: 0,            // index of the focused card in the hand
  actionFocus: 0,
  pending: false,      // an action is on its way
  log: null,           // what the log has shown: {deal, count, tricks, results}
  showLast: false,
  resultClosed: false,
  retry: 0,
  catalog: null,
};

// ------------------------------------------------------------------ helpers
function show(page) {
  for (const id of ["home", "lobby", "game"]) $(`#${id}`).hidden = id !== page;
}

function applyStatic() {
  document.documentElement.lang = lang();
  document.title = t("title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const b of document.querySelectorAll(".lang")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang()));
  $("#hand").setAttribute("aria-label", t("yourHand"));
  $("#trick").setAttribute("aria-label", t("trickArea"));
}

let toastTimer = null;
function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

function banner(text) {
  const el = $("#banner");
  el.textContent = text || "";
  el.hidden = !text;
}

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function savedSeat(id) {
  try { return JSON.parse(localStorage.getItem(`goat:token:${id}`)) || null; } catch { return null; }
}

function saveSeat(id, token, seat) {
  localStorage.setItem(`goat:token:${id}`, JSON.stringify({ token, seat }));
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
    S.catalog = S.catalog || (await api("GET", "/api/games"));
  } catch (err) {
    toast(err.message);
    return;
  }
  fillRules();
  refreshTables();
}

function fillRules() {
  const rules = S.catalog.games[0].rules;
  const select = $("#create-rules");
  const chosen = select.value || "classic";
  select.innerHTML = "";
  for (const r of rules) {
    const option = new Option(t(`rules.${r.name}`), r.name, false, r.name === chosen);
    select.add(option);
  }
  fillPlayers();
}

function fillPlayers() {
  const rule = S.catalog.games[0].rules.find((r) => r.name === $("#create-rules").value);
  const select = $("#create-players");
  select.innerHTML = "";
  for (const n of rule.players) select.add(new Option(String(n), String(n), false, n === rule.default_players));
  select.disabled = rule.players.length === 1;
}

async function refreshTables() {
  const list = $("#table-list");
  try {
    const { tables } = await api("GET", "/api/tables");
    list.innerHTML = "";
    if (!tables.length) list.innerHTML = `<li class="hint">${t("noTables")}</li>`;
    for (const table of tables) {
      const li = document.createElement("li");
      const names = table.seats.map((s) => s.name || "—").join(", ");
      li.innerHTML = `<a href="/?table=${table.id}">${t(`rules.${table.rules}`)} · ${table.id}</a> <span class="hint"></span>`;
      li.querySelector(".hint").textContent = names;
      list.append(li);
    }
  } catch (err) {
    list.textContent = err.message;
  }
}

async function createTable(event) {
  event.preventDefault();
  const name = $("#create-name").value.trim();
  localStorage.setItem("goat:name", name);
  try {
    const body = { rules: $("#create-rules").value, players: Number($("#create-players").value), name, seat: 0 };
    const table = await api("POST", "/api/tables", body);
    saveSeat(table.id, table.token, 0);
    location.href = `/?table=${table.id}`;
  } catch (err) {
    toast(err.message);
  }
}

// --------------------------------------------------------------- websocket
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${S.tableId}`);
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    banner(null);
    ws.send(JSON.stringify({ type: "hello", token: S.token }));
  };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (event.code === 4404) {
      toast(t("errorCodes.unknown-table"));
      history.replaceState(null, "", "/");
      S.tableId = null;
      showHome();
      return;
    }
    if (event.code === 4403) {      // the stored key is void: watch instead
      forgetSeat(S.tableId);
      S.token = null;
      S.seat = null;
    } else {
      banner(t("reconnecting"));
    }
    S.retry += 1;
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(S.retry, 5)));
  };
}

function reconnect() {
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

function onMessage(m) {
  if (m.type === "welcome") {
    S.seat = m.seat;
    return;
  }
  if (m.type === "state") {
    const moved = !S.msg || m.version !== S.msg.version;
    if (moved || m.ack) S.pending = false;
    S.msg = m;
    document.body.dataset.version = String(m.version);  // for tests and debugging
    render();
    return;
  }
  if (m.type === "error") {
    S.pending = false;
    if (m.code === "stale-version") {
      S.ws?.send(JSON.stringify({ type: "sync" }));
      return;
    }
    const title = t(`errorCodes.${m.code}`);
    toast(`${typeof title === "string" && !title.startsWith("errorCodes") ? title : t("error")}: ${m.message}`);
    if (S.msg) render();
  }
}

function send(actionText) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN || S.pending || !S.msg) return;
  S.pending = true;
  S.selected.clear();
  S.ws.send(JSON.stringify({ type: "action", action: actionText, version: S.msg.version, id: newId() }));
  renderGame();
}

function render() {
  if (!S.msg) return;
  if (S.msg.status === "lobby") renderLobby();
  else renderGame();
}

// ------------------------------------------------------------------- names
function seatName(seat) {
  const info = S.msg.seats[seat];
  const name = info.kind === "bot" ? t("botName", { n: seat + 1 }) : info.name || t("seat", { n: seat + 1 });
  return seat === S.seat ? `${name} (${t("you")})` : name;
}

function teamOf(seat) {
  return S.msg.players === 4 ? seat % 2 : seat;
}

function teamName(team) {
  if (S.msg.players !== 4) return seatName(team);
  if (S.seat !== null) return team === teamOf(S.seat) ? t("us") : t("them");
  return t("team", { a: seatName(team), b: seatName(team + 2) });
}

function posOf(seat) {
  const n = S.msg.players;
  const base = S.seat ?? 0;
  return POSITIONS[n][(seat - base + n) % n];
}

// ------------------------------------------------------------------- lobby
function renderLobby() {
  show("lobby");
  const m = S.msg;
  $("#lobby-title").textContent = `${t("lobbyTitle", { id: m.table, rules: t(`rules.${m.rules}`) })} · ${m.players}`;
  $("#invite-link").value = `${location.origin}/?table=${m.table}`;
  const nameInput = $("#lobby-name");
  if (!nameInput.value) nameInput.value = myName();
  nameInput.closest("label").hidden = S.seat !== null;
  const list = $("#seat-list");
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
    if (seat.kind === "bot") who.textContent += ` · ${seat.bot}`;
    else if (seat.kind === "human" && !seat.connected) who.textContent += ` · ${t("offline")}`;
    li.append(label, who);
    const buttons = document.createElement("span");
    buttons.className = "seat-buttons";
    if (seat.kind === "empty" && S.seat === null) buttons.append(button(t("sitHere"), "sit", () => sit(seat.seat)));
    if (seat.kind === "empty" && S.seat !== null) {
      buttons.append(button(t("addBot"), "add-bot", () => setBot(seat.seat)));
    }
    if (seat.kind === "bot" && S.seat !== null) buttons.append(button(t("remove"), "remove", () => clearSeat(seat.seat)));
    if (seat.kind === "human" && seat.seat === S.seat) buttons.append(button(t("leave"), "leave", () => clearSeat(seat.seat, true)));
    li.append(buttons);
    list.append(li);
  }
  const empty = m.seats.some((s) => s.kind === "empty");
  const start = $("#start-btn");
  start.hidden = S.seat === null;
  start.disabled = empty;
  const hints = [];
  if (S.seat === null) hints.push(t("youAreSpectator"));
  else if (empty) hints.push(t("needAllSeats"));
  if (m.players === 4) hints.push(t("partners"));
  const kinds = $("#bot-kind");
  const bots = S.catalog?.bots || ["heuristic"];
  if (kinds.options.length !== bots.length) {
    kinds.innerHTML = "";
    for (const b of bots) kinds.add(new Option(b, b, false, b === (S.catalog?.default_bot || "heuristic")));
  }
  kinds.closest("label").hidden = S.seat === null;
  $("#lobby-hint").textContent = hints.join(" ");
}

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

async function sit(seat) {
  const name = $("#lobby-name").value.trim();
  if (!name) {
    $("#lobby-name").focus();
    toast(t("yourName"));
    return;
  }
  localStorage.setItem("goat:name", name);
  try {
    const { token } = await api("POST", `/api/tables/${S.tableId}/seats/${seat}`, { name });
    saveSeat(S.tableId, token, seat);
    S.token = token;
    reconnect();
  } catch (err) {
    toast(err.message);
  }
}

async function setBot(seat) {
  try {
    await api("POST", `/api/tables/${S.tableId}/seats/${seat}/bot`, { bot: $("#bot-kind").value || "heuristic" }, S.token);
  } catch (err) {
    toast(err.message);
  }
}

async function clearSeat(seat, mine = false) {
  try {
    await api("DELETE", `/api/tables/${S.tableId}/seats/${seat}`, null, S.token);
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
    await api("POST", `/api/tables/${S.tableId}/start`, null, S.token);
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
  show("game");
  const m = S.msg;
  const v = m.view;
  if (!v) return;
  const hadFocus = document.activeElement && document.activeElement.closest?.("#hand, #actions");
  renderSeats(m, v);
  renderCenter(v);
  renderHand(v);
  renderStatus(v);
  renderLastTrick(v);
  renderScore(v);
  updateLog(v);
  renderResult(v);
  if (hadFocus) restoreFocus(hadFocus.closest("#actions") ? "actions" : "hand");
}

function renderSeats(m, v) {
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
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = (v.current_player === seat ? "▶ " : "") + seatName(seat);
    box.append(name);
    const badges = document.createElement("div");
    badges.className = "badges";
    const tags = [];
    if (v.dealer === seat) tags.push(t("dealer"));
    if (info.kind === "bot") tags.push(info.bot);
    if (info.autoplay) tags.push(t("away"));
    else if (info.kind === "human" && !info.connected) tags.push(t("offline"));
    tags.push(t("tricks", { n: v.tricks_by_seat[seat] }));
    for (const tag of tags) {
      const span = document.createElement("span");
      span.className = "badge";
      span.textContent = tag;
      badges.append(span);
    }
    box.append(badges);
    if (seat !== S.seat) {
      const fan = document.createElement("div");
      fan.className = "fan";
      const count = v.hand_sizes[seat];
      for (let i = 0; i < Math.min(count, 8); i += 1) fan.append(cardBack("small"));
      fan.setAttribute("aria-label", t("cardsLeft", { n: count }));
      fan.title = t("cardsLeft", { n: count });
      box.append(fan);
    }
  }
}

function renderCenter(v) {
  const trump = $("#trump");
  trump.innerHTML = "";
  if (v.trump_suit) {
    const label = document.createElement("span");
    label.className = "trump-label";
    label.textContent = `${t("trump")}: ${SYMBOLS[v.trump_suit]} ${v.trump_suit} (${t(`suits.${v.trump_suit}`)})`;
    trump.append(label);
    if (v.trump_card) trump.append(cardFace(v.trump_card));
    if (v.options.permanent_trumps) {
      const note = document.createElement("span");
      note.className = "trump-note";
      note.textContent = t("trumpNote");
      trump.append(note);
    }
  }
  $("#stock").textContent = v.options.hand_size * v.players < deckSize(v) ? t("stock", { n: v.stock_size }) : t("noStock");
  for (const slot of document.querySelectorAll("#trick .slot")) slot.innerHTML = "";
  v.trick.forEach((play, index) => {
    const slot = $(`#trick .slot[data-pos="${posOf(play.seat)}"]`);
    const group = document.createElement("div");
    group.className = "play" + (index === v.trick_best ? " best" : "");
    group.setAttribute("aria-label", `${seatName(play.seat)}: ${describeCards(play)}`);
    if (play.cards) for (const c of play.cards) group.append(cardFace(c));
    else for (let i = 0; i < play.count; i += 1) group.append(cardBack());
    if (index === v.trick_best && v.trick.length > 1) {
      const star = document.createElement("span");
      star.className = "best-mark";
      star.textContent = "★";
      group.append(star);
    }
    slot.append(group);
  });
  const result = $("#deal-result");
  const last = v.deal_results[v.deal_results.length - 1];
  if (v.phase === "deal" && last && !v.match_over) {
    result.hidden = false;
    result.textContent = dealSummary(v.deal_results.length, last);
  } else {
    result.hidden = true;
  }
}

function deckSize(v) {
  return { "24": 24, "32": 32, "36": 36 }[v.options.deck] || 32;
}

function describeCards(play) {
  return play.cards ? play.cards.map(cardName).join(", ") : t("passes", { name: "", n: play.count }).trim();
}

function renderHand(v) {
  const hand = $("#hand");
  hand.innerHTML = "";
  const legal = myLegal(v);
  const street = v.options.trick_style === "street";
  const cards = v.hand || [];
  hand.hidden = S.seat === null;
  const lead = JSON.stringify([v.deal_number, v.tricks_played, v.molodkas_this_trick, v.trick[0] || null]);
  if (lead !== S.lead) S.selected.clear();  // a new trick, or a molodka restarted it: choose again
  S.lead = lead;
  for (const c of [...S.selected]) if (!cards.includes(c)) S.selected.delete(c);
  S.focus = Math.max(0, Math.min(S.focus, cards.length - 1));
  cards.forEach((card, index) => {
    const el = cardFace(card, "button");
    el.type = "button";
    const playable = !S.pending && legal.some((a) => a.verb !== "molodka" && a.cards.includes(card)
                                               && (street || a.cards.length === 1));
    el.dataset.legal = String(playable);
    el.classList.toggle("illegal", !playable && legal.length > 0);  // dimmed only when I may act
    el.setAttribute("aria-disabled", String(!playable));
    if (street) el.setAttribute("aria-pressed", String(S.selected.has(card)));
    if (S.selected.has(card)) el.classList.add("selected");
    if (v.must_lead === card) el.classList.add("must");
    el.setAttribute("aria-label", cardName(card) + (playable ? "" : ` — ${t("notPlayable")}`)
                    + (S.selected.has(card) ? ` — ${t("selected")}` : ""));
    el.tabIndex = index === S.focus ? 0 : -1;
    el.addEventListener("click", () => { S.focus = index; activate(card); });
    hand.append(el);
  });
  renderActions(v, legal, street);
}

function renderActions(v, legal, street) {
  const key = setKey(S.selected);
  const myTurn = S.seat !== null && v.current_player === S.seat && v.phase === "play";
  const play = legal.find((a) => a.verb === "play" && setKey(a.cards) === key);
  const pass = legal.find((a) => a.verb === "pass" && setKey(a.cards) === key);
  const molodka = legal.find((a) => a.verb === "molodka");
  const playBtn = $("#act-play");
  playBtn.hidden = !(street && myTurn);
  playBtn.textContent = v.trick.length ? t("beat") : t("lead");
  playBtn.disabled = !play || S.pending;
  playBtn.onclick = () => play && send(play.text);
  const passBtn = $("#act-pass");
  passBtn.hidden = !(street && myTurn && v.trick.length);
  passBtn.disabled = !pass || S.pending;
  passBtn.onclick = () => pass && send(pass.text);
  const molodkaBtn = $("#act-molodka");
  molodkaBtn.hidden = !molodka;
  molodkaBtn.disabled = S.pending;
  molodkaBtn.textContent = molodka ? `${t("molodka")} ${cardsText(molodka.cards)}` : t("molodka");
  molodkaBtn.onclick = () => molodka && send(molodka.text);
  const clearBtn = $("#act-clear");
  clearBtn.hidden = !(street && S.selected.size);
  clearBtn.onclick = () => { S.selected.clear(); renderGame(); };
  const buttons = visibleActions();
  buttons.forEach((b, i) => { b.tabIndex = i === Math.min(S.actionFocus, buttons.length - 1) ? 0 : -1; });
}

function visibleActions() {
  return [...document.querySelectorAll("#actions button")].filter((b) => !b.hidden);
}

function activate(card) {
  const v = S.msg.view;
  const legal = myLegal(v);
  if (v.options.trick_style === "street") {
    if (!legal.some((a) => a.verb !== "molodka" && a.cards.includes(card))) {
      toast(`${short(card)}: ${t("notPlayable")}`);
      return;
    }
    if (S.selected.has(card)) S.selected.delete(card);
    else S.selected.add(card);
    renderGame();
    return;
  }
  const action = legal.find((a) => a.verb !== "molodka" && a.cards.length === 1 && a.cards[0] === card);
  if (action && !S.pending) send(action.text);
  else if (!S.pending) toast(`${short(card)}: ${t("notPlayable")}`);
}

function restoreFocus(where) {
  if (where === "actions") {
    const buttons = visibleActions();
    if (buttons.length) {
      buttons[Math.min(S.actionFocus, buttons.length - 1)].focus();
      return;
    }
  }
  const cards = [...document.querySelectorAll("#hand .card")];
  if (cards.length) cards[Math.min(S.focus, cards.length - 1)].focus();
}

function onHandKey(event) {
  const cards = [...document.querySelectorAll("#hand .card")];
  if (!cards.length) return;
  let next = S.focus;
  if (event.key === "ArrowRight") next = (S.focus + 1) % cards.length;
  else if (event.key === "ArrowLeft") next = (S.focus - 1 + cards.length) % cards.length;
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
  if (event.key === "ArrowRight") next = (at + 1) % buttons.length;
  else if (event.key === "ArrowLeft") next = (at - 1 + buttons.length) % buttons.length;
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

function renderStatus(v) {
  let text;
  const myTurn = S.seat !== null && v.current_player === S.seat;
  if (v.match_over) text = t("matchOver");
  else if (v.phase === "deal") text = t("dealing");
  else if (myTurn && v.phase === "partner-exchange") text = t("yourTurnGive");
  else if (myTurn && v.phase === "forced-exchange") text = t("yourTurnReturn");
  else if (myTurn && v.options.trick_style === "street") {
    text = v.trick.length ? t("yourTurnBeat", { n: v.trick[0].cards ? v.trick[0].cards.length : v.trick[0].count })
                          : t("yourTurnLead");
  } else if (myTurn) text = t("yourTurnPlay");
  else text = t("waitingFor", { name: seatName(v.current_player) });
  if (myTurn && v.must_lead) text += ` ${t("mustLead", { card: short(v.must_lead) })}`;
  if (!myTurn && myLegal(v).some((a) => a.verb === "molodka")) text += ` ${t("molodkaOffer")}`;
  const status = $("#status");
  if (status.textContent !== text) status.textContent = text;
  status.classList.toggle("my-turn", myTurn && !v.match_over);
}

function renderLastTrick(v) {
  const btn = $("#last-trick-btn");
  btn.textContent = S.showLast ? t("hideLastTrick") : t("lastTrick");
  btn.setAttribute("aria-expanded", String(S.showLast));
  const panel = $("#last-trick");
  panel.hidden = !S.showLast;
  if (!S.showLast) return;
  panel.innerHTML = "";
  if (!v.last_trick) {
    panel.textContent = t("noLastTrick");
    return;
  }
  for (const play of v.last_trick.plays) {
    const row = document.createElement("div");
    row.className = "last-row";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = seatName(play.seat);
    row.append(who);
    if (play.cards) for (const c of play.cards) row.append(cardFace(c));
    else for (let i = 0; i < play.count; i += 1) row.append(cardBack("small"));
    panel.append(row);
  }
  const took = document.createElement("p");
  took.textContent = t("tookTrick", { name: seatName(v.last_trick.winner) });
  panel.append(took);
}

function teamsCount() {
  return S.msg.players === 4 ? 2 : S.msg.players;
}

function renderScore(v) {
  const teams = teamsCount();
  const table = $("#score");
  const head = document.createElement("tr");
  head.innerHTML = `<th scope="col">${t("deal")}</th>`;
  for (let team = 0; team < teams; team += 1) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = teamName(team);
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  const body = document.createDocumentFragment();
  v.deal_results.forEach((deal, index) => {
    const tr = document.createElement("tr");
    tr.className = "deal-row";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = String(index + 1);
    tr.append(th);
    for (let team = 0; team < teams; team += 1) {
      const td = document.createElement("td");
      const pen = deal.penalty[team];
      td.textContent = `${deal.points[team]}` + (pen ? ` · +${pen}` : "");
      if (pen) td.classList.add("penalized");
      tr.append(td);
    }
    const note = endNote(deal);
    if (note) tr.title = note;
    body.append(tr);
    if (note) {
      const noteRow = document.createElement("tr");
      noteRow.className = "note-row";
      noteRow.innerHTML = `<td colspan="${teams + 1}"></td>`;
      noteRow.firstChild.textContent = note;
      body.append(noteRow);
    }
  });
  table.tBodies[0].replaceChildren(body);
  const foot = document.createElement("tr");
  foot.innerHTML = `<th scope="row">${t("penalty")}</th>`;
  const target = v.options.match_target;
  for (let team = 0; team < teams; team += 1) {
    const td = document.createElement("td");
    td.textContent = `${v.penalty_total[team]} / ${target}`;
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.setProperty("--fill", `${Math.min(100, (100 * v.penalty_total[team]) / target)}%`);
    td.append(bar);
    foot.append(td);
  }
  table.tFoot.replaceChildren(foot);
  $("#score-note").textContent = t("toLose", { n: target });
}

function endNote(deal) {
  const reason = t(`endedBy.${deal.ended_by}`);
  if (reason) return reason;
  if (deal.points.length === 2 && deal.points[0] === 60 && deal.points[1] === 60) return t("eggs");
  return "";
}

function dealSummary(number, deal) {
  const teams = deal.points.length;
  const points = deal.points.map((p, team) => `${teamName(team)} ${p}`).join(" – ");
  let penalty = "";
  for (let team = 0; team < teams; team += 1) {
    if (deal.penalty[team]) penalty += t("penaltyTo", { team: teamName(team), p: deal.penalty[team] });
  }
  const note = endNote(deal);
  return t("dealEnd", { n: number, points, penalty }) + (note ? ` (${note})` : "");
}

// --------------------------------------------------------------------- log
function addLog(text) {
  const li = document.createElement("li");
  li.textContent = text;
  const log = $("#log");
  log.append(li);
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function describe(entry) {
  const a = parseAction(entry);
  const name = seatName(a.seat);
  const hidden = a.cards.includes("?");
  if (a.verb === "pass") return t("passes", { name, n: a.cards.length }) + (hidden ? "" : `: ${cardsText(a.cards)}`);
  if (a.verb === "give") return hidden ? t("gives", { name }) : t("givesCard", { name, cards: cardsText(a.cards) });
  if (a.verb === "molodka") return t("declares", { name, cards: cardsText(a.cards) });
  return t("plays", { name, cards: cardsText(a.cards) });
}

function updateLog(v) {
  const tricks = v.tricks_won.reduce((x, y) => x + y, 0);
  if (!S.log) S.log = { deal: -1, count: 0, tricks: 0, results: v.deal_results.length };
  if (v.deal_number !== S.log.deal) {
    S.log.deal = v.deal_number;
    S.log.count = 0;
    S.log.tricks = 0;
    if (v.deal_number > 0 && v.trump_suit) {
      const trump = `${SYMBOLS[v.trump_suit]} ${v.trump_suit}` + (v.trump_card ? ` (${short(v.trump_card)})` : "");
      addLog(t("dealStart", { n: v.deal_number, dealer: seatName(v.dealer), trump }));
    }
  }
  for (let i = S.log.count; i < v.history.length; i += 1) addLog(describe(v.history[i]));
  S.log.count = v.history.length;
  if (tricks > S.log.tricks && v.last_trick) addLog(t("trickTo", { name: seatName(v.last_trick.winner) }));
  S.log.tricks = tricks;
  while (S.log.results < v.deal_results.length) {
    S.log.results += 1;
    addLog(dealSummary(S.log.results, v.deal_results[S.log.results - 1]));
  }
}

function renderResult(v) {
  const box = $("#result");
  box.hidden = !v.match_over || S.resultClosed;
  if (!v.match_over) return;
  const loser = v.loser_team;
  const parts = [];
  if (S.seat !== null && loser !== null) parts.push(teamOf(S.seat) === loser ? t("youLost") : t("youWon"));
  if (loser !== null) parts.push(t("goatIs", { team: teamName(loser), p: v.penalty_total[loser] }));
  $("#result-text").textContent = parts.join(" ");
  $("#record-link").href = `/api/tables/${S.tableId}/record`;
}

// -------------------------------------------------------------------- init
function init() {
  applyStatic();
  for (const b of document.querySelectorAll(".lang")) {
    b.addEventListener("click", () => {
      setLang(b.dataset.lang);
      applyStatic();
      if (S.catalog && !$("#home").hidden) fillRules();
      if (S.msg) {
        S.log = null;
        $("#log").innerHTML = "";
        render();
      }
    });
  }
  $("#create-form").addEventListener("submit", createTable);
  $("#create-rules").addEventListener("change", fillPlayers);
  $("#copy-invite").addEventListener("click", async () => {
    const link = $("#invite-link");
    link.select();
    try { await navigator.clipboard.writeText(link.value); } catch { document.execCommand?.("copy"); }
    toast(t("copied"));
  });
  $("#start-btn").addEventListener("click", startGame);
  $("#hand").addEventListener("keydown", onHandKey);
  $("#actions").addEventListener("keydown", onActionsKey);
  $("#last-trick-btn").addEventListener("click", () => { S.showLast = !S.showLast; renderLastTrick(S.msg.view); });
  $("#result-close").addEventListener("click", () => { S.resultClosed = true; $("#result").hidden = true; });

  const id = new URLSearchParams(location.search).get("table");
  if (!id) {
    showHome();
    return;
  }
  S.tableId = id;
  const saved = savedSeat(id);
  S.token = saved?.token || null;
  api("GET", "/api/games").then((c) => { S.catalog = c; if (S.msg) render(); }).catch(() => {});
  connect();
}

init();
