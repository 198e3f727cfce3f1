// "Open a record" on the home page, as lichess imports a PGN: a record file (what
// `goat play --record` writes, a finished table's download, a friend's) opens the
// deal review (review.js) the finished tables have — the deal choice, the table of
// moves, the diagram — from POST /api/records/review/{deal}, which checks the record
// as `goat replay --check` does and stores nothing of it. The server is the judge of
// the file; the page reads it only to name its seats and count its records.
// A file of several records (a .jsonl) shows a choice of record beside the file.

import { t } from "./i18n.js";
import { showReview } from "./review.js";
import { $, el, pairName, placeOf, playerName, refusal, refused } from "./table.js";

let opened = 0;       // files opened so far: each review's answers are kept apart
let file = null;      // {text, records (parsed here, or null), count}
let shown = null;     // the status under the control: {key} (a string's), {error} (a refusal), or null

/** The records of a file's text as far as the page can read them: one JSON value, or
 * one a line (JSON lines); null where it is neither (the server says what is wrong). */
function recordsOf(text) {
  const body = text.replace(/^\ufeff/, "");
  try {
    return [JSON.parse(body)];
  } catch {
    try {
      return body.split(/\r\n|\r|\n/).filter((line) => line.trim()).map((line) => JSON.parse(line));
    } catch {
      return null;
    }
  }
}

/** The seat drawn at the bottom of the diagram: the one person among bots (whoever
 * played with `goat play --record`, at whichever `--seat`), else seat 0. */
export function bottomSeat(seats) {
  if (!Array.isArray(seats)) return 0;
  const people = seats.flatMap((entry, seat) => (entry && !entry.bot ? [seat] : []));
  const bots = seats.filter((entry) => entry?.bot).length;
  return people.length === 1 && people.length + bots === seats.length ? people[0] : 0;
}

/** How a review of `record` names its seats: by its `seats` where it has them, as the
 * page names seats ("Bot 2" for a bot, "Seat 3" where nobody is named); partners (four
 * seats) as a pair; placed around the diagram from bottomSeat. */
function namesOf(record, players) {
  const seats = Array.isArray(record?.seats) && record.seats.length === players ? record.seats : null;
  const seatName = (seat) => {
    const entry = seats?.[seat];
    return playerName({ seat, kind: entry?.bot ? "bot" : "human", name: typeof entry?.name === "string" ? entry.name : "" });
  };
  const bottom = bottomSeat(seats);
  return {
    seatName,
    teamName: (team) => (players === 4 ? pairName(team, seatName) : seatName(team)),
    posOf: (seat) => placeOf(seat, players, bottom),
  };
}

/** The seats of a record: as many as it names, else its `players`, else its first deal's hands. */
function playersOf(record, answer) {
  const counted = [record?.seats?.length, record?.players, Object.keys(record?.deals?.[0]?.hands ?? {}).length,
    answer.moves.find((m) => m.position)?.position.hands.length];
  return counted.find((n) => Number.isInteger(n) && n >= 2 && n <= 4) ?? 4;
}

/** The review of deal `deal` of record `index` of the open file: the server's answer, or
 * an Error with its refusal in the page's language. */
async function ask(index, deal) {
  const response = await fetch(`api/records/review/${deal}?record=${index}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: file.text,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw refused(response, data);
  return data;
}

/** The status under the control, kept as what it says (not its words), so that a
 * language chosen later words it again (redrawOpenRecord): `{key}` a string of the
 * page's, `{error}` a refusal (the server's `say` in the page's language, else its
 * line, as table.js refusal), null nothing. */
function say(status) {
  shown = status;
  const node = $("#record-status");
  const { error } = status ?? {};
  const why = error && (error.refusal ? refusal(error.refusal) : error.key ? t(error.key) : error.message);
  node.textContent = !status ? "" : error ? `${t("openRecord.failed")}: ${why}` : t(status.key);
  node.classList.toggle("error", Boolean(error));
}

/** Open record `index` (1-based) of the file read: its first deal asked for here, so
 * that a file the server refuses says why beside the file, not in an empty review. */
async function openRecord(index) {
  const mine = file;
  say({ key: "openRecord.working" });
  let first;
  try {
    first = await ask(index, 1);
  } catch (error) {
    if (file === mine) say({ error });
    return;
  }
  if (file !== mine) return;
  say(null);
  const record = mine.records?.[index - 1];
  opened += 1;
  showReview({
    key: `record:${opened}`,
    page: "home",
    deals: first.deals,
    fetch: (deal) => (deal === 1 ? Promise.resolve(first) : ask(index, deal)),
    names: namesOf(record, playersOf(record, first)),
    close: () => ($("#record-pick").hidden ? $("#record-file") : $("#record-pick")).focus(),
  });
}

/** The record choice of a file holding several: "Record 1".. */
function drawPick(count) {
  const pick = $("#record-pick");
  pick.replaceChildren(...Array.from({ length: count }, (_, i) => {
    const option = el("option", "", t("openRecord.recordN", { n: i + 1 }));
    option.value = String(i + 1);
    return option;
  }));
  $("#record-pick-label").hidden = count < 2;
  pick.hidden = count < 2;
}

async function read(chosen) {
  if (!chosen) return;
  const text = await chosen.text().catch(() => null);
  if (text === null) {
    say({ error: { key: "openRecord.unreadable" } });
    return;
  }
  const records = recordsOf(text);
  file = { text, records };
  drawPick(records?.length ?? 1);
  await openRecord(1);
}

/** Word the control again (the language changed): its status, the record choice's options. */
export function redrawOpenRecord() {
  say(shown);
  for (const option of $("#record-pick").options) {
    option.textContent = t("openRecord.recordN", { n: Number(option.value) });
  }
}

/** Wire the control (once, at start): the file input, a file dropped on its box, the record choice. */
export function initOpenRecord() {
  const input = $("#record-file");
  input.addEventListener("change", () => {
    read(input.files?.[0]);
    input.value = "";    // the same file chosen again (changed meanwhile) is read again
  });
  const drop = $("#record-drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("dragging");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("dragging");
    read(e.dataTransfer?.files?.[0]);
  });
  $("#record-pick").addEventListener("change", (e) => openRecord(Number(e.target.value)));
}
