// Club standings on the home page: per person, the matches played, won, lost
// (drawn where the game has draws) and, in Kozel, how often they were the goat
// — the side that lost the match. From GET /api/standings (the server counts,
// from the finished games in its database; private tables' games are in no
// list, so not here either); "Download (CSV)" is GET /api/standings.csv with
// the same filters. The period is worked out here, in the browser's own
// timezone: "today" starts at local midnight, "this week" on local Monday, and
// both are sent as UTC moments (`since`), so a club night in Moscow is the
// Moscow evening whatever the server's clock says.

import { t } from "./i18n.js";
import { $, S, api, el, named } from "./table.js";

const PERIODS = ["today", "week", "all"];
let asked = 0;   // the latest request: an older answer arriving late is dropped

/** The `since` of a period, as an ISO moment (UTC), in the browser's timezone; null: all time. */
export function periodStart(period, now = new Date()) {
  if (period === "all") return null;
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());   // local midnight
  if (period === "week") start.setDate(start.getDate() - ((start.getDay() + 6) % 7));   // back to Monday
  return start.toISOString();
}

function query() {
  const params = new URLSearchParams();
  const game = $("#standings-game").value;
  if (game) params.set("game", game);
  const since = periodStart($("#standings-period").value);
  if (since) params.set("since", since);
  if ($("#standings-bots").checked) params.set("bots", "1");
  return params.toString();
}

function fillSelect(select, values, label) {
  const chosen = select.value;
  select.replaceChildren(...values.map((value) => {
    const option = el("option", "", label(value));
    option.value = value;
    return option;
  }));
  if (values.includes(chosen)) select.value = chosen;
}

/** The controls in the page's language (the game list from the catalog). */
function fillControls() {
  const games = (S.catalog?.games || []).map((g) => g.name);
  const game = $("#standings-game");
  const first = !game.options.length;
  fillSelect(game, ["", ...games], (name) => (name ? named("games", name) : t("standings.allGames")));
  if (first && games.includes("kozel")) game.value = "kozel";
  fillSelect($("#standings-period"), PERIODS, (p) => t(`standings.periods.${p}`));
}

function playerLabel(row) {
  return row.bot ? t("standings.botName", { bot: row.bot }) : row.name;
}

/** A header cell: a column's (scope col) or, for a row's name, the row's (scope row). */
function header(text, cls, scope) {
  const node = el("th", cls, String(text));
  node.scope = scope;
  return node;
}

function draw(answer) {
  const table = $("#standings-table");
  const game = $("#standings-game").value;
  const rows = answer.players;
  const drawn = game === "yugioh" || game === "spades" || rows.some((r) => r.drawn);
  const goats = game === "kozel" || (!game && rows.some((r) => r.goats));
  const columns = ["place", "name", "played", "won", "lost", ...(drawn ? ["drawn"] : []),
                   ...(goats ? ["goats"] : []), "rate"];
  const head = el("tr");
  for (const c of columns) head.append(header(t(`standings.cols.${c}`), `col-${c}`, "col"));
  table.tHead.replaceChildren(head);
  const body = rows.map((r) => {
    const tr = el("tr");
    const values = { place: r.place, played: r.played, won: r.won, lost: r.lost, drawn: r.drawn, goats: r.goats,
                     rate: `${Math.round(r.win_rate * 100)}%` };
    for (const c of columns) {
      tr.append(c === "name" ? header(playerLabel(r), "who", "row") : el("td", `col-${c}`, String(values[c])));
    }
    if (r.place === 1 && r.won) tr.classList.add("leader");
    if (goats && r.goats && r.goats === Math.max(...rows.map((x) => x.goats))) tr.classList.add("most-goats");
    return tr;
  });
  table.tBodies[0].replaceChildren(...body);
  table.hidden = !rows.length;
  const period = t(`standings.periods.${$("#standings-period").value}`);
  const what = game ? named("games", game) : t("standings.allGames");
  $("#standings-caption").textContent = `${t("standings.title")}: ${what}, ${period}`;
  $("#standings-status").textContent = rows.length
    ? t("standings.counted", { n: answer.games, what, period }) : t("standings.none");
}

/** Ask the server for the standings of the chosen game and period, and draw them. */
export async function refreshStandings() {
  if (!$("#standings") || !S.catalog) return;
  fillControls();
  const params = query();
  $("#standings-csv").href = `api/standings.csv${params ? `?${params}` : ""}`;
  const mine = ++asked;
  try {
    const answer = await api("GET", `api/standings${params ? `?${params}` : ""}`);
    if (mine === asked) draw(answer);
  } catch (err) {
    if (mine === asked) $("#standings-status").textContent = err.message;
  }
}

/** Wire the controls once: every change asks again. */
export function initStandings() {
  const form = $("#standings-form");
  if (!form) return;
  form.addEventListener("submit", (event) => event.preventDefault());
  for (const id of ["#standings-game", "#standings-period", "#standings-bots"]) {
    $(id).addEventListener("change", refreshStandings);
  }
}
