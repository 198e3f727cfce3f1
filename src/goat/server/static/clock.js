// Time per move (a table setting, goat.server.clock): the create form's choice,
// the countdown in the box of the seat whose decision is timed, the seconds
// left beside my own turn line, one spoken warning at 10 s, and the log line
// when time ran out and a move was made for a seat.
//
// The server says whose clock runs and how many milliseconds it had left when
// the message was built (`clock: {seat, ms}`), never a wall-clock time: machines
// disagree about the time, so the page counts down from when the message came.

import { t } from "./i18n.js";
import { parseAction, SAID, SHOWN } from "./cards.js";
import { $, S, el, seatName, spoken } from "./table.js";

/** What the create form offers, in seconds ("" is off); the API takes any whole 1..3600. */
export const PRESETS = [15, 30, 60, 120, 300];
/** Seconds left at which my own clock is announced (once a decision). */
const WARN_AT = 10;

let shownFor = null;    // the state message the running countdown was started from
let endsAt = 0;         // performance.now() at which it reaches zero
let ticker = null;      // the one interval that redraws it while it runs
let warned = null;      // "table/version" whose 10-second warning was said
let told = null;        // "table/version" whose time-ran-out line is in the log
let sayMove = (action) => action.split(" ").slice(1).join(" ");   // initClock sets the page's words

/** The create form's "Time per move" choices, in the page's language. */
function fillChoice() {
  const select = $("#create-clock");
  if (!select) return;
  const chosen = select.value;
  select.replaceChildren(new Option(t("clock.off"), ""),
                         ...PRESETS.map((s) => new Option(t("clock.seconds", { n: s }), String(s))));
  select.value = chosen;
}

/** The form's choice as the API takes it: null (off) or whole seconds. */
export function chosenSeconds() {
  const value = $("#create-clock")?.value;
  return value ? Number(value) : null;
}

/** The table's setting in words for the lobby ("Time per move: 30 s"), or "". */
export function clockNote(table, short = false) {
  if (!table?.move_seconds) return "";
  return t(short ? "clock.short" : "clock.on", { n: table.move_seconds });
}

function secondsLeft() {
  return Math.max(0, Math.ceil((endsAt - performance.now()) / 1000));
}

/** The element of the box of `seat` on the page on screen (trick table or duel). */
function seatBox(seat) {
  for (const box of document.querySelectorAll(`.seat-box[data-seat="${seat}"], .duel-player[data-seat="${seat}"]`)) {
    if (!box.hidden && !box.closest("[hidden]")) return box;
  }
  return null;
}

/** My turn line's companion: the seconds left, beside the status of the page on screen. */
function mineLine() {
  const duel = $("#duel") && !$("#duel").hidden;
  const status = duel ? $("#duel-status") : $("#status");
  if (!status) return null;
  let line = status.nextElementSibling;
  if (!line || !line.classList.contains("clock-mine")) {
    line = el("p", "clock-mine");
    line.hidden = true;
    status.after(line);
  }
  return line;
}

/** The one live region that says the 10-second warning (made once). */
function speaker() {
  let node = $("#clock-say");
  if (!node) {
    node = el("p", "sr-only");
    node.id = "clock-say";
    node.setAttribute("aria-live", "assertive");
    document.body.append(node);
  }
  return node;
}

/** Redraw the countdown from the time left now (the interval's work). */
function tick() {
  const clock = S.msg?.clock;
  const left = secondsLeft();
  const box = clock ? seatBox(clock.seat) : null;
  let meter = box?.querySelector(".move-clock");
  if (box && !meter) {
    meter = el("div", "move-clock");
    meter.append(el("div", "clock-bar"), el("span", "clock-secs"));
    box.append(meter);
  }
  if (meter) {
    const total = (S.msg.move_seconds || 1) * 1000;
    meter.querySelector(".clock-bar").style.setProperty(
      "--left", `${Math.max(0, Math.min(100, (100 * (endsAt - performance.now())) / total))}%`);
    meter.querySelector(".clock-secs").textContent = t("clock.seconds", { n: left });
    meter.classList.toggle("low", left <= WARN_AT);
    meter.title = t("clock.seatLeft", { name: seatName(clock.seat), n: left });
  }
  const mine = clock && S.seat !== null && clock.seat === S.seat && S.msg.view && !S.msg.view.match_over;
  const line = mineLine();
  if (line) {
    line.hidden = !mine;
    line.textContent = mine ? t("clock.left", { n: left }) : "";
    line.classList.toggle("low", Boolean(mine) && left <= WARN_AT);
  }
  const key = `${S.tableId}/${S.msg?.version}`;
  if (mine && left <= WARN_AT && warned !== key) {
    warned = key;
    speaker().textContent = t("clock.warn", { n: left });
  }
  if (!clock || left === 0) stop();
}

function stop() {
  if (ticker !== null) clearInterval(ticker);
  ticker = null;
}

/** Whether `action` plays cards of a trick game (a duel's actions are texts of their own). */
function playsCards(action) {
  return S.msg?.game !== "yugioh" && parseAction(action).verb === "play";
}

/** The move the clock made, in words: the cards it played (as `voice` writes them,
 * cards.js), or the move as the page words it without its player ("bids 1", a duel's
 * "Pass"), not the engine's text. */
function what(action, voice = SHOWN) {
  return playsCards(action) ? voice.cards(parseAction(action).cards) : sayMove(action);
}

/** The log line for a move made when time ran out (once a version). */
function tell(m) {
  const key = `${m.table}/${m.timeout.version}`;
  if (told === key) return;
  told = key;
  const duel = $("#duel") && !$("#duel").hidden;
  const log = duel ? $("#duel-log") : $("#log");
  if (!log) return;
  const move = m.timeout.action;
  const name = seatName(m.timeout.seat);
  const line = (voice) => (move.includes("?") ? t("clock.ranOutHidden", { name })
    : t(playsCards(move) ? "clock.ranOutPlayed" : "clock.ranOutMove", { name, what: what(move, voice) }));
  log.append(spoken(el("li", "clock-line"), line(SHOWN), line(SAID)));
  log.scrollTop = log.scrollHeight;
}

/** Draw the clock of the last state message (after the page drew it): the
 * countdown restarts only when a new message came; a redraw keeps it. */
export function drawClock() {
  const m = S.msg;
  if (!m || m.type !== "state") return;
  if (m !== shownFor) {
    shownFor = m;
    endsAt = performance.now() + (m.clock ? m.clock.ms : 0);
    if (m.timeout && m.view) tell(m);
  }
  for (const old of document.querySelectorAll(".move-clock")) {
    const box = old.closest("[data-seat]");
    if (!m.clock || !box || Number(box.dataset.seat) !== m.clock.seat) old.remove();
  }
  if (m.status !== "playing" || !m.clock) {
    stop();
    tick();
    return;
  }
  tick();
  if (ticker === null && secondsLeft() > 0) ticker = setInterval(tick, 250);
}

/** The create form's choice; its words follow the language buttons. `words(action)`:
 * a move as the page words it without its player (the log's line, the duel's button). */
export function initClock(words) {
  sayMove = words;
  fillChoice();
  for (const b of document.querySelectorAll(".lang")) b.addEventListener("click", () => { fillChoice(); drawClock(); });
}
