// Score sheets for club organisers: the lobby's list of finished games (from
// GET /api/tables?status=finished, kept in the server's database, so it lists
// last night's games after a restart), and by a table's score sheet a "Print"
// and a "Download (CSV)" link (GET /api/tables/{id}/scoresheet.csv: the sheet of
// the completed deals, the same as `goat replay --csv`). Printing a table page
// gives the heading drawn here (game, rules, table, players), the score sheet
// and the result: style.css's @media print hides the rest. The side score
// sheet's column heads are drawn here too (drawSheetHead): the players' names
// whole, or their initials and a legend when the names do not fit.

import { listOf, locale, t } from "./i18n.js";
import { $, S, api, el, named, number, playerName, seatName, teamName } from "./table.js";

/** How many finished games the lobby lists. */
const FINISHED = 20;

/** Whether a finished game's sides are teams of two (Kozel or Spades at 4 seats), whose
 * verb is plural (Bulgarian «спечелиха», English "are the goats"), not one seat. */
function inPairs(table) {
  return table.game !== "yugioh" && table.players === 4;
}

/** A side of a finished game: a team's two names at a 4-seat table, else a seat's name. */
function sideName(table, side) {
  const seats = table.seats;
  if (!inPairs(table)) return playerName(seats[side]);
  return t("team", { a: playerName(seats[side]), b: playerName(seats[side + 2]) });
}

/** "X won (totals)", in the plural for a team of two. */
function winnerText(table, side, totals) {
  return t(inPairs(table) ? "sheets.winnerTeam" : "sheets.winner", { team: sideName(table, side), totals });
}

/** The final result in a line, from the listing's short form. */
function resultText(table) {
  const r = table.result || {};
  const scores = (list) => (list || []).map(number).join(" : ");
  if (table.game === "kozel") {
    const totals = scores(r.penalty);
    if (r.goat !== null && r.goat !== undefined) {   // a team of two is "козлы", one player "козёл"
      return t(inPairs(table) ? "sheets.goatTeam" : "sheets.goat", { team: sideName(table, r.goat), totals });
    }
    if (r.winner !== undefined) return winnerText(table, r.winner, totals);
    return totals;
  }
  if (table.game === "spades") {
    const totals = scores(r.score);
    return r.winner === null || r.winner === undefined ? totals : winnerText(table, r.winner, totals);
  }
  const totals = scores(r.wins);
  return r.winner === null || r.winner === undefined ? t("sheets.draw", { totals })
    : winnerText(table, r.winner, totals);
}

function link(text, href, download = false) {
  const a = el("a", "", text);
  a.href = href;
  if (download) a.setAttribute("download", "");
  return a;
}

/** A game the double-dummy review takes, as the table page says (kozel.js, spades.js):
 * Kozel but street and a 36-card deck with 2 or 3 players; Spades but the joker deck and
 * a renege penalty (DDS). */
function reviewable(table) {
  if (table.game === "spades") {   // a table keeps the options its creator set; a preset's are in its name
    return table.rules !== "joker-trumps" && !table.options?.jokers && !table.options?.renege_penalty;
  }
  return table.game === "kozel" && table.rules !== "street" && (table.players === 4 || table.options?.deck !== "36");
}

/** Fill the lobby's "Finished games" list. */
export async function refreshFinished() {
  const list = $("#finished-list");
  if (!list) return;
  try {
    const { tables } = await api("GET", `api/tables?status=finished&limit=${FINISHED}`);
    list.replaceChildren();
    if (!tables.length) list.append(el("li", "hint", t("sheets.none")));
    for (const table of tables) {
      const li = el("li", "finished");
      li.dataset.table = table.id;
      const when = new Date(table.finished_at).toLocaleString(locale(), { dateStyle: "short", timeStyle: "short" });
      li.append(el("span", "finished-title", `${named("games", table.game)} · ${named("rules", table.rules)} · ${when}`));
      li.append(" ", el("span", "hint", listOf(table.seats.map(playerName))));
      li.append(el("div", "finished-result", resultText(table)));
      const links = el("div", "finished-links");
      links.append(link(t("sheets.watch"), `?table=${table.id}`), " · ",
                   link(t("sheets.record"), `api/tables/${table.id}/record`, true), " · ",
                   link(t("sheets.csv"), `api/tables/${table.id}/scoresheet.csv`, true));
      if (reviewable(table)) links.append(" · ", link(t("sheets.review"), `?table=${table.id}&review=1`));
      li.append(links);
      list.append(li);
    }
  } catch (err) {
    list.textContent = err.message;
  }
}

/** The "Print" / "Download (CSV)" pair by every score sheet of the page, and the printed heading. */
export function drawSheetLinks() {
  if (!S.tableId) return;
  for (const box of document.querySelectorAll("[data-sheet-links]")) {
    if (!box.firstChild) {
      const print = el("button", "link-button sheet-print");
      print.type = "button";
      print.addEventListener("click", () => window.print());
      const csv = el("a", "sheet-csv");
      csv.setAttribute("download", "");
      box.append(print, " · ", csv);
    }
    box.querySelector(".sheet-print").textContent = t("sheets.print");
    const csv = box.querySelector(".sheet-csv");
    csv.textContent = t("sheets.csvLong");
    csv.href = `api/tables/${S.tableId}/scoresheet.csv`;
  }
  drawPrintHead();
}

/** The players under the printed heading. A player's sheet heads its columns "Us"
 * and "Them", which on paper name nobody: there the players go by team, as the
 * columns call them ("Us: Аня + Bot 3 · Them: Bot 2 + Bot 4"). */
function printedPlayers() {
  const m = S.msg;
  if (m.game === "yugioh" || m.players !== 4 || S.seat === null) return listOf(m.seats.map(playerName));
  return [0, 1].map((team) => `${teamName(team)}: ${t("team", { a: playerName(m.seats[team]),
                                                              b: playerName(m.seats[team + 2]) })}`).join(" · ");
}

function drawPrintHead() {
  const page = S.msg?.game === "yugioh" ? $("#duel") : $("#game");
  if (!page || !S.msg) return;
  let head = page.querySelector(".print-head");
  if (!head) {
    head = el("div", "print-head");
    page.prepend(head);
  }
  const names = printedPlayers();
  const title = `${named("games", S.msg.game)} · ${named("rules", S.msg.rules)} · ${t("sheets.table", { id: S.tableId })}`;
  head.replaceChildren(el("h1", "", title), el("p", "", names));
}

// ------------------------------------------------------------- the sheet's head
/** Short labels for `names` (one a seat), for a sheet too narrow for the names: the
 * initials of the first two words ("Анастасия Владимировна" АВ, "Bot 2" B2),
 * lengthened by the first word's letters where two would read alike ("Анна" Ан and
 * "Алекс" Ал), and numbered by seat where even that does not tell them apart. */
export function initials(names) {
  const words = names.map((name) => name.trim().split(/\s+/).map((word) => [...word]));
  const label = (ws, k) => ws[0][0].toLocaleUpperCase() + ws[0].slice(1, k).join("")
    + (ws[1] ? ws[1][0].toLocaleUpperCase() : "");
  const lengths = names.map(() => 1);
  const alike = (labels) => labels.map((l) => labels.indexOf(l) !== labels.lastIndexOf(l));
  for (let round = 0; round < 4; round += 1) {
    const labels = words.map((ws, seat) => label(ws, lengths[seat]));
    const twins = alike(labels);
    if (!twins.includes(true)) return labels;
    twins.forEach((twin, seat) => { if (twin) lengths[seat] += 1; });
  }
  const labels = words.map((ws, seat) => label(ws, lengths[seat]));
  return labels.map((l, seat) => (alike(labels)[seat] ? `${l}${seat + 1}` : l));
}

/** The seats a sheet's column adds up: a team's two at a four-seat table, else one. */
function seatsOf(column) {
  return S.msg.players === 4 ? [column, column + 2] : [column];
}

/** A column head: `shown` for the eye, the whole name (`said`) for screen readers. */
function headCell(shown, said) {
  const th = el("th");
  th.scope = "col";
  const seen = el("bdi", "", shown);
  th.append(seen);
  if (shown !== said) {
    seen.setAttribute("aria-hidden", "true");
    th.append(el("span", "sr-only", said));
  }
  return th;
}

/** The score sheet's head: "Deal" and a column a team (four seats) or a player.
 * A name wraps only between its words (style.css); when a word is still wider
 * than its column would be (three players' names in a side panel of 320 px,
 * "Екатерина" over 58 px), the heads take the players' initials and a legend
 * under the sheet gives their whole names ("АВ — Анастасия Владимировна (вы)"):
 * first the names, measured, then, if the sheet sticks out of its panel, the initials. */
export function drawSheetHead(table, columns) {
  const row = el("tr");
  const first = el("th", "", t("deal"));
  first.scope = "col";
  row.append(first);
  const names = Array.from({ length: columns }, (_, column) => teamName(column));
  row.append(...names.map((name) => headCell(name, name)));
  table.tHead.replaceChildren(row);
  const legend = $("#score-legend");
  legend.replaceChildren();
  legend.hidden = true;
  const panel = table.closest(".panel");
  const usAndThem = S.msg.players === 4 && S.seat !== null;   // a player's "Us" and "Them" are short already
  if (usAndThem || !panel || panel.scrollWidth <= panel.clientWidth + 0.5) return;
  const seats = S.msg.seats.map((_, seat) => seat);
  const labels = initials(seats.map((seat) => playerName(S.msg.seats[seat])));
  for (let column = 0; column < columns; column += 1) {
    const shown = seatsOf(column).map((seat) => labels[seat]).join(" + ");
    row.children[column + 1].replaceWith(headCell(shown, names[column]));
  }
  for (const seat of seats) {
    const item = el("li");
    item.append(el("b", "", labels[seat]), " — ", el("bdi", "", seatName(seat)));
    legend.append(item);
  }
  legend.hidden = false;
}
