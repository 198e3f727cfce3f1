// "Play again" in the match result of every game (app.js for the trick games,
// yugioh.js for a duel). The server makes one rematch per finished table
// (POST /api/tables/{id}/rematch, docs/server.md): the same game, rules,
// options and bots, new cards, and whoever asks in their own old seat. The
// first player to ask makes it; the old table's state then says where it is
// (`rematch`), so everyone else's page turns its button into "Join the
// rematch" (the same request: it seats them in their own old seat while that
// is free; their name is kept for them meanwhile, the server's "nameKept") and
// a spectator's into a link to watch it. The new seat's token is
// kept like any other (table.js saveSeat), and the page opens the new table's
// lobby by its usual address, /?table=<id>.
//
// A player may also arrive by the rematch's own link (a friend pasted it). Its
// lobby then offers "Take your seat from the last match" when this browser holds
// that player's token of the old table: the same request to the old table. The
// rematch names the table it plays again (`rematch_of`) unless it is private;
// of a private one the page knows it only if it saw the old table's `rematch`
// while holding a seat there (noteRematch keeps it with that seat's token).

import { t } from "./i18n.js";
import { S, api, el, savedSeat, saveSeat, toast } from "./table.js";

/** Ask for the rematch (or join it) and open it; a refusal is shown like any other. */
async function playAgain() {
  const known = S.msg.rematch;
  if (known && savedSeat(known)) {           // already seated there (another tab, or back here)
    location.href = `?table=${known}`;
    return;
  }
  try {
    const answer = await api("POST", `api/tables/${S.tableId}/rematch`, null, S.token);
    // No token: my old seat there is taken or the rematch has begun; I arrive to watch.
    if (answer.token) saveSeat(answer.id, answer.token, answer.seat);
    location.href = `?table=${answer.id}`;
  } catch (err) {
    toast(err.message);
  }
}

/** At a table where I hold a seat, keep its rematch beside my token there: the
 * rematch's own link then leads back to it, even where the server does not say it. */
export function noteRematch(m) {
  const mine = S.seat !== null && m.rematch ? savedSeat(S.tableId) : null;
  if (mine && mine.rematch !== m.rematch) saveSeat(S.tableId, mine.token, mine.seat, m.rematch);
}

/** Tell a seated player whose match result box is closed that another player
 * has just made the rematch: the box's "Join the rematch" is out of sight, and
 * nothing else changed on the page. A toast, not the box itself (it was closed on
 * purpose), naming the player when one person sits in the rematch (its maker,
 * unless someone joined meanwhile). `before`: this table's previous state;
 * `closed`: whether the page's result box is closed. */
export async function tellRematch(before, m, closed) {
  if (!before || before.rematch || !m.rematch || S.seat === null || !closed) return;
  let name = null;
  try {
    const table = await api("GET", `api/tables/${m.rematch}`);
    const people = table.seats.filter((s) => s.kind === "human" && s.seat !== S.seat);
    if (people.length === 1) name = people[0].name;
  } catch { /* said without the name */ }
  if (S.msg?.rematch !== m.rematch) return;       // the page moved on meanwhile
  toast(name ? t("rematch.startedBy", { name }) : t("rematch.started"));
}

/** The table this one plays again, as far as this page may know it. */
function lastMatch(m) {
  if (m.rematch_of) return m.rematch_of;
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    const id = key?.startsWith("goat:token:") ? key.slice("goat:token:".length) : null;
    if (id && savedSeat(id)?.rematch === S.tableId) return id;
  }
  return null;
}

/** My seat of the last match while it waits for me in this rematch's lobby, with
 * my token there (`{old, seat, token}`), or null. */
export function keptSeat(m) {
  if (m.status !== "lobby" || S.seat !== null) return null;
  const old = lastMatch(m);
  const mine = old ? savedSeat(old) : null;
  if (!mine?.token || m.seats[mine.seat]?.kind !== "empty") return null;
  return { old, seat: mine.seat, token: mine.token };
}

/** Take my kept seat as the old table's "Join the rematch" does: true when I sit
 * in it now (its token kept), false when it was taken meanwhile or the game began. */
export async function claimSeat(kept) {
  const answer = await api("POST", `api/tables/${kept.old}/rematch`, null, kept.token);
  if (answer.id !== S.tableId || !answer.token) return false;
  saveSeat(answer.id, answer.token, answer.seat);
  S.token = answer.token;
  return true;
}

/** Draw the lobby's "Take your seat from the last match" into `box` (a button
 * calling `onClaim(kept)`), or hide it when nothing waits for this browser. */
export function drawClaim(box, onClaim) {
  const kept = S.msg ? keptSeat(S.msg) : null;
  const key = kept ? `${kept.old}|${kept.seat}|${t("rematch.claim")}` : "";
  if (box.dataset.key === key) return;
  const hadFocus = box.contains(document.activeElement);
  box.dataset.key = key;
  box.replaceChildren();
  box.hidden = !kept;
  if (!kept) return;
  const control = el("button", "primary rematch-claim", t("rematch.claim", { n: kept.seat + 1 }));
  control.type = "button";
  control.addEventListener("click", () => onClaim(keptSeat(S.msg)));
  box.append(control);
  if (hadFocus) control.focus();
}

/** Draw the rematch control into `box` (a result dialog's span): redrawn only
 * when what it offers changes, so that keyboard focus on it is kept. */
export function drawRematch(box) {
  const m = S.msg;
  let kind = null;
  if (m.status === "finished") {
    if (S.seat !== null) kind = m.rematch ? "join" : "play";
    else if (m.rematch) kind = "watch";
  }
  const key = `${kind}|${m.rematch || ""}|${t("rematch.play")}`;   // the language too
  if (box.dataset.key === key) return;
  const hadFocus = box.contains(document.activeElement);
  box.dataset.key = key;
  box.replaceChildren();
  let control = null;
  if (kind === "watch") {
    control = el("a", "button primary rematch-watch", t("rematch.watch"));
    control.href = `?table=${m.rematch}`;
  } else if (kind) {
    control = el("button", `primary rematch-${kind}`, t(`rematch.${kind}`));
    control.type = "button";
    control.addEventListener("click", playAgain);
  }
  if (control) box.append(control);
  box.hidden = !control;
  if (control && hadFocus) control.focus();
}
