// Spades' panels: the bids (every button is one of the legal actions the
// server sent — nil, blind nil, double nil, the Bemo bids and a redeal appear
// exactly when the engine allows them), each seat's bid, spades broken, the
// teams' contracts, the score sheet of scores and bags, and the winner.
// The double nil's exchange needs nothing of its own: its "give" actions are
// cards of the hand, drawn and played by app.js as for Kozel's exchanges.
//
// Blind nil is a bid made before looking at the hand. The server keeps it: while
// a blind bid is open to me and I have not looked, my view holds no card
// (hand_face_down, my count in hand_sizes), the hand is drawn as card backs and
// my legal actions are the blind bids and "bid look", which the "Look at my
// cards" control sends (out of turn too: the cards stay face down until turned
// over). A reload or another device shows what the server says.

import { lang, listOf, t } from "./i18n.js";
import { cardFace, cardsSaid, SHOWN } from "./cards.js";
import { $, S, button, el, named, noteRow, number, oneImage, progressBar, scoreRow, seatName, teamName, teamOf } from "./table.js";

const TEAM_SEATS = [[0, 2], [1, 3]];
/** My cards that every player has seen (face-up-four): they stay face up while the
 * rest of my hand is face down for a blind bid, which is still blind for the others,
 * and are marked in my face-up hand. */
function openWhileHidden(v) {
  return S.seat === null ? [] : (v.face_up ?? [])[S.seat] ?? [];
}

/** My hand is drawn face down: the server holds it so (a blind bid is open, not looked). */
function handHidden(v) {
  return Boolean(v.hand_face_down);
}

function isLook(action) {
  return action.verb === "bid" && action.bid === "look";
}

/** "4" -> "4", "0" and "nil" -> "Nil", "blind-nil" -> "Blind nil", ... */
export function bidLabel(bid) {
  if (bid === "0") return named("bids", "nil");
  return /^\d+$/.test(bid) ? bid : named("bids", bid);
}

function bidTitle(v, bid) {
  const points = { nil: v.options.nil_points, "blind-nil": v.options.blind_nil_points,
                   "double-nil": v.options.double_nil_points }[bid];
  return points === undefined ? "" : t(`bidTitles.${bid}`, { p: points, n: v.options.exchange_cards });
}

function teamBids(v, bids, team) {
  return TEAM_SEATS[team].map((s) => (bids[s] === null ? "…" : bidLabel(bids[s]))).join(" + ");
}

function info(v, box) {
  const trumps = el("div", "trump", t("spadesTrump") + (v.options.jokers ? ` ${t("jokersTrump")}` : ""));
  trumps.id = "trumps";
  const broken = el("div", "stock broken", v.spades_broken ? t("spadesBroken") : t("spadesNotBroken"));
  broken.id = "spades-broken";
  broken.dataset.broken = String(v.spades_broken);
  const chips = [trumps, broken];
  if (v.phase !== "deal" && v.bids.some((b) => b !== null)) {
    const contracts = el("div", "stock contracts");
    contracts.id = "contracts";
    for (const team of [0, 1]) {
      contracts.append(el("div", "contract", t("contract", { team: teamName(team), bids: teamBids(v, v.bids, team),
                                                          n: v.tricks_won[team] })));
    }
    chips.push(contracts);
  }
  box.replaceChildren(...chips);
}

/** A seat's bid; or, while another seat still holds its cards face down (it may
 * bid blind and has not looked: the server's hands_face_down), that — as one
 * sees across a card table who has not picked up their hand. */
function badges(v, seat) {
  const bid = v.bids[seat];
  if (bid === null && seat !== S.seat && v.hands_face_down?.[seat]) return [t("faceDownBadge")];
  return bid === null || v.phase === "deal" ? [] : [t("bidBadge", { bid: bidLabel(bid) })];
}

/** Cards of another seat that everyone has seen (face-up-four), while it holds them. */
function seatExtra(v, seat, box) {
  const shown = (v.face_up_held || [])[seat] || [];
  if (!shown.length || seat === S.seat) return;
  const row = el("div", "face-up");
  for (const card of shown) row.append(cardFace(card));
  oneImage(row, t("faceUpHeld", { cards: cardsSaid(shown) }));
  box.append(row);
}

/** The bids the server offers now (face down: the blind ones), and the look
 * control when "bid look" is among my legal actions (on my turn or not). */
function actions(v, legal, send) {
  const look = legal.find(isLook);
  const lookBtn = $("#act-look");
  lookBtn.hidden = !look;
  lookBtn.disabled = S.pending;
  lookBtn.title = t("lookTitle");
  lookBtn.onclick = () => { if (look) send(look.text); };
  const box = $("#bid-buttons");
  const bids = legal.filter((a) => a.verb === "bid" && !isLook(a));
  box.hidden = !bids.length;
  const key = [lang(), S.pending, ...bids.map((a) => a.text)].join("|");
  if (box.dataset.key === key) return;        // the same offer: keep the buttons (and their focus)
  box.dataset.key = key;
  box.replaceChildren(...bids.map((a) => {
    const kind = /^\d+$/.test(a.bid) ? "number" : a.bid;
    const b = button(bidLabel(a.bid), `bid bid-${kind}`, () => send(a.text));
    b.dataset.bid = a.bid;
    b.disabled = S.pending;
    b.setAttribute("aria-label", t("bidAria", { bid: bidLabel(a.bid) }));
    const title = bidTitle(v, a.bid);
    if (title) b.title = title;
    return b;
  }));
}

/** The status line, its cards as `voice` writes them (cards.js: SHOWN, SAID). */
function status(v, myTurn, legal, voice = SHOWN) {
  let text;
  if (v.match_over) text = t("matchOver");
  else if (v.phase === "deal") text = t("dealing");
  else if (handHidden(v)) {
    text = myTurn ? t("yourBidBlind") : `${t("waitingForBid", { name: seatName(v.current_player) })} ${t("blindAhead")}`;
  } else if (myTurn && v.phase === "bid") {
    text = t("yourBid");
    const partner = v.bids[(S.seat + 2) % 4];
    if (partner !== null) text += ` ${t("partnerBid", { bid: bidLabel(partner) })}`;
  } else if (myTurn && v.phase === "exchange") {
    text = t("yourTurnExchange", { n: v.exchange_to_give.filter((s) => s === S.seat).length });
  } else if (myTurn) {
    text = t("yourTurnPlay");
    if (v.must_lead) text += ` ${t("mustLeadClub", { card: voice.cards([v.must_lead]) })}`;
  } else if (v.phase === "bid") text = t("waitingForBid", { name: seatName(v.current_player) });
  else text = t("waitingFor", { name: seatName(v.current_player) });
  return text;
}

/** A score as written on a score sheet: a true minus sign, and a plus for a gain. */
function signed(n) {
  return n > 0 ? `+${n}` : number(n);
}

function redealt(deal) {
  return deal.bids.includes("redeal");
}

function dealSummary(number, deal) {
  if (redealt(deal)) return t("dealRedealt", { n: number });
  const parts = listOf([0, 1].map((team) => `${teamName(team)} ${signed(deal.score[team])}`));
  return t("dealEndSpades", { n: number, scores: parts });
}

function score(v, table) {
  const body = document.createDocumentFragment();
  v.deal_results.forEach((deal, index) => {
    const tr = scoreRow("deal-row", String(index + 1));
    for (const team of [0, 1]) {
      const td = el("td");
      td.append(el("span", "pts", redealt(deal) ? "—" : signed(deal.score[team])));
      if (!redealt(deal)) {
        const took = TEAM_SEATS[team].reduce((sum, s) => sum + deal.tricks[s], 0);
        td.append(el("span", "sub", t("dealLine", { bids: teamBids(v, deal.bids, team), n: took })));
        if (deal.bags[team]) td.append(el("span", "sub bags", t("bagsGained", { n: deal.bags[team] })));
        const paid = v.deal_bag_penalties?.[index]?.[team];      // the bag penalties this score holds
        if (paid) {
          td.append(el("span", "sub bags paid", t("bagsPaid", { p: paid * v.options.bag_penalty,
                                                               n: paid * v.options.bag_limit })));
        }
      }
      tr.append(td);
    }
    body.append(tr);
    if (redealt(deal)) body.append(noteRow(t("redealNote"), 3));
  });
  table.tBodies[0].replaceChildren(body);
  const foot = scoreRow("", t("total"));
  const target = v.options.target;
  for (const team of [0, 1]) {
    const td = el("td");
    td.append(el("span", "pts", `${number(v.score_total[team])} / ${target}`));
    td.append(progressBar(v.score_total[team], target, "bar win"));
    if (v.options.bags) td.append(el("span", "sub bags", t("bagsTotal", { n: v.bags_total[team] })));
    foot.append(td);
  }
  table.tFoot.replaceChildren(foot);
  const notes = [t("toWin", { n: target })];
  if (v.options.bags) notes.push(t("bagRule", { n: v.options.bag_limit, p: v.options.bag_penalty }));
  // a team at or below either line loses (lose_at, or −target under negative-reverse): the higher decides
  const lines = [v.options.lose_at, v.options.negative_target_loses ? -target : null].filter((n) => n !== null);
  if (lines.length) notes.push(t("loseAt", { n: number(Math.max(...lines)) }));
  if (v.options.max_deals !== null) notes.push(t("maxDeals", { n: v.options.max_deals }));
  return notes.join(" ");
}

function dealStart(v) {
  return t("dealStartSpades", { n: v.deal_number, dealer: seatName(v.dealer) });
}

function describe(a, name, v, voice = SHOWN) {
  if (a.verb !== "bid") return null;
  if (a.bid === "redeal") {
    const shown = v.shown_hand?.[String(a.seat)];
    return t("asksRedeal", { name }) + (shown ? `: ${voice.cards(shown)}` : "");
  }
  if (a.bid === "look") return t("looksLog", { name });
  return t("bidsLog", { name, bid: bidLabel(a.bid) });
}

/** The winner and the final score; a seated player hears "your team won" or "lost"
 * and the score, not the sheet's "Us" or "Them" as a subject ("Them won"). */
function result(v) {
  const winner = v.winner_team;
  if (winner === null) return "";
  const scores = { p: number(v.score_total[winner]), q: number(v.score_total[1 - winner]) };
  if (S.seat === null) return t("winnerIs", { team: teamName(winner), ...scores });
  return `${teamOf(S.seat) === winner ? t("youWon") : t("youLostSpades")} ${t("finalScore", scores)}`;
}

/** Bo Haglund's DDS (the server's `dds` extra) takes Spades card play, but not the joker
 * deck nor a renege penalty (a card that does not follow is legal there): a review
 * exists. Deals with a nil or an undecided Bemo are reviewed where tricks are what a
 * side plays for. */
function reviewable(v) {
  return !v.options?.jokers && !v.options?.renege_penalty;
}

export const spades = {
  name: "spades",
  multiCard: () => false,
  selectionKey: (v) => JSON.stringify([v.deal_number, v.tricks_played]),
  handHidden,
  openWhileHidden,
  info,
  badges,
  seatExtra,
  actions,
  status,
  score,
  dealSummary,
  dealStart,
  describe,
  result,
  reviewable,
};
