// What the page and every game's panels share: the page state S (the last
// message from the server, my seat, the selection), names of seats and teams,
// and the small DOM helpers. The game panels (kozel.js, spades.js) draw only
// what is their own game's; everything else is drawn once, in app.js.

import { locale, t } from "./i18n.js";

export const $ = (selector) => document.querySelector(selector);

export const S = {
  tableId: null,
  token: null,
  seat: null,          // my seat, or null when watching
  ws: null,
  msg: null,           // the last state message
  msgAt: 0,            // when it came (performance.now()): lobby countdowns count from it
  freeSeatTimer: null, // lobby: the next redraw of the "Free the seat" countdowns
  selected: new Set(), // multi-card actions (street): cards chosen for the next action
  lead: null,          // the trick the selection was made for
  focus: 0,            // index of the focused card in the hand
  actionFocus: 0,
  arriving: false,     // the table is being shown for the first time: the hand may take the focus
  pending: false,      // an action is on its way
  outbox: null,        // that action's message, until answered (sent again after a reconnect)
  resend: null,        // the outbox when the connection was made again, until its first state
  log: null,           // what the log has shown: {deal, count, tricks, results}
  showLast: false,
  resultClosed: false,
  retry: 0,
  catalog: null,
  optionEdits: {},     // lobby form: options the player changed, by name
  optionsCheck: 0,     // lobby form: the latest check of those options asked of the server
};

const POSITIONS = { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] };

let toastTimer = null;
/** Whether the table's connection is open: a move or a chat message can be sent now. */
export function online() {
  return S.ws?.readyState === WebSocket.OPEN;
}

export function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

/** A JSON request to the server: the answer, or an Error with the server's one-line reason. */
export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw refused(response, data);
  return data;
}

/** The Error of a refused request: its message the refusal in the page's language
 * now, and `refusal` the server's answer ({error, say, args}) for a page that keeps
 * showing it to word again after a language switch (the deck panel). */
export function refused(response, data) {
  return Object.assign(new Error(refusal(data) || response.statusText), { refusal: data.error ? data : null });
}

/** Whether the page's strings have `key` (in its language or English). */
function known(key) {
  const text = t(key);
  return typeof text === "string" && text !== key;
}

/** The server's refusal in the page's language where it names its sentence (`say`,
 * `args`: a seat by its index, shown counted from 1 as everywhere on the page; a
 * list of numbers as "0 or 15"; a `line` of the text sent before the sentence;
 * `problems`, refusals of their own, one a line after it), else its English line.
 * A lobby's or a deck's sentence is `lobbyErrors.<say>`; the rules engine's
 * refusal of options (goat.protocol.RulesError's kind) `rulesErrors.<say>`, its
 * option names and values shown as the options form labels them (ruleArgs). */
export function refusal(data) {
  const group = data.say && ["lobbyErrors", "rulesErrors"].find((g) => known(`${g}.${data.say}`));
  if (!group) return data.error;
  const args = group === "rulesErrors" ? ruleArgs(data.args || {}) : { ...(data.args || {}) };
  if (typeof args.seat === "number") args.n = args.seat + 1;
  for (const [name, value] of Object.entries(args)) {
    if (Array.isArray(value) && value.every((v) => typeof v !== "object")) {
      args[name] = new Intl.ListFormat(locale(), { type: "disjunction" }).format(value.map(String));
    }
  }
  let text = t(`${group}.${data.say}`, args);
  if (typeof args.line === "number") text = t("lobbyErrors.atLine", { line: args.line, problem: text });
  if (Array.isArray(args.problems)) text = [text, ...args.problems.map((p) => `• ${refusal(p)}`)].join("\n");
  return text;
}

/** An option's value as the page shows it: yes/no, a choice by its label, "—" for none. */
export function optionValue(value) {
  return value === null ? "—" : typeof value === "boolean" ? t(value ? "yes" : "no") : named("choice", value);
}

/** A rules refusal's arguments as the options form words them: option names
 * (`option`, `needs`; the list `options`, "a and b") by their labels (`opt`),
 * values (`value`, `set`; the list `choices`) as optionValue shows them, but a
 * number as typed (0 is no choice's "none": "at least 1 (not none)" for a 0), a
 * ruleset and a game by their names. */
function ruleArgs(args) {
  const out = { ...args };
  for (const name of ["option", "needs"]) if (typeof args[name] === "string") out[name] = named("opt", args[name]);
  for (const name of ["value", "set"]) {
    if (name in args) out[name] = typeof args[name] === "number" ? String(args[name]) : optionValue(args[name]);
  }
  if (Array.isArray(args.options)) {
    out.options = new Intl.ListFormat(locale(), { type: "conjunction" }).format(args.options.map((o) => named("opt", o)));
  }
  if (Array.isArray(args.choices)) out.choices = args.choices.map(optionValue);
  if (typeof args.rules === "string") out.rules = named("rules", args.rules);
  if (typeof args.game === "string") out.game = named("games", args.game);
  if (Array.isArray(args.games)) out.games = args.games.map((g) => named("games", g));
  return out;
}

/** My seat's token at table `id`, as the page stored it (`{token, seat}`), or null. */
export function savedSeat(id) {
  try { return JSON.parse(localStorage.getItem(`goat:token:${id}`)) || null; } catch { return null; }
}

/** Keep my seat's token at table `id`: opening its link again brings me back to my seat.
 * `rematch`: the table's rematch, once it has one (rematch.js noteRematch). */
export function saveSeat(id, token, seat, rematch = null) {
  localStorage.setItem(`goat:token:${id}`, JSON.stringify(rematch ? { token, seat, rematch } : { token, seat }));
}

/** A translated name, or the name itself where the strings have none (a new ruleset). */
export function named(group, name) {
  const text = t(`${group}.${name}`);
  return typeof text === "string" && text !== `${group}.${name}` ? text : String(name);
}

/** A score as printed: a negative one with a true minus sign ("−60", not "-60"). */
export function number(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** A seat's name as every list shows it: a bot is "Bot 3" (the server's name for
 * it is not in the page's language), an unnamed seat "Seat 3". */
export function playerName(info) {
  return info.kind === "bot" ? t("botName", { n: info.seat + 1 }) : info.name || t("seat", { n: info.seat + 1 });
}

export function seatName(seat) {
  const name = playerName(S.msg.seats[seat]);
  return seat === S.seat ? `${name} (${t("you")})` : name;
}

/** What a status line waiting for `seat` adds when that seat's person is offline
 * (" Bo is offline: …"), else "": the seat waits for them for the server's grace
 * period (`goat serve --grace`, a minute by default) before a bot plays for them,
 * and "Waiting for Bo…" alone gave the others no reason for the wait, nor its end. */
export function offlineNote(seat) {
  const info = S.msg?.seats?.[seat];
  if (seat == null || info?.kind !== "human" || info.connected || info.autoplay) return "";
  return ` ${t("offlineWait", { name: seatName(seat) })}`;
}

/** Nothing the player sees has the focus: the page itself, or a control now hidden
 * (Chromium leaves the focus on a button whose section was hidden). */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || active.closest("[hidden]") !== null;
}

/** After a redraw of the play area (the hand, the actions, a duel's decision): the
 * keyboard that was there and lost its place (the hand played out at a deal's end,
 * the decision gone to the other seat) is remembered as arriving, so that the next
 * control drawn (the next deal's hand, my next decision) takes the focus back rather
 * than leaving a keyboard or screen-reader player on the page's body. */
export function keepArriving(hadFocus) {
  if (!focusLost()) S.arriving = false;
  else if (hadFocus && S.seat !== null) S.arriving = true;
}

/** Show or hide a match's result dialog (role alertdialog): when it appears while
 * the focus is nowhere or in the play area (`playArea`, a selector), it takes the
 * focus, so that a screen reader reads the result (its name and text) at once. */
export function showResult(box, visible, playArea) {
  const appearing = visible && box.hidden;
  box.hidden = !visible;
  if (appearing && (focusLost() || document.activeElement.closest(playArea))) box.focus();
}

/** The way back to a match result its Close hid: a button shown while the match is
 * over and its box closed (`closed`), whose click shows the box again (`reopen`).
 * Without it "Play again", the review and the record were gone until a reload, and
 * so was a rematch another player made meanwhile ("Join the rematch"). */
export function drawResultOpener(opener, closed, reopen) {
  opener.hidden = !closed;
  opener.textContent = t("showResult");
  opener.onclick = reopen;
}

export function teamOf(seat) {
  return S.msg.players === 4 ? seat % 2 : seat;
}

export function teamsCount() {
  return S.msg.players === 4 ? 2 : S.msg.players;
}

export function teamName(team) {
  if (S.msg.players !== 4) return seatName(team);
  if (S.seat !== null) return team === teamOf(S.seat) ? t("us") : t("them");
  return pairName(team, seatName);
}

/** A partnership of four seats named by its two seats' names (`name`: seat -> name), as
 * the page names a team it does not sit in: "Ann & Bob". */
export function pairName(team, name) {
  return t("team", { a: name(team), b: name(team + 2) });
}

export function posOf(seat) {
  return placeOf(seat, S.msg.players, S.seat ?? 0);
}

/** Where `seat` sits at a table of `players` drawn with seat `bottom` at the bottom
 * ("bottom", "left", "top", "right"): the others clockwise from it, as they sit. */
export function placeOf(seat, players, bottom) {
  return POSITIONS[players][(seat - bottom + players) % players];
}

/** A new element with a class and text. */
export function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

/** Fill `node` with `shown` for the eye and `said` for screen readers (the same
 * line with its cards in words, cards.js's SHOWN and SAID): one text where they agree. */
export function spoken(node, shown, said = shown) {
  if (shown === said) {
    node.textContent = shown;
    return node;
  }
  const eye = el("span", "shown", shown);
  eye.setAttribute("aria-hidden", "true");
  node.replaceChildren(eye, el("span", "sr-only", said));
  return node;
}

/** Set a status line (role status, read out politely when it changes) to `shown` (said
 * as `said`), read out only when `tell` — my turn, the match's end: the others' moves
 * are each read from the log's line, and a "Waiting for Bot 3…" before every one of
 * them doubled what a screen reader says at a table of bots. Still there to read. */
export function sayStatus(node, tell, shown, said = shown) {
  if (node.dataset.text === shown && node.dataset.said === said) return;
  node.setAttribute("aria-live", tell ? "polite" : "off");   // before the text: the change is heard or not
  spoken(node, shown, said);
  Object.assign(node.dataset, { text: shown, said });
}

/** A seat's name, marked "▶ " while it is to move: the mark is for the eye (the
 * status line says whose turn it is in words; a reader would say "black
 * right-pointing triangle" before every name). */
export function turnName(tag, turn, name) {
  const node = el(tag, "name");
  if (turn) {
    const mark = el("span", "", "▶ ");
    mark.setAttribute("aria-hidden", "true");
    node.append(mark);
  }
  node.append(name);
  return node;
}

/** `node` read as one image named `label` (a trick's play, a hand's backs, the
 * face-up cards a seat holds): its cards are not read again one by one. */
export function oneImage(node, label) {
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
  for (const child of node.children) child.setAttribute("aria-hidden", "true");
  return node;
}

/** A score-sheet row headed by `label` (a row header, for screen readers). */
export function scoreRow(cls, label) {
  const tr = el("tr", cls);
  const th = el("th", "", label);
  th.scope = "row";
  tr.append(th);
  return tr;
}

/** A score-sheet row of one cell across `columns` columns: a note under a deal. */
export function noteRow(text, columns) {
  const tr = el("tr", "note-row");
  const td = el("td", "", text);
  td.colSpan = columns;
  tr.append(td);
  return tr;
}

/** A bar filled to `value / target` (clamped to 0..100%): a team's way to the target. */
export function progressBar(value, target, cls = "bar") {
  const bar = el("div", cls);
  bar.style.setProperty("--fill", `${Math.max(0, Math.min(100, (100 * value) / target))}%`);
  return bar;
}

/** A button for a toolbar: its click runs `onClick`. */
export function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

// ---------------------------------------------------------------- bot levels
// How strong a bot plays depends on the game and the ruleset (pimc is the
// strong one in classic, ismcts in street): the server's catalog says it for
// each ruleset (`bot_levels`, goat/server/botlevels.py), the page only words it.

/** The catalog's entry for `bot` at the table of message `m` (`{bot, level,
 * thinks, plays_like?}`), or undefined while the catalog is not loaded or for
 * a bot it does not know. */
export function botEntry(m, bot) {
  const game = S.catalog?.games?.find((g) => g.name === m.game);
  const rules = game?.rules?.find((r) => r.name === m.rules);
  return rules?.bot_levels?.find((e) => e.bot === bot);
}

/** A seated bot as people read it: "Сильный (pimc)" — the level first, the
 * token kept for those who know the names; the bare token when unknown. */
export function botLabel(m, bot) {
  const entry = botEntry(m, bot);
  return entry ? `${t(`botLevel.${entry.level}`)} (${bot})` : bot;
}

/** The one line under the lobby's bot choice: what `entry`'s bot does in
 * `game` and how long it thinks a move (the server's `bot_think` cap). */
export function botAbout(game, entry) {
  if (!entry) return "";
  const key = `botAbout.${game}.${entry.bot}`;
  const what = entry.plays_like ? t("botAbout.playsLike", { bot: entry.plays_like })
                                : (t(key) === key ? "" : t(key));      // a bot not worded yet: only its time
  let time = t("botAbout.quick");
  if (entry.thinks) {
    const s = Number(S.catalog?.bot_think ?? 0);
    time = s > 0 ? t("botAbout.thinks", { s: s.toLocaleString(locale()), n: s })
                 : t("botAbout.thinksLong");
  }
  return what ? `${what} ${time}` : time;
}
