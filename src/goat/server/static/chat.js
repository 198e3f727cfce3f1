// Table chat: one small panel beside every table (the lobby, the trick table,
// the duel page) where the seated people talk ("хорошая игра", "ещё партию?").
// The server's protocol (docs/server.md): a seated page sends
// {type: "chat", text}; every page at the table gets {type: "chat", seat, name,
// text, at, n} at once, and right after its hello {type: "chat-log", messages}
// with the recent ones (kept in the server's memory only: a restart forgets the
// chat, never the game). Spectators read but do not write.
//
// Safety and manners:
// * text is shown with textContent only, never as HTML: people type what they like;
// * new lines are announced politely (role="log", aria-live="polite") and nothing
//   here ever moves the focus, so the hand keeps it;
// * keys typed in the input stay in the input: they never reach the table's
//   shortcuts (arrows, Enter to play, and any key a document-level handler
//   listens to), since the input stops them from bubbling;
// * on a phone the panel starts collapsed and counts the unread messages.
//
// Moderation:
// * the table setting `chat` (chosen in the create form: "on", "lobby" — closed
//   while the game is played, against table talk — or "off"; the server decides
//   in goat.server.chat.closed_reason and refuses with `chat-closed`): while it
//   closes the chat, the input and Send are disabled and a note says why;
// * anyone may mute one seat's person ("Mute Аня" beside each of their messages):
//   their messages, shown and new, are hidden on this page only, are not counted
//   as unread and are not announced; a line "Messages of Аня hidden · Show"
//   undoes it. Nothing goes to the server — it still sends every message to
//   everyone; muting is a choice of this browser, kept in localStorage per table
//   and by seat and name (so a reload keeps it, and someone else who later takes
//   that seat is not muted for it).
//
// The panel is one element that app.js's render() moves to the page shown
// (placeChat): the lobby, the trick table's side column or the duel's.

import { locale, t } from "./i18n.js";
import { $, S, el, online, seatName, toast } from "./table.js";

export const CHAT_LIMIT = 300;    // characters; the server refuses longer (goat.server.chat.TEXT_LIMIT)
/** The table setting's values (goat.server.chat.CHAT_SETTINGS), the default first. */
export const CHAT_SETTINGS = ["on", "lobby", "off"];
const SETTING_TEXT = { on: "chat.settingOn", lobby: "chat.settingLobby", off: "chat.settingOff" };

const C = {
  last: 0,          // the highest message number shown
  unread: 0,        // messages that arrived while the panel was collapsed
  sent: null,       // the input's text as sent: cleared when it comes back from the server
  entries: [],      // the messages shown, to redraw them (a new language)
};

function phone() {
  return window.matchMedia?.("(max-width: 600px)").matches ?? false;
}

/** The panel, built once (hidden until a table is open). */
function build() {
  const panel = el("section", "panel chat");
  panel.id = "chat";
  panel.hidden = true;
  const head = el("h2", "chat-head");
  const toggle = el("button", "chat-toggle");
  toggle.type = "button";
  toggle.id = "chat-toggle";
  toggle.setAttribute("aria-controls", "chat-body");
  const title = el("span", "chat-title");
  title.id = "chat-title";
  toggle.append(title, el("span", "chat-unread"));
  toggle.querySelector(".chat-unread").hidden = true;
  head.append(toggle);
  const body = el("div", "chat-body");
  body.id = "chat-body";
  // A list read out as it grows, as the table's log: not role="log", which would
  // unmake the list its messages are items of (axe: listitem). Focusable, so that
  // a keyboard scrolls back a long one (axe: scrollable-region-focusable).
  const list = el("ol", "chat-list");
  list.id = "chat-list";
  list.tabIndex = 0;
  list.setAttribute("aria-labelledby", "chat-title");
  list.setAttribute("aria-live", "polite");
  list.setAttribute("aria-relevant", "additions");
  const form = el("form", "chat-form");
  form.id = "chat-form";
  const input = el("input");
  input.id = "chat-input";
  input.type = "text";
  input.maxLength = CHAT_LIMIT;
  input.autocomplete = "off";
  input.setAttribute("enterkeyhint", "send");
  const sendBtn = el("button", "chat-send");
  sendBtn.type = "submit";
  sendBtn.id = "chat-send";
  form.append(input, sendBtn);
  const note = el("p", "hint chat-note");
  note.id = "chat-note";
  const muted = el("div", "chat-muted");
  muted.id = "chat-muted";
  muted.hidden = true;
  body.append(list, muted, form, note);
  panel.append(head, body);
  document.body.append(panel);

  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  form.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  for (const kind of ["keydown", "keyup", "keypress"]) {
    // Typing is for the chat alone; Escape may still close a dialog.
    input.addEventListener(kind, (event) => { if (event.key !== "Escape") event.stopPropagation(); });
  }
  setOpen(!phone());
  return panel;
}

function setOpen(open) {
  $("#chat-toggle").setAttribute("aria-expanded", String(open));
  $("#chat-body").hidden = !open;
  if (open) C.unread = 0;
  drawUnread();
}

function drawUnread() {
  const badge = $("#chat-toggle .chat-unread");
  badge.textContent = C.unread ? t("chat.unread", { n: C.unread }) : "";
  badge.hidden = !C.unread;
}

function isOpen() {
  return $("#chat-toggle").getAttribute("aria-expanded") === "true";
}

function drawTexts() {
  $("#chat-toggle .chat-title").textContent = t("chat.title");
  $("#chat-input").placeholder = t("chat.placeholder");
  $("#chat-input").setAttribute("aria-label", t("chat.input"));
  $("#chat-send").textContent = t("chat.send");
  drawUnread();
}

/** Who said it: the seat's name as the table shows it (seatName: "Аня (вы)")
 * while that seat's holder is still the one who wrote, else the name sent. */
function who(m) {
  const info = S.msg?.seats?.[m.seat];
  return info && info.kind === "human" && info.name === m.name ? seatName(m.seat) : m.name;
}

// ------------------------------------------------------------------ muting
// This page's choice only: never sent to the server (see the top of the file).

function muteKey() {
  return `goat:chat-muted:${S.tableId}`;
}

/** The muted people at this table: [[seat, name], ...] as this browser stored them. */
function mutedList() {
  try {
    const value = JSON.parse(localStorage.getItem(muteKey()));
    return Array.isArray(value) ? value.filter((p) => Array.isArray(p) && p.length === 2) : [];
  } catch {
    return [];
  }
}

function isMuted(m) {
  return mutedList().some(([seat, name]) => seat === m.seat && name === m.name);
}

/** Mute (or, with `on` false, show again) the person `name` at `seat`; then
 * the list is redrawn and the focus goes to what replaces the control used
 * (the line's "Show", or the input): a keyboard user is not left on nothing. */
function setMuted(seat, name, on) {
  const others = mutedList().filter(([s, n]) => !(s === seat && n === name));
  const list = on ? [...others, [seat, name]] : others;
  if (list.length) localStorage.setItem(muteKey(), JSON.stringify(list));
  else localStorage.removeItem(muteKey());
  redraw();
  const show = [...document.querySelectorAll("#chat-muted .chat-show")]
    .find((b) => b.dataset.seat === String(seat) && b.dataset.name === name);
  if (on && show) show.focus();
  else if (!$("#chat-input").disabled) $("#chat-input").focus();
  else $("#chat-toggle").focus();
}

/** One line a muted person: "Messages of Аня hidden · Show". */
function drawMuted() {
  const box = $("#chat-muted");
  box.replaceChildren(...mutedList().map(([seat, name]) => {
    const line = el("p", "hint chat-muted-line", `${t("chat.muted", { name })} · `);
    const show = el("button", "chat-show", t("chat.show"));
    show.type = "button";
    show.dataset.seat = String(seat);
    show.dataset.name = name;
    show.setAttribute("aria-label", t("chat.showLabel", { name }));
    show.addEventListener("click", () => setMuted(seat, name, false));
    line.append(show);
    return line;
  }));
  box.hidden = !box.childElementCount;
}

/** The list drawn again from the kept messages (a new language, a mute), silently. */
function redraw() {
  const list = $("#chat-list");
  list.setAttribute("aria-live", "off");
  list.replaceChildren(...C.entries.map(entry));
  setTimeout(() => list.setAttribute("aria-live", "polite"), 0);
  drawMuted();
}

function entry(m) {
  const li = el("li", "chat-msg");
  li.dataset.n = String(m.n);
  li.hidden = isMuted(m);   // hidden, not left out: still counted among the kept 50
  if (m.seat === S.seat) li.classList.add("mine");
  const time = el("time", "chat-time");
  const at = new Date(m.at);
  if (!Number.isNaN(at.getTime())) {
    time.dateTime = m.at;
    time.textContent = at.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });
  }
  li.append(time, " ", el("span", "chat-who", who(m)));
  if (m.seat !== S.seat) {   // another seat's person: mine cannot be muted by me
    // Its glyph is CSS (::before): the line's text stays "Аня: text" for copying and
    // reading; the button's own name says whose messages it hides ("Mute Аня").
    const mute = el("button", "chat-mute");
    mute.type = "button";
    mute.setAttribute("aria-label", t("chat.mute", { name: m.name }));
    mute.title = t("chat.mute", { name: m.name });
    mute.addEventListener("click", () => setMuted(m.seat, m.name, true));
    li.append(mute);
  }
  li.append(": ", el("span", "chat-text", m.text));
  return li;
}

function add(messages, announce) {
  const list = $("#chat-list");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  if (!announce) list.setAttribute("aria-live", "off");   // a reconnect's history is not news
  for (const m of messages) {
    if (m.n <= C.last) continue;
    C.last = m.n;
    C.entries.push(m);
    list.append(entry(m));
    if (announce && !isOpen() && !isMuted(m)) C.unread += 1;   // a muted person's message is no news
    if (m.seat === S.seat && C.sent !== null && $("#chat-input").value === C.sent) {
      $("#chat-input").value = "";    // mine arrived: the input is free again
      C.sent = null;
    }
  }
  while (C.entries.length > 50) {
    C.entries.shift();
    list.firstElementChild?.remove();
  }
  if (!announce) setTimeout(() => list.setAttribute("aria-live", "polite"), 0);
  if (atBottom || !announce) list.scrollTop = list.scrollHeight;
  drawUnread();
}

function submit() {
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text || S.seat === null) return;
  if (!online()) {
    toast(t("chatNotSent"));     // as a move (app.js send): the banner says why, the text stays in the box
    return;
  }
  C.sent = input.value;
  S.ws.send(JSON.stringify({ type: "chat", text }));
}

/** A chat message from the server: handled here (true), or not a chat message (false). */
export function onChatMessage(m) {
  if (m.type === "chat") {
    add([m], true);
    return true;
  }
  if (m.type === "chat-log") {
    const newest = m.messages.length ? m.messages[m.messages.length - 1].n : 0;
    if (newest < C.last) {            // the server restarted: its numbering began again
      C.last = 0;
      C.entries = [];
      $("#chat-list").replaceChildren();
    }
    add(m.messages, false);
    drawMuted();   // this table's muted people (S.tableId is known by now), kept across a reload
    return true;
  }
  return false;
}

/** Put the panel beside the page shown (after every render): the lobby, the
 * trick table's side column, the duel's; hidden when no table is open. The
 * input is for seated people; a spectator sees why not. */
export function placeChat() {
  const panel = $("#chat");
  const pages = [["#lobby", "#lobby"], ["#game", "#game .side"], ["#duel", "#duel .side"]];
  const shown = pages.find(([page]) => $(page) && !$(page).hidden);
  const home = shown && $(shown[1]);
  panel.hidden = !home || !S.msg;
  if (panel.hidden) return;
  if (panel.parentElement !== home) {
    const typing = document.activeElement === $("#chat-input");
    if (shown[0] === "#lobby") home.append(panel);
    else home.prepend(panel);
    if (typing) $("#chat-input").focus();   // it was there already: moving must not take it away
  }
  const note = closedNote();
  $("#chat-input").disabled = Boolean(note);
  $("#chat-send").disabled = Boolean(note);
  $("#chat-note").textContent = note;
  $("#chat-note").hidden = !note;
}

/** Why this page cannot write now, or "": the table's chat setting (as the
 * server's goat.server.chat.closed_reason decides; mirrored here so nobody
 * types in vain), else being a spectator. */
function closedNote() {
  const m = S.msg;
  if (m?.chat === "off") return t("chat.off");
  if (m?.chat === "lobby" && m.status === "playing") return t("chat.closedPlay");
  if (S.seat === null || S.seat === undefined) return t("chat.spectator");
  return "";
}

/** The table's chat setting in words for the lobby's line ("Chat closed while
 * the game is played"), or "" for the default. */
export function chatNote(table) {
  if (table?.chat === "lobby") return t("chat.noteLobby");
  if (table?.chat === "off") return t("chat.noteOff");
  return "";
}

/** The create form's "Chat" choices, in the page's language. */
function fillChoice() {
  const select = $("#create-chat");
  if (!select) return;
  const chosen = select.value || CHAT_SETTINGS[0];
  select.replaceChildren(...CHAT_SETTINGS.map((v) => new Option(t(SETTING_TEXT[v]), v)));
  select.value = chosen;
}

/** The form's choice as the API takes it: "on", "lobby" or "off". */
export function chosenChat() {
  return $("#create-chat")?.value || CHAT_SETTINGS[0];
}

/** Build the panel and follow the page's language. */
export function initChat() {
  build();
  drawTexts();
  fillChoice();
  for (const b of document.querySelectorAll(".lang")) {
    b.addEventListener("click", () => {
      drawTexts();
      fillChoice();
      redraw();
      if (S.msg) placeChat();
    });
  }
}
