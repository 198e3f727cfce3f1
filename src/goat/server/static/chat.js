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
// The panel is one element that app.js's render() moves to the page shown
// (placeChat): the lobby, the trick table's side column or the duel's.

import { t } from "./i18n.js";
import { $, S, el, seatName } from "./table.js";

export const CHAT_LIMIT = 300;    // characters; the server refuses longer (goat.server.chat.TEXT_LIMIT)

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
  toggle.append(el("span", "chat-title"), el("span", "chat-unread"));
  toggle.querySelector(".chat-unread").hidden = true;
  head.append(toggle);
  const body = el("div", "chat-body");
  body.id = "chat-body";
  const list = el("ol", "chat-list");
  list.id = "chat-list";
  list.setAttribute("role", "log");
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
  body.append(list, form, note);
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

function entry(m) {
  const li = el("li", "chat-msg");
  li.dataset.n = String(m.n);
  if (m.seat === S.seat) li.classList.add("mine");
  const time = el("time", "chat-time");
  const at = new Date(m.at);
  if (!Number.isNaN(at.getTime())) {
    time.dateTime = m.at;
    time.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  li.append(time, " ", el("span", "chat-who", who(m)), ": ", el("span", "chat-text", m.text));
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
    if (announce && !isOpen()) C.unread += 1;
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
  if (!text || S.seat === null || !S.ws || S.ws.readyState !== WebSocket.OPEN) return;
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
  const seated = S.seat !== null && S.seat !== undefined;
  $("#chat-input").disabled = !seated;
  $("#chat-send").disabled = !seated;
  $("#chat-note").textContent = seated ? "" : t("chat.spectator");
  $("#chat-note").hidden = seated;
}

/** Build the panel and follow the page's language. */
export function initChat() {
  build();
  drawTexts();
  for (const b of document.querySelectorAll(".lang")) {
    b.addEventListener("click", () => {
      drawTexts();
      const list = $("#chat-list");
      list.setAttribute("aria-live", "off");
      list.replaceChildren(...C.entries.map(entry));
      setTimeout(() => list.setAttribute("aria-live", "polite"), 0);
      if (S.msg) placeChat();
    });
  }
}
