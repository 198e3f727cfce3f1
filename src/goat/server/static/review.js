// The deal review of a finished game: for each card played, the double-dummy value
// (the points the player's team ends the deal with if both teams play perfectly
// from there, every card known; in individual play the player's points with every
// other player playing against them; in Spades the tricks, by DDS) next to the best
// card's, and the cost of the difference — what `goat analyze` prints, from
// GET /api/tables/{id}/review/{deal}.
// Offered only once the match is over (the server refuses earlier: a review
// shows every hand), for the rulesets the solver takes (the game module's
// `reviewable(view)`). The same panel reviews a record opened from a file on the
// home page (openrecord.js): a review's source says where its deals come from and
// how its seats are named. A deal's review is fetched once and kept. Choosing a row (its
// trick number is a button: a click anywhere on the row, or Enter / Space) draws the
// position its card was played in (reviewboard.js).

import { arrow, listOf, t } from "./i18n.js";
import { parseAction, SAID, SHOWN } from "./cards.js";
import { drawBoard } from "./reviewboard.js";
import { $, S, api, el, posOf, seatName, spoken, teamName } from "./table.js";

/** The review open: `{key, page, deals, fetch(deal) -> the server's answer (a promise),
 * names: {seatName, teamName, posOf}, close()}` — the finished table in view
 * (tableSource, over the "game" page), or a record opened from a file (openrecord.js,
 * over the "home" page). */
let source = null;
const reviews = new Map();   // `${source.key}/${deal}` -> the server's answer
let wanted = null;           // the deal last asked for: a slower earlier answer is not drawn
let chosen = null;           // the row (an index of the deal's moves) whose position is drawn

function valueText(value, r) {
  if (value >= r.royal) return t("review.royal");
  if (value <= -r.royal) return t("review.royalAgainst");
  if (value >= r.catch) return t("review.catch");
  if (value <= -r.catch) return t("review.caught");
  return String(value);
}

function costText(move, r) {
  if (move.cost === 0) return "";
  if (Math.max(Math.abs(move.value), Math.abs(move.best_value)) >= r.catch) {
    return `${valueText(move.best_value, r)} ${arrow()} ${valueText(move.value, r)}`;
  }
  return String(move.cost);
}

/** The decisive ends (a shamok catch, a royal goat) that `side`'s mistakes changed, in
 * words: read from their values, as the server's summary counts them (a mistake whose
 * value or best value is decisive), so a deal that cannot have one never names it (a
 * 24-card deck has no seven of clubs, so no shamok). */
function decisiveEnds(r, side) {
  const kinds = new Set();
  for (const m of r.moves) {
    if (m.side !== side || !m.cost) continue;
    for (const value of [m.value, m.best_value]) {
      if (Math.abs(value) >= r.royal) kinds.add("royal");
      else if (Math.abs(value) >= r.catch) kinds.add("catch");
    }
  }
  return listOf(["catch", "royal"].filter((kind) => kinds.has(kind)).map((kind) => t(`review.${kind}`)));
}

/** Whether a move changed the deal's result (who wins, the penalties), not only
 * the card points: Kozel's score reads only which side of 60 they fall. */
function resultChanged(move) {
  return Boolean(move.result) && JSON.stringify(move.result) !== JSON.stringify(move.best_result);
}

/** What the deal gives with best play by everyone from its first analysed card: the
 * first row's best result (the server's scoring of its value), as each team's (each
 * player's) penalty points, or the royal goat that ends the match, or in Spades each
 * team's score; "" where the value cannot tell the penalties (3 players when nobody
 * passes 60). */
function bestPlay(r) {
  const teamName = source.names.teamName;
  const first = r.moves[0];
  const result = first?.best_result;
  if (!result) return "";
  if (result.kind.startsWith("royal-goat")) {
    const words = t(result.kind === "royal-goat-for" ? "review.royal" : "review.royalAgainst");
    return t("review.bestPlay", { result: `${teamName(first.side)}: ${words}` });
  }
  if (result.score) {   // Spades: the deal's score, points per team
    return t("review.bestPlayScore", { result: listOf(result.score.map((p, side) => `${teamName(side)} ${p}`)) });
  }
  if (!result.penalty) return "";
  return t("review.bestPlay", { result: listOf(result.penalty.map((p, side) => `${teamName(side)} ${p}`)) });
}

/** Why the review leaves actions out, in the player's language (the server's
 * `skipped_reasons` say it in English): Spades' bidding and live nils; Kozel's
 * partner exchange, or cards played too — with the royal goat and a stock the
 * solver starts after the last draw. */
function skippedKey(r, tricks) {
  if (tricks) return "review.skippedTricks";
  return r.skipped.some((a) => parseAction(a).verb === "play") ? "review.skippedStock" : "review.skipped";
}

/** The cards of `actions` as `voice` writes them (cards.js): one action's, or several's. */
function cardsOf(actions, voice) {
  return actions.map((a) => voice.cards(parseAction(a).cards)).join(voice === SAID ? "; " : ", ");
}

/** A cell of cards: compact on screen, in words for a screen reader. */
function cardsCell(actions) {
  return spoken(el("td", "cards"), cardsOf(actions, SHOWN), cardsOf(actions, SAID));
}

function cell(tag, text, cls = "") {
  return el(tag, cls, text);
}

/** The trick's cell of row `i`: its number, a button that shows the row's position. */
function pickCell(m, i) {
  const pick = el("button", "review-pick", String(m.trick));
  pick.type = "button";
  pick.dataset.row = String(i);
  pick.setAttribute("aria-label", t("review.show", { n: m.trick, name: source.names.seatName(m.seat) }));
  pick.setAttribute("aria-controls", "review-board");
  const td = el("td", "num");
  td.append(pick);
  return td;
}

/** Show the position of row `i` of review `r` (null: none), and mark its row. */
function choose(r, i) {
  chosen = i;
  for (const tr of $("#review-table tbody").rows) {
    const on = Number(tr.dataset.row) === i;
    tr.classList.toggle("chosen", on);
    const pick = tr.querySelector(".review-pick");
    if (on) pick.setAttribute("aria-current", "true");
    else pick.removeAttribute("aria-current");
  }
  const board = $("#review-board");
  if (i === null || !r.moves[i]?.position) {
    board.hidden = true;
    board.replaceChildren();
    return;
  }
  drawBoard(board, r, r.moves[i], source.names);
}

function draw(r) {
  const tricks = r.game === "spades";   // Spades is valued in tricks (DDS), Kozel in card points
  const note = $("#review-note");
  note.dataset.i18n = tricks ? "review.noteTricks" : "review.note";
  note.textContent = t(note.dataset.i18n);
  if (!r.moves.length) {   // a royal goat as dealt, a nil alive all deal, a deal over before the last draw
    $("#review-table").hidden = true;
    $("#review-pick").hidden = true;
    choose(r, null);
    $("#review-summary").replaceChildren();
    $("#review-skipped").textContent = "";
    $("#review-best").textContent = "";
    const n = r.skipped.length;
    $("#review-status").textContent = t(!n ? "review.noPlay" : tricks ? "review.noneValued" : skippedKey(r, tricks), { n });
    return;
  }
  const body = document.createDocumentFragment();
  for (const [i, m] of r.moves.entries()) {
    const changed = resultChanged(m);
    const tr = el("tr", (m.cost ? "mistake" : "") + (changed ? " result-changed" : ""));
    tr.dataset.row = String(i);
    const cost = cell("td", costText(m, r), "num cost");
    if (changed) cost.append(el("span", "result-mark", t("review.resultMark")));
    tr.append(pickCell(m, i), cell("td", source.names.seatName(m.seat)), cardsCell([m.action]),
              cell("td", valueText(m.value, r), "num"), cardsCell(m.best),
              cell("td", valueText(m.best_value, r), "num"), cost);
    body.append(tr);
  }
  $("#review-table tbody").replaceChildren(body);
  $("#review-table tbody").onclick = (e) => {   // the row's button (a click, Enter, Space) or anywhere on it
    const tr = e.target.closest("tr[data-row]");
    if (!tr) return;
    choose(r, Number(tr.dataset.row));
    // a phone has the diagram under the table, out of sight: brought into view (beside the table, nothing moves)
    const board = $("#review-board");
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (!board.hidden) board.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  };
  choose(r, chosen !== null && chosen < r.moves.length ? chosen : null);
  $("#review-summary").replaceChildren(...r.summary.map((s) => el("li", "",
    t(tricks ? "review.summaryTricks" : "review.summary", { team: source.names.teamName(s.side), n: s.mistakes,
                                                             p: s.points_lost })
    + (s.decisive ? ` ${t("review.decisive", { n: s.decisive, ends: decisiveEnds(r, s.side) })}` : "")
    + (s.mistakes && s.results_changed !== undefined
      ? t(tricks ? "review.resultsChangedTricks" : "review.resultsChanged", { n: s.results_changed }) : ""))));
  $("#review-skipped").textContent = r.skipped.length ? t(skippedKey(r, tricks), { n: r.skipped.length }) : "";
  $("#review-best").textContent = bestPlay(r);
  $("#review-table").hidden = false;
  $("#review-pick").hidden = false;
  $("#review-status").textContent = "";
}

async function load(deal) {
  const from = source;
  wanted = deal;
  chosen = null;
  $("#review-board").hidden = true;
  $("#review-pick").hidden = true;
  $("#review-table").hidden = true;
  $("#review-summary").replaceChildren();
  $("#review-best").textContent = "";
  $("#review-skipped").textContent = "";
  const status = $("#review-status");
  status.textContent = t("review.working");
  const key = `${from.key}/${deal}`;
  let answer = reviews.get(key);
  const current = () => source === from && wanted === deal;   // not an earlier, slower answer
  try {
    if (!answer) {
      answer = await from.fetch(deal);
      reviews.set(key, answer);
    }
  } catch (error) {
    if (current()) status.textContent = `${t("review.failed")}: ${error.message}`;
    return;
  }
  if (current()) draw(answer);
}

/** The review's source for the finished game in view `v`: its deals from the server,
 * its seats named as at the table; closing goes back to the match result. */
function tableSource(v) {
  return {
    key: `table:${S.tableId}`,
    page: "game",
    deals: v.deal_results.length,
    fetch: (deal) => api("GET", `api/tables/${S.tableId}/review/${deal}`),
    names: { seatName, teamName, posOf },
    close: () => {
      $("#result").hidden = false;
      $("#review-btn").focus();
    },
  };
}

/** Open the review panel on `deal` (default: the first) of the finished game in view `v`. */
export function openReview(v, deal = 1) {
  $("#result").hidden = true;
  showReview(tableSource(v), deal);
}

/** Open the review panel on `deal` of `from` (a source, as `source` above). */
export function showReview(from, deal = 1) {
  source = from;
  const select = $("#review-deal");
  if (select.options.length !== from.deals) {
    select.replaceChildren(...Array.from({ length: from.deals }, (_, i) => {
      const option = el("option");
      option.value = String(i + 1);
      return option;
    }));
  }
  nameDeals();
  select.value = String(deal);
  $("#review").hidden = false;
  select.focus();
  load(deal);
}

/** Word the list of deals in the page's language: each time the panel opens or the
 * language changes, not only when the list is made (it kept its first language). */
function nameDeals() {
  for (const option of $("#review-deal").options) option.textContent = t("review.dealN", { n: Number(option.value) });
}

/** Draw the open review again (the language changed). */
export function redrawReview() {
  nameDeals();
  const key = source && `${source.key}/${wanted}`;
  if (!$("#review").hidden && wanted !== null && reviews.has(key)) draw(reviews.get(key));
}

/** Close the panel: back to where it was opened from (the match result, the record's file). */
export function closeReview() {
  $("#review").hidden = true;
  wanted = null;
  chosen = null;
  source?.close();
}

/** The page shown is now `page` (app.js show): a review open over another page goes
 * with it, as it did inside the game's section — a finished table's review does not
 * stay over the home page the page goes back to when the table is gone. */
export function reviewOn(page) {
  if (!source || source.page === page || $("#review").hidden) return;
  $("#review").hidden = true;
  wanted = null;
  chosen = null;
}

/** Wire the panel's controls (once, at start). */
export function initReview() {
  $("#review-deal").addEventListener("change", (e) => load(Number(e.target.value)));
  $("#review-close").addEventListener("click", closeReview);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !$("#review").hidden) closeReview(); });
}
