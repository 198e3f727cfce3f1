// Kozel's panels: the trump and the stock, street's multi-card actions and the
// molodka, the score sheet of card points and penalty points, and the goat.
// The seats, the trick, the hand, the last trick and the log are drawn by
// app.js for every game; this module fills in what only Kozel has.

import { t } from "./i18n.js";
import { cardFace, cardsSaid, cardsText, SHOWN, setKey, SYMBOLS } from "./cards.js";
import { $, S, el, noteRow, progressBar, scoreRow, seatName, spoken, teamName, teamOf, teamsCount } from "./table.js";

function street(v) {
  return v.options.trick_style === "street";
}

function deckSize(v) {
  return { "24": 24, "32": 32, "36": 36 }[v.options.deck] || 32;
}

/** Where the shown trump card lies, when the table plays it face up in its place in
 * the stock (trump_card_place="public": only then does the view say): "card 5 from
 * the top of the stock" as the stock is now, or who drew it; null otherwise. */
function trumpPlace(v) {
  if (v.trump_card_drawn_by != null) return t("trumpDrawnBy", { name: seatName(v.trump_card_drawn_by) });
  if (v.trump_card_place == null) return null;
  const drawn = deckSize(v) - v.options.hand_size * v.players - v.stock_size;   // cards drawn from the stock so far
  return t("trumpPlace", { n: v.trump_card_place - drawn + 1 });
}

function info(v, box) {
  const trump = el("div", "trump");
  trump.id = "trump";
  if (v.trump_suit) {
    // Shown with the glyph and letter players know; said in words alone ("Trump: hearts"),
    // not "black heart suit H (hearts)".
    const suitName = t(`suits.${v.trump_suit}`);
    trump.append(spoken(el("span", "trump-label"),
                        `${t("trump")}: ${SYMBOLS[v.trump_suit]} ${v.trump_suit} (${suitName})`,
                        `${t("trump")}: ${suitName}`));
    if (v.trump_card) trump.append(cardFace(v.trump_card));
    const place = trumpPlace(v);
    if (place) trump.append(el("span", "trump-place", place));
    if (v.options.permanent_trumps) trump.append(spoken(el("span", "trump-note"), t("trumpNote"), t("trumpNoteSaid")));
  }
  const stock = el("div", "stock",
                   v.options.hand_size * v.players < deckSize(v) ? t("stock", { n: v.stock_size }) : t("noStock"));
  stock.id = "stock";
  box.replaceChildren(trump, stock);
}

function actions(v, legal, send) {
  const multi = street(v);
  const key = setKey(S.selected);
  const myTurn = S.seat !== null && v.current_player === S.seat && v.phase === "play";
  const play = legal.find((a) => a.verb === "play" && setKey(a.cards) === key);
  const pass = legal.find((a) => a.verb === "pass" && setKey(a.cards) === key);
  const molodka = legal.find((a) => a.verb === "molodka");
  const playBtn = $("#act-play");
  playBtn.hidden = !(multi && myTurn);
  playBtn.textContent = v.trick.length ? t("beat") : t("lead");
  playBtn.disabled = !play || S.pending;
  playBtn.onclick = () => play && send(play.text);
  const passBtn = $("#act-pass");
  passBtn.hidden = !(multi && myTurn && v.trick.length);
  passBtn.disabled = !pass || S.pending;
  passBtn.onclick = () => pass && send(pass.text);
  const molodkaBtn = $("#act-molodka");
  molodkaBtn.hidden = !molodka;
  molodkaBtn.disabled = S.pending;
  molodkaBtn.textContent = molodka ? `${t("molodka")} ${cardsText(molodka.cards)}` : t("molodka");
  if (molodka) molodkaBtn.setAttribute("aria-label", `${t("molodka")} ${cardsSaid(molodka.cards)}`);
  else molodkaBtn.removeAttribute("aria-label");
  molodkaBtn.onclick = () => molodka && send(molodka.text);
  const clearBtn = $("#act-clear");
  clearBtn.hidden = !(multi && S.selected.size);
}

/** The status line, its cards as `voice` writes them (cards.js: SHOWN, SAID). */
function status(v, myTurn, legal, voice = SHOWN) {
  let text;
  if (v.match_over) text = t("matchOver");
  else if (v.phase === "deal") text = t("dealing");
  else if (myTurn && v.phase === "partner-exchange") text = t("yourTurnGive");
  else if (myTurn && v.phase === "forced-exchange") text = t("yourTurnReturn");
  else if (myTurn && street(v)) {
    text = v.trick.length ? t("yourTurnBeat", { n: v.trick[0].cards ? v.trick[0].cards.length : v.trick[0].count })
                          : t("yourTurnLead");
  } else if (myTurn) text = t("yourTurnPlay");
  else text = t("waitingFor", { name: seatName(v.current_player) });
  if (myTurn && v.must_lead) text += ` ${t("mustLead", { card: voice.cards([v.must_lead]) })}`;
  if (myTurn && street(v) && cannotBeat(v, legal)) text += ` ${t("cannotBeat", { n: S.selected.size })}`;
  if (!myTurn && legal.some((a) => a.verb === "molodka")) text += ` ${t("molodkaOffer")}`;
  return text;
}

/** As many cards chosen as were led, and they do not beat the table's: "Beat" stays
 * greyed, and a greyed button clicked says nothing, so the status line says why. */
function cannotBeat(v, legal) {
  const need = v.trick.length ? v.trick[0].cards?.length ?? v.trick[0].count : 0;
  const key = setKey(S.selected);
  return need > 0 && S.selected.size === need && !legal.some((a) => a.verb === "play" && setKey(a.cards) === key);
}

/** How a deal ended, in words, with the engine's eggs mark ("tie" or "doubled"
 * under eggs=double-next): a doubled deal explains its 4 in flat2. */
function endNote(deal) {
  const notes = [];
  const reason = t(`endedBy.${deal.ended_by}`);
  if (reason) notes.push(reason);
  else if (deal.points.length === 2 && deal.points[0] === 60 && deal.points[1] === 60) notes.push(t("eggs"));
  if (deal.eggs === "tie" || deal.eggs === "doubled") notes.push(t(`eggsMark.${deal.eggs}`));
  return notes.join("; ");
}

function dealSummary(number, deal) {
  const teams = deal.points.length;
  const points = deal.points.map((p, team) => `${teamName(team)} ${p}`).join(" – ");
  let penalty = "";
  for (let team = 0; team < teams; team += 1) {
    if (deal.penalty[team]) penalty += t("penaltyTo", { team: teamName(team), p: deal.penalty[team] });
  }
  const note = endNote(deal);
  return t("dealEnd", { n: number, points, penalty }) + (note ? ` (${note})` : "");
}

function score(v, table) {
  const teams = teamsCount();
  const body = document.createDocumentFragment();
  v.deal_results.forEach((deal, index) => {
    const tr = scoreRow("deal-row", String(index + 1));
    for (let team = 0; team < teams; team += 1) {
      const pen = deal.penalty[team];
      const td = el("td", pen ? "penalized" : "", `${deal.points[team]}` + (pen ? ` · +${pen}` : ""));
      tr.append(td);
    }
    const note = endNote(deal);
    if (note) tr.title = note;
    body.append(tr);
    if (note) body.append(noteRow(note, teams + 1));
  });
  table.tBodies[0].replaceChildren(body);
  const foot = scoreRow("", t("penalty"));
  const target = v.options.match_target;
  for (let team = 0; team < teams; team += 1) {
    const td = el("td", "", `${v.penalty_total[team]} / ${target}`);
    td.append(progressBar(v.penalty_total[team], target));
    foot.append(td);
  }
  table.tFoot.replaceChildren(foot);
  return t("toLose", { n: target });
}

function dealStart(v, voice = SHOWN) {
  if (!v.trump_suit) return null;
  const trump = voice.suit(v.trump_suit) + (v.trump_card ? ` (${voice.cards([v.trump_card])})` : "");
  return t("dealStart", { n: v.deal_number, dealer: seatName(v.dealer), trump });
}

/** The match's end in the reader's own words: a seated player is told "you" or
 * "your team" (the score sheet's "Them" is no subject: "Them is the goat"), one
 * playing alone (2 or 3 players) is no team, and a royal goat, which ends the
 * match without a penalty point, is named with its winner. */
function result(v) {
  const solo = v.players !== 4;
  const mine = S.seat === null ? null : teamOf(S.seat);
  const last = v.deal_results[v.deal_results.length - 1];
  if (last?.ended_by === "royal-goat") {
    const winner = last.winner_team;
    if (mine === winner) return t(solo ? "royalGoat.you" : "royalGoat.us");
    if (mine !== null && !solo) return t("royalGoat.them");
    return t(solo ? "royalGoat.won" : "royalGoat.wonTeam", { team: teamName(winner) });   // a pair: "win", «يفوزان»
  }
  const loser = v.loser_team;
  if (loser === null) return last?.winner_team == null ? "" : twoGoats(v, last.winner_team, mine);
  const p = v.penalty_total[loser];
  if (mine === loser) return t(solo ? "youLostSolo" : "youLost", { p });
  if (mine !== null && !solo) return `${t("youWon")} ${t("goatThem", { p })}`;
  const goat = t(solo ? "goatIsSolo" : "goatIs", { team: teamName(loser), p });
  return mine === null ? goat : `${t("youWonSolo")} ${goat}`;
}

/** Two goats at once (3 players, both losers of a deal reach the target together:
 * option match_loser): the deal's winner won the match, the other two lost it. */
function twoGoats(v, winner, mine) {
  const [a, b] = [0, 1, 2].filter((side) => side !== winner);
  if (mine === a || mine === b) {
    const other = mine === a ? b : a;
    return t("goatWithYou", { p: v.penalty_total[mine], other: seatName(other), q: v.penalty_total[other] });
  }
  const goats = t("twoGoats", { a: seatName(a), pa: v.penalty_total[a], b: seatName(b), pb: v.penalty_total[b] });
  return mine === winner ? `${t("youWonSolo")} ${goats}` : `${t("soloWon", { team: seatName(winner) })} ${goats}`;
}

/** The double-dummy solver takes single-card deals (classic, full hand with 2, 3 or 4
 * players) with decks of up to 32 cards: a review exists. */
function reviewable(v) {
  return !street(v) && v.options?.deck !== "36";
}

/** A new selection is due when the trick restarts: a new trick, or a molodka restarted it. */
function selectionKey(v) {
  return JSON.stringify([v.deal_number, v.tricks_played, v.molodkas_this_trick, v.trick[0] || null]);
}

export const kozel = {
  name: "kozel",
  multiCard: street,
  selectionKey,
  handHidden: () => false,
  openWhileHidden: () => [],
  info,
  badges: () => [],
  seatExtra: () => {},
  actions,
  status,
  score,
  dealSummary,
  dealStart,
  describe: () => null,
  result,
  reviewable,
};
