// Hints at a table that allows them (the table's `hints` setting, chosen when it
// was made and shown in the lobby to everyone): on my turn a "Hint" button (and
// the H key) asks the server what a strong bot would play in my seat
// (POST /api/tables/{id}/hint, computed from my view only). The answer is the
// action text the page would send to play it; the page marks it — the card in
// my hand (street: the cards selected, and the Beat/Pass button), the bid
// button (Spades), the action button (Yu-Gi-Oh!) — until the position moves
// on, and the aria-live log says it ("Подсказка: 8♠"). A hint computed for a
// position the table has left is stale and shown nowhere: the state message's
// `since` is the version since which my position stands (another seat turning its
// cards over is a new version, not a new position). The page still plays
// nothing by itself: the player clicks (or presses Enter) as always. While my
// hand is face down (Spades before a blind bid) no hint is offered: it would
// read the cards I have not looked at.

import { t } from "./i18n.js";
import { SAID, SHOWN } from "./cards.js";
import { $, S, api, button, spoken, toast } from "./table.js";

let redraw = () => {};
let asking = null;          // "table/version" of the hint on its way, or null
let blind = false;          // my hand is drawn face down (Spades before a blind bid): no hint

/** Whose decision it is in this view: a trick game's current player, a duel's deciding seat. */
function toAct(v) {
  return v.current_player ?? v.decision?.seat ?? null;
}

/** Whether I may ask now: a table with hints, in play, my turn, with an action to take. */
function mayAsk() {
  const m = S.msg;
  const v = m?.view;
  if (!m || !m.hints || m.status !== "playing" || S.seat === null || !v || v.match_over || blind) return false;
  return toAct(v) === S.seat && (v.legal_actions || []).some((a) => a.startsWith(`${S.seat} `));
}

/** Whether a hint computed at `version` is for the position on screen. */
function standing(version) {
  const m = S.msg;
  return !!m && (m.since ?? m.version) <= version && version <= m.version;
}

/** The hint for the position on screen, or null (none asked, or it is stale). */
function currentHint() {
  const h = S.hint;
  return h && h.table === S.tableId && standing(h.version) && h.seat === S.seat ? h : null;
}

async function ask() {
  if (!mayAsk() || S.pending) return;
  const key = `${S.tableId}/${S.msg.version}`;
  if (asking === key) return;
  if (currentHint()) {        // asked already: say it again
    say(currentHint());
    return;
  }
  asking = key;
  redraw();
  try {
    const hint = await api("POST", `api/tables/${S.tableId}/hint`, null, S.token);
    if (hint.current && hint.table === S.tableId && standing(hint.version)) {
      S.hint = hint;
      if (multiCard() && hint.cards?.length) S.selected = new Set(hint.cards);   // street: choose them
      if (S.duel) { S.duel.filter = null; S.duel.search = ""; }                  // a duel: show every action
      redraw();
      say(hint);
    }
  } catch (err) {
    toast(err.message);
  } finally {
    if (asking === key) asking = null;
    redraw();
  }
}

function multiCard() {
  const v = S.msg?.view;
  return S.msg?.game === "kozel" && v?.options?.trick_style === "street";
}

/** The hint in words: its cards ("8♠", "K♥ A♥", as `voice` writes them: cards.js),
 * else the button that plays it. */
function describe(hint, voice = SHOWN) {
  if (hint.cards?.length) {
    const cards = voice.cards(hint.cards);
    if (hint.verb === "pass") return `${t("passDown")}: ${cards}`;
    if (hint.verb === "molodka") return `${t("molodka")} ${cards}`;
    return cards;
  }
  const target = marked(hint)[0];
  if (!target) return hint.action;
  return target.dataset.hintLabel ?? target.getAttribute("aria-label") ?? target.textContent;
}

/** Tell the log (aria-live: screen readers read it out). */
function say(hint) {
  const log = $("#duel-log") && !$("#duel").hidden ? $("#duel-log") : $("#log");
  if (!log) return;
  const li = document.createElement("li");
  li.className = "hint-line";
  spoken(li, t("hints.said", { what: describe(hint) }), t("hints.said", { what: describe(hint, SAID) }));
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

/** The controls that play `hint` on screen now. */
function marked(hint) {
  const found = [];
  if (hint.verb === "bid") {
    found.push(...document.querySelectorAll(`#bid-buttons button[data-bid="${CSS.escape(hint.bid)}"]`));
  } else if (hint.cards) {
    for (const card of hint.cards) found.push(...document.querySelectorAll(`#hand button.card[data-card="${card}"]`));
    if (multiCard()) {
      const id = { play: "#act-play", pass: "#act-pass", molodka: "#act-molodka" }[hint.verb];
      if (id && !$(id).hidden) found.push($(id));
    }
  } else {
    found.push(...document.querySelectorAll(`#duel-groups button[data-action="${CSS.escape(hint.action)}"]`));
  }
  return found;
}

/** The Hint button of the page on screen: the trick table's, in its actions
 * toolbar; the duel's, made here at the head of its actions box. */
function hintButton() {
  const duel = $("#duel");
  if (duel && !duel.hidden) {
    let b = $("#duel-hint");
    if (!b) {
      b = button("", "hint-btn", ask);
      b.id = "duel-hint";
      $("#duel-actions .duel-filter")?.prepend(b);
    }
    return b;
  }
  return $("#act-hint");
}

/** Show or hide the Hint button (before the toolbar's keyboard order is set).
 * `faceDown`: my hand is drawn face down, so that a blind bid is made unseen; a
 * hint would be computed from the cards I chose not to look at, so none is offered. */
export function drawHintButton(faceDown = false) {
  blind = faceDown;
  const b = hintButton();
  if (!b) return;
  b.hidden = !mayAsk();
  b.disabled = S.pending || asking !== null;
  b.textContent = asking ? t("hints.asking") : t("hints.button");
  b.title = t("hints.title");
  b.setAttribute("aria-keyshortcuts", "H");
  b.setAttribute("aria-label", `${t("hints.button")} (H)`);
  b.onclick = ask;
}

/** Mark what the current hint plays (after the hand and the actions are drawn). */
export function drawHintMarks() {
  for (const node of document.querySelectorAll(".hinted")) {   // a control kept from an earlier draw (Spades' bids)
    node.classList.remove("hinted");
    if (node.dataset.hintLabel !== undefined) node.setAttribute("aria-label", node.dataset.hintLabel);
    delete node.dataset.hintLabel;
  }
  const hint = currentHint();
  if (!hint) return;
  for (const node of marked(hint)) {
    node.classList.add("hinted");
    const label = node.getAttribute("aria-label");
    if (label) {
      node.dataset.hintLabel = label;
      node.setAttribute("aria-label", `${label} — ${t("hints.mark")}`);
    }
  }
}

/** Both, for a page drawn in one go (the duel). */
export function drawHint() {
  drawHintButton();
  drawHintMarks();
}

/** Start: `again` redraws the page; the H key asks (any keyboard layout: the key, not the letter). */
export function initHints(again) {
  redraw = again;
  document.addEventListener("keydown", (event) => {
    if (event.code !== "KeyH" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    if (!mayAsk()) return;
    event.preventDefault();
    ask();
  });
}
