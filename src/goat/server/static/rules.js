// The "Rules" panel: how to play the selected ruleset (home page, next to the
// rules choice) or this table's (the button in the top bar at a table), in
// the page's language, stated as the table plays it.
//
// Where the words live: the sentences are here, one phrase book per language
// (PHRASES.ru, PHRASES.en here, PHRASES.bg and PHRASES.ar in rules-bg.js and
// rules-ar.js: small functions of the option values), and one
// builder per game picks the phrases that the options make true — so the two
// languages can never say different rules. The opening sentence of each
// ruleset is in rules-presets.js. Every fact the engine computes (the trump
// order, the plain order, the card points, the hand and stock sizes, the scores
// of special bids) comes from the server, GET /api/games/{game}/rules/{rules}
// (goat.server.rulebook), never from a copy here; so do the option values
// (the preset's, with the table's changes).
//
// The panel is a modal <dialog>: Escape or Close shuts it and focus goes back to
// the button that opened it; its language buttons switch the whole page.

import { LANGS, count, lang } from "./i18n.js";
import PHRASES_AR from "./rules-ar.js";
import PHRASES_BG from "./rules-bg.js";
import { SYMBOLS, cardName, short } from "./cards.js";
import { $, S, api, el, named, spoken } from "./table.js";
import PRESET_TEXT from "./rules-presets.js";

const PHRASES = {
  ru: {
    open: "Правила",
    title: (game, rules) => `Правила: ${game} · ${rules}`,
    close: "Закрыть",
    loading: "Загружаю правила…",
    failed: (why) => `Правила не загрузились: ${why}`,
    sections: { deal: "Игроки и сдача", trumps: "Козыри", play: "Ход и взятка", points: "Очки в картах",
                end: "Конец сдачи и штрафные очки", match: "Конец партии", bids: "Заказ", scoring: "Счёт",
                game: "Конец игры", duel: "Дуэль", goat: "Особые правила", more: "Подробнее" },
    suit: { C: "трефы", D: "бубны", H: "червы", S: "пики" },
    rank: { "6": "шестёрок", "7": "семёрок", "9": "девяток" },
    order: "Старшие слева:",
    // Kozel
    pairs: "Четыре игрока, двое на двое: места 1 и 3 против мест 2 и 4. Очки и штрафы — общие на пару.",
    alone: (n) => `${count("ru", n, ["игрок", "игрока", "игроков"])}, каждый играет сам за себя.`,
    deck: (n, low) => `Колода — ${count("ru", n, ["карта", "карты", "карт"])}, от ${low} до тузов.`,
    dealStock: (h, s) => `Сдаётся по ${count("ru", h, ["карте", "карты", "карт"])} каждому, остальные ${s} — прикуп, рубашкой вверх.`,
    dealAll: (h) => `Все карты сдаются сразу, по ${h} каждому; прикупа нет.`,
    drawOne: "После каждой взятки все по очереди, начиная со взявшего, берут по одной карте из прикупа, пока он не кончится.",
    drawUpTo: (h) => `После каждой взятки, начиная со взявшего, добирают по одной карте из прикупа, пока у каждого не станет ${h} (или прикуп не кончится).`,
    nextDealer: { clockwise: "Сдача переходит по часовой стрелке.", same: "Сдаёт всё время один и тот же игрок." },
    leader: { dealer: "Первым в сдаче ходит сдающий.",
              "last-trick-winner": "Сдачу начинает взявший последнюю взятку прошлой сдачи (в первой сдаче — игрок слева от сдающего)." },
    partnerGive: "После сдачи, до первого хода, каждый отдаёт партнёру одну карту рубашкой вверх — все одновременно, не видя, что получат.",
    permanent: (hasShamok) => `Валеты и дамы — козыри всегда${hasShamok ? ", а старше всех карт — семёрка треф, шамок" : ""}. Среди валетов и среди дам: трефы > пики > червы > бубны.`,
    fixedSuit: (suit, permanent) => `Козырная масть — ${suit}${permanent ? " (ниже дам и валетов)" : ""}; в каждой сдаче одна и та же.`,
    drawnDeck: "Перед сдачей из колоды открывают случайную карту — её масть и будет козырем этой сдачи; потом карту замешивают обратно.",
    drawnStock: (faceUp) => (faceUp
      ? "После сдачи из середины прикупа открывают карту — её масть и будет козырем; карта остаётся на своём месте лицом вверх: все видят, где она и кому достанется."
      : "После сдачи из середины прикупа открывают карту — её масть и будет козырем; карту кладут обратно на её место рубашкой вверх: все знают, что это за карта, но не где она лежит."),
    belowPermanent: "Карты козырной масти идут ниже валетов и дам.",
    clubsPlain: (shamok) => `Когда козырь не трефы, трефы — простая масть (без ${shamok ? "7♣, " : ""}В♣ и Д♣).`,
    thisDeal: (suit) => `Козырь этой сдачи — ${suit}.`,
    trumpRanks: (ranks) => `В козырной масти: ${ranks}.`,
    plainRanks: (ranks) => `В простых мастях: ${ranks}.`,
    streetBeat: "Козырь бьёт любую некозырную карту; в одной масти старшая бьёт младшую; карты двух разных некозырных мастей друг друга не бьют.",
    firstPlain: "Первый ход сдачи — только некозырной картой.",
    trumpLead: {
      "previous-opener": "Пара, чей игрок открывал прошлую сдачу, всю эту сдачу не может ходить с козыря.",
      "not-after-own-lead": "С козыря нельзя ходить, если прошлую взятку начинала ваша пара.",
      "opening-only": "Дальше ходить с козыря можно.",
      free: "С козыря можно ходить в любой момент, и первым ходом тоже.",
    },
    trumpLeadAlone: {
      "previous-opener": "Игрок, открывавший прошлую сдачу, всю эту сдачу не может ходить с козыря.",
      "not-after-own-lead": "С козыря нельзя ходить, если прошлую взятку начинали вы.",
    },
    forcedExchange: "Если с козыря ходить нельзя, а на руках одни козыри, игрок отдаёт партнёру один козырь, а партнёр возвращает простую карту — ею и надо пойти. Если простых нет и у партнёра — можно ходить козырем.",
    follow: (trump, always) => `На простую масть отвечают картой той же масти${always ? " или любым козырем: козырем можно покрыть, даже когда масть есть" : ""}; ${trump ? "на козырь — козырем" : "на козырь можно положить любую карту"}. Нечем ответить — кладут любую карту: козырять не обязательно.`,
    winner: "Взятку берёт старший козырь, а без козырей — старшая карта масти первого хода; карты других мастей взятку не берут. Взявший ходит следующим.",
    streetLead: (n) => `Ходят в открытую 1–${n} картами одной масти.`,
    streetAnswer: "Каждый следующий по часовой кладёт столько же карт: либо бьёт — каждая его карта бьёт свою карту лучшего набора на столе (хода или последнего побившего), — либо скидывает любые карты рубашкой вверх; их не видит никто.",
    streetWinner: "Взятку со всеми картами, скинутыми тоже, берёт тот, чей набор побил последним (или ходивший, если никто не побил). Он ходит следующим.",
    molodka: (n) => `Молодка: у кого на руках четыре карты одной масти и кто ещё не клал карт в эту взятку, может объявить её в любой момент после хода, даже не в свою очередь. Все карты со стола возвращаются владельцам, и взятка начинается заново — с хода этими четырьмя картами. Не больше ${n} за взятку; если хотят двое — первым ближайший по часовой к начавшему взятку.`,
    points: (list, zero, total) => `${list}; ${zero} — 0. Масть и козырь не важны; всего в колоде ${total} очков.`,
    pointOf: (rank, p) => `${rankWord.ru[rank] || rank} — ${p}`,
    dealEnds: (stock) => stock ? "Сдача кончается, когда прикуп и руки пусты." : "Сдача кончается, когда сыграны все карты.",
    shamok: (p) => `Шамок ловит даму: как только 7♣ и Д♣ оказываются в одной взятке от игроков разных пар, сдача сразу кончается, очки не считают, а пара, положившая Д♣, получает ${count("ru", p, ["штрафное очко", "штрафных очка", "штрафных очков"])}.`,
    flat: (pairs) => pairs ? "Сдачу выигрывает пара, набравшая больше 60 очков; проигравшая пара получает 2 штрафных очка."
      : "Сдачу выигрывает игрок, набравший больше 60 очков; каждый другой получает 2 штрафных очка.",
    graded: (pairs) => `${pairs ? "Пара" : "Игрок"}, набравший 61 очко и больше, выигрывает сдачу. Проигравшие получают 2 штрафных очка, если набрали 31–59, 4 — если 30 и меньше, но взяли хоть одну взятку, 6 — если не взяли ни одной.`,
    eggs: "60 на 60 — «яйца»: штрафных очков не получает никто.",
    eggsDouble: "Но штрафные очки следующей решённой сдачи удваиваются.",
    annul: (pairs) => `${pairs ? "60 на 60" : "Если никто не набрал больше 60"} — сдача не считается, тот же сдающий сдаёт заново.`,
    goat: (n) => `Кто первым наберёт ${count("ru", n, ["штрафное очко", "штрафных очка", "штрафных очков"])}, тот проиграл партию — он «козёл». Партия кончается сразу.`,
    twoGoats: (most) => most
      ? "Если двое набирают их в одной сдаче, козёл — тот, у кого штрафных очков больше; если поровну — козлы оба, а партию выигрывает третий."
      : "Если двое набирают их в одной сдаче, козлы оба, а партию выигрывает третий.",
    royal: (stock, pairs) => `Королевский козёл: у кого после сдачи${stock ? " или добора" : ""} на руках все четыре туза, ${pairs ? "тот со своей парой" : "тот"} сразу выигрывает всю партию.`,
    // Spades
    spadesPairs: "Четыре игрока, двое на двое: места 1 и 3 против мест 2 и 4.",
    spadesDeck: (n, jokers) => `Колода — ${count("ru", n, ["карта", "карты", "карт"])}${jokers ? ", с большим и малым джокером и без 2♣ и 2♦" : ""}; каждому сдаётся по 13. Сдача переходит по часовой стрелке.`,
    faceUp: (n) => `Первые ${count("ru", n, ["карта", "карты", "карт"])} каждому сдаются в открытую — их видят все.`,
    weakHand: "Игрок без пик и без картинок (В, Д, К) может показать руку и попросить пересдачу вместо заказа.",
    spadesTrump: (jokers) => `Пики — всегда козырь${jokers ? "; выше туза пик малый джокер, ещё выше — большой" : ""}.`,
    spadesPlain: "В остальных мастях старший — туз, младшая — двойка.",
    bidRound: (min, nil) => `Начиная с игрока слева от сдающего, каждый один раз заказывает, сколько взяток возьмёт: от ${min} до 13${nil ? " или нил — ни одной" : ""}. Пасовать и менять заказ нельзя. Заказ пары — сумма двух заказов.`,
    mirror: "Зеркало: каждый заказывает ровно столько взяток, сколько у него пик.",
    teamBid: (lo, hi) => lo === hi ? `Заказы пары вместе — ровно ${lo}.` : `Заказы пары вместе — от ${lo} до ${hi}.`,
    blindNil: (behind, p) => `Слепой нил — нил, заказанный не глядя в карты: ${behind > 0 ? `можно только паре, которая отстаёт на ${behind} очков и больше` : "можно любой паре"}; ±${p}.`,
    doubleNil: (n, p) => `Двойной нил — слепой нил, после которого партнёры обмениваются ${count("ru", n, ["картой", "картами", "картами"])}; ±${p}.`,
    bemo: (little, big, once) => `Бимо: пара заказывает, что возьмёт все первые ${little.tricks} взяток (малое бимо, ±${little.points}) или все первые ${big.tricks} (большое, ±${big.points}); бимо идёт в заказ пары как заказ ${little.tricks} (${big.tricks}) взяток.${once ? " Бимо у пары одно: если его заказал один партнёр, другой заказать его не может." : ""}`,
    firstLead: { "left-of-dealer": "Первую взятку начинает игрок слева от сдающего — любой картой, кроме пики.",
                 "lowest-club": "Первую взятку начинает тот, у кого младшая трефа, — ею." },
    followSuit: "Масть хода обязательна; нет этой масти — кладут любую карту.",
    broken: {
      "any-spade": "С пики ходить нельзя, пока пики не «вскрыты» — пока пику не положили в одну из прошлых взяток (или если на руках одни пики).",
      trumping: "С пики ходить нельзя, пока пикой не побили взятку другой масти (или если на руках одни пики).",
      never: "С пики можно ходить, только если на руках одни пики.",
    },
    spadesWinner: "Взятку берёт старшая пика, а без пик — старшая карта масти хода. Взявший ходит следующим.",
    made: "Заказ выполнен: 10 очков за каждую заказанную взятку и по 1 очку и 1 мешку за каждую лишнюю.",
    set: (penalty, per) => !penalty ? "Недобор: 0 очков."
      : per === "missing-trick" ? "Недобор: минус 10 за каждую недобранную взятку." : "Недобор: минус 10 за каждую заказанную взятку.",
    nilTricks: { bags: "Взятки заказавшего нил в заказ пары не идут: каждая — 1 очко и 1 мешок.",
                 contract: "Взятки заказавшего нил идут в заказ пары." },
    nil: (p) => `Нил: +${p}, если заказавший не взял ни одной взятки, иначе −${p}.`,
    bags: (n, p) => `Мешки копятся всю игру: каждые ${n} мешков стоят ${p} очков.`,
    noBags: "Мешки ничего не стоят.",
    wheels: (w, by) => by === "player"
      ? `Колёса: если игрок заказал ${w.tricks} взяток и больше, заказ пары стоит ±${w.points}.`
      : `Колёса: заказ пары на ${w.tricks} взяток и больше — ±${w.points}.`,
    boston: (b, wins) => `Бостон: заказ пары на все ${b.tricks} взяток — ±${b.points}${wins ? "; выполненный выигрывает игру" : ""}.`,
    target: (n) => `Выигрывает пара, набравшая после сдачи ${n} очков и больше; если обе — у которой больше; поровну — играют ещё сдачу.`,
    loseAt: (n) => `Пара, у которой ${n} очков или меньше, проигрывает.`,
    negative: (n) => `Пара, у которой −${n} очков или меньше, проигрывает.`,
    maxDeals: (n) => `Не больше ${count("ru", n, ["сдачи", "сдач", "сдач"])}: потом выигрывает пара с большим счётом.`,
    // Yu-Gi-Oh!
    duel: (lp, hand) => `Двое игроков, у каждого ${lp} LP; в начале каждый берёт ${count("ru", hand, ["карту", "карты", "карт"])}. Проигрывает тот, у кого кончились LP или кто должен взять карту из пустой колоды.`,
    handLimit: (n) => `В конце своего хода на руке можно оставить не больше ${count("ru", n, ["карты", "карт", "карт"])}.`,
    matchDuels: (n) => `Матч — до ${Math.floor(n / 2) + 1} побед, не больше ${count("ru", n, ["дуэли", "дуэлей", "дуэлей"])}.`,
    deckRules: (min, copies) => `Основная колода — не меньше ${min} карт, не больше ${copies} копий одной карты.`,
    banlist: "Действует список запрещённых и ограниченных карт апреля 2005 года.",
    goatRules: "Правила, которые действуют за этим столом:",
    more: "Все правила движка, переключатели и список карт описаны в docs/yugioh.md проекта Goat.",
  },
  en: {
    open: "Rules",
    title: (game, rules) => `Rules: ${game} · ${rules}`,
    close: "Close",
    loading: "Loading the rules…",
    failed: (why) => `The rules did not load: ${why}`,
    sections: { deal: "Players and the deal", trumps: "Trumps", play: "Leading and tricks", points: "Card points",
                end: "End of a deal and penalty points", match: "End of the match", bids: "Bidding", scoring: "Scoring",
                game: "End of the game", duel: "The duel", goat: "Special rules", more: "More" },
    suit: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    rank: { "6": "sixes", "7": "sevens", "9": "nines" },
    order: "Highest first:",
    pairs: "Four players, two against two: seats 1 and 3 against seats 2 and 4. Points and penalties are the team's.",
    alone: (n) => `${n} players, each for themselves.`,
    deck: (n, low) => `A ${n}-card deck, ${low} to aces.`,
    dealStock: (h, s) => `Each player is dealt ${count("en", h, ["card", "cards"])}; the other ${s} are the stock, face down.`,
    dealAll: (h) => `All cards are dealt at once, ${h} each; there is no stock.`,
    drawOne: "After every trick each player, the winner first, draws one card from the stock while it lasts.",
    drawUpTo: (h) => `After every trick players draw one card at a time from the stock, the winner first, until each holds ${h} (or the stock is empty).`,
    nextDealer: { clockwise: "The deal passes clockwise.", same: "The same player deals every time." },
    leader: { dealer: "The dealer leads first.",
              "last-trick-winner": "The winner of the previous deal's last trick leads first (in the first deal: the player left of the dealer)." },
    partnerGive: "After the deal, before the first lead, everyone gives their partner one card face down, all at once, without seeing what they will get.",
    permanent: (hasShamok) => `Jacks and queens are always trumps${hasShamok ? ", and the seven of clubs, the shamok, is above every card" : ""}. Among the jacks and among the queens: clubs > spades > hearts > diamonds.`,
    fixedSuit: (suit, permanent) => `The trump suit is ${suit}${permanent ? " (below the jacks and queens)" : ""}, in every deal.`,
    drawnDeck: "Before the deal a random card of the deck is shown: its suit is this deal's trump; then it is shuffled back.",
    drawnStock: (faceUp) => (faceUp
      ? "After the deal a card from the middle of the stock is shown: its suit is trump; it stays where it was, face up, so everyone sees where it lies and who draws it."
      : "After the deal a card from the middle of the stock is shown: its suit is trump; it goes back face down where it was, so everyone knows the card but not where it lies."),
    belowPermanent: "The cards of the trump suit rank below the jacks and queens.",
    clubsPlain: (shamok) => `When clubs are not trump, clubs are a plain suit (without ${shamok ? "7♣, " : ""}J♣ and Q♣).`,
    thisDeal: (suit) => `This deal's trump is ${suit}.`,
    trumpRanks: (ranks) => `In the trump suit: ${ranks}.`,
    plainRanks: (ranks) => `In the plain suits: ${ranks}.`,
    streetBeat: "A trump beats any card that is not a trump; within a suit the higher card beats the lower; cards of two different plain suits never beat each other.",
    firstPlain: "The first lead of a deal must be a plain card.",
    trumpLead: {
      "previous-opener": "The team whose player made the first lead of the previous deal may not lead a trump for this whole deal.",
      "not-after-own-lead": "You may not lead a trump if your team led the previous trick.",
      "opening-only": "After that, trumps may be led.",
      free: "Trumps may be led at any time, the first lead too.",
    },
    trumpLeadAlone: {
      "previous-opener": "The player who made the first lead of the previous deal may not lead a trump for this whole deal.",
      "not-after-own-lead": "You may not lead a trump if you led the previous trick.",
    },
    forcedExchange: "A player who must not lead a trump but holds only trumps gives one trump to their partner, who gives back a plain card — and that card is led. If the partner has no plain card either, a trump may be led.",
    follow: (trump, always) => `A plain suit is followed with a card of that suit${always ? " or with any trump: a trump may be played even by a player who holds the suit" : ""}; ${trump ? "a trump lead with a trump" : "any card may be played to a trump lead"}. A player who cannot follow plays any card: there is no need to trump.`,
    winner: "The highest trump takes the trick; with no trump in it, the highest card of the suit led. Cards of other suits never win. The winner leads next.",
    streetLead: (n) => `Lead 1–${n} cards of one suit, face up.`,
    streetAnswer: "Each next player clockwise puts down as many cards: either beats — each of their cards beats a different card of the best set on the table (the lead, or the last set that beat it) — or passes any cards face down, which nobody sees.",
    streetWinner: "The owner of the last set that beat (or the leader, if nobody beat) takes the trick with every card on the table, the passed ones too, and leads next.",
    molodka: (n) => `Molodka: a player holding four cards of one suit who has not yet played to the trick may declare it at any moment after the lead, even out of turn. Every card on the table goes back to its owner, and the trick starts again with those four cards led. At most ${n} a trick; if two want to, the one nearer clockwise to the first leader goes first.`,
    points: (list, zero, total) => `${list}; ${zero}: 0. Suit and trump do not matter; the deck holds ${total} points.`,
    pointOf: (rank, p) => `${rankWord.en[rank] || rank} ${p}`,
    dealEnds: (stock) => stock ? "A deal ends when the stock and all hands are empty." : "A deal ends when every card has been played.",
    shamok: (p) => `The shamok catches the queen: as soon as 7♣ and Q♣ lie in one trick, played by two teams, the deal ends at once, the points are not counted, and the team that played Q♣ gets ${count("en", p, ["penalty point", "penalty points"])}.`,
    flat: (pairs) => pairs ? "The team with more than 60 points wins the deal; the other team gets 2 penalty points."
      : "The player with more than 60 points wins the deal; every other player gets 2 penalty points.",
    graded: (pairs) => `The ${pairs ? "team" : "player"} with 61 points or more wins the deal. The losers get 2 penalty points if they took 31–59, 4 if they took 30 or fewer but won a trick, 6 if they won no trick at all.`,
    eggs: "60–60 is \"eggs\": nobody gets penalty points.",
    eggsDouble: "But the penalty points of the next decided deal are doubled.",
    annul: (pairs) => `${pairs ? "At 60–60" : "If nobody has more than 60"} the deal does not count; the same dealer deals again.`,
    goat: (n) => `Whoever first reaches ${count("en", n, ["penalty point", "penalty points"])} loses the match — they are "the goat". The match ends at once.`,
    twoGoats: (most) => most
      ? "If two reach it in the same deal, the one with more penalty points is the goat; if level, both are goats and the third player wins."
      : "If two reach it in the same deal, both are goats and the third player wins.",
    royal: (stock, pairs) => `Royal goat: a player who holds all four aces after the deal${stock ? " or a draw" : ""} wins the whole match at once${pairs ? " with their partner" : ""}.`,
    spadesPairs: "Four players, two against two: seats 1 and 3 against seats 2 and 4.",
    spadesDeck: (n, jokers) => `A ${n}-card deck${jokers ? " with the big and the little joker and without 2♣ and 2♦" : ""}; 13 cards each. The deal passes clockwise.`,
    faceUp: (n) => `The first ${count("en", n, ["card", "cards"])} dealt to each player are dealt face up, for all to see.`,
    weakHand: "A player with no spades and no face cards (J, Q, K) may show the hand and ask for a redeal instead of bidding.",
    spadesTrump: (jokers) => `Spades are always trump${jokers ? "; above the ace of spades the little joker, and above it the big joker" : ""}.`,
    spadesPlain: "In the other suits the ace is high and the two low.",
    bidRound: (min, nil) => `Starting left of the dealer, each player bids once how many tricks they will take: ${min} to 13${nil ? ", or nil — none at all" : ""}. No passing, no changing a bid. A team's contract is its two bids together.`,
    mirror: "Mirror: everyone bids exactly the number of spades they hold.",
    teamBid: (lo, hi) => lo === hi ? `A team's two bids add up to exactly ${lo}.` : `A team's two bids add up to ${lo}–${hi}.`,
    blindNil: (behind, p) => `Blind nil is nil bid before looking at your cards, allowed ${behind > 0 ? `only to a team ${behind} or more points behind` : "to either team"}: ±${p}.`,
    doubleNil: (n, p) => `Double nil is a blind nil after which the partners exchange ${count("en", n, ["card", "cards"])}: ±${p}.`,
    bemo: (little, big, once) => `Bemo: a team bids to take all of the first ${little.tricks} tricks (little Bemo, ±${little.points}) or the first ${big.tricks} (big Bemo, ±${big.points}); it counts as a bid of ${little.tricks} (${big.tricks}) tricks toward the team's contract.${once ? " One Bemo a team: once a player bids one, the partner may not." : ""}`,
    firstLead: { "left-of-dealer": "The player left of the dealer leads the first trick, with any card but a spade.",
                 "lowest-club": "Whoever holds the lowest club leads it to the first trick." },
    followSuit: "You must follow suit; if you cannot, play any card.",
    broken: {
      "any-spade": "Spades may not be led until they are \"broken\" — a spade was played to an earlier trick — unless you hold only spades.",
      trumping: "Spades may not be led until a spade has trumped a trick of another suit, unless you hold only spades.",
      never: "A spade may be led only by a player holding nothing but spades.",
    },
    spadesWinner: "The highest spade takes the trick; with no spade in it, the highest card of the suit led. The winner leads next.",
    made: "Contract made: 10 points a bid trick, and 1 point and 1 bag for every trick over it.",
    set: (penalty, per) => !penalty ? "Contract missed: 0 points."
      : per === "missing-trick" ? "Contract missed: minus 10 a missing trick." : "Contract missed: minus 10 a bid trick.",
    nilTricks: { bags: "A nil bidder's tricks do not count toward the team's contract: each is 1 point and 1 bag.",
                 contract: "A nil bidder's tricks count toward the team's contract." },
    nil: (p) => `Nil: +${p} if the bidder takes no trick, otherwise −${p}.`,
    bags: (n, p) => `Bags add up over the game: every ${n} bags cost ${p} points.`,
    noBags: "Bags cost nothing.",
    wheels: (w, by) => by === "player"
      ? `Wheels: when one player bids ${w.tricks} tricks or more, the team's bid scores ±${w.points}.`
      : `Wheels: a team bid of ${w.tricks} tricks or more scores ±${w.points}.`,
    boston: (b, wins) => `Boston: a team bid of all ${b.tricks} tricks scores ±${b.points}${wins ? ", and making it wins the game" : ""}.`,
    target: (n) => `After a deal, a team with ${n} points or more wins; if both have, the higher score; equal scores play another deal.`,
    loseAt: (n) => `A team at ${n} points or below loses.`,
    negative: (n) => `A team at −${n} points or below loses.`,
    maxDeals: (n) => `At most ${count("en", n, ["deal", "deals"])}: then the higher score wins.`,
    duel: (lp, hand) => `Two players, ${lp} LP each; each draws ${count("en", hand, ["card", "cards"])} to start. You lose when your LP reach 0 or when you must draw from an empty deck.`,
    handLimit: (n) => `At the end of your turn you may keep at most ${count("en", n, ["card", "cards"])} in hand.`,
    matchDuels: (n) => `A match goes to ${Math.floor(n / 2) + 1} wins, at most ${count("en", n, ["duel", "duels"])}.`,
    deckRules: (min, copies) => `A main deck holds at least ${min} cards, at most ${copies} copies of a card.`,
    banlist: "The Forbidden/Limited list of April 2005 applies.",
    goatRules: "The rules this table plays by:",
    more: "Every rule of the engine, its switches and the card pool are described in docs/yugioh.md of the Goat project.",
  },
  bg: PHRASES_BG,
  ar: PHRASES_AR,
};

/** Rank names for the card points, by language. */
const rankWord = {
  ru: { A: "туз", T: "десятка", K: "король", Q: "дама", J: "валет" },
  en: { A: "ace", T: "ten", K: "king", Q: "queen", J: "jack" },
};

// ------------------------------------------------------------- the builders
// A section is {key, items}: an item is a sentence, or a DOM node (a card order).

/** A card order, highest first, as a list whose items name their cards. */
function orderList(cards, id = null) {
  const list = el("ol", "rules-order");
  if (id) list.id = id;
  for (const card of [...cards].reverse()) {
    const item = spoken(el("li", `suit-${card[1]}`), short(card), cardName(card));
    item.dataset.card = card;
    item.title = cardName(card);
    list.append(item);
  }
  return list;
}

function ranksText(cards) {
  return [...cards].reverse().map((c) => short(c).replace(/[♣♦♥♠]/, "")).join(" ");
}

function kozelSections(P, o, f, current) {
  const pairs = f.partnerships;
  const stock = f.stock_size > 0;
  const lowest = f.deck[0][0];     // the deck is listed suit by suit, each from its lowest rank
  const deal = [pairs ? P.pairs : P.alone(f.players), P.deck(f.deck.length, P.rank[lowest] || lowest),
                stock ? P.dealStock(f.hand_size, f.stock_size) : P.dealAll(f.hand_size)];
  if (stock) deal.push(o.trick_style === "street" ? P.drawUpTo(f.hand_size) : P.drawOne);
  deal.push(P.nextDealer[o.next_dealer], P.leader[o.opening_leader]);
  if (o.partner_exchange) deal.push(P.partnerGive);

  const trumps = [];
  const suits = Object.keys(f.trump_orders);
  const shown = current && f.trump_orders[current] ? current : (suits.length === 1 ? suits[0] : null);
  if (o.permanent_trumps) trumps.push(P.permanent(Boolean(f.shamok)));
  if (o.trump_suit === "drawn") {
    trumps.push(o.trump_card_from === "stock" ? P.drawnStock(o.trump_card_place === "public") : P.drawnDeck);
    if (o.permanent_trumps) trumps.push(P.belowPermanent, P.clubsPlain(Boolean(f.shamok)));
  } else {
    trumps.push(P.fixedSuit(P.suit[o.trump_suit], o.permanent_trumps));
  }
  if (o.trick_style === "street") trumps.push(P.streetBeat);
  if (shown) {
    if (o.trump_suit === "drawn") trumps.push(P.thisDeal(`${SYMBOLS[shown]} ${P.suit[shown]}`));
    trumps.push(P.order, orderList(f.trump_orders[shown].trumps, "rules-trumps"));
  } else {
    // Any deal: the permanent trumps, then the trump suit's ranks (shown for a suit
    // other than clubs, whose seven is the shamok).
    const example = suits.find((s) => s !== "C") || suits[0];
    if (f.permanent_trumps.length) trumps.push(P.order, orderList(f.permanent_trumps, "rules-trumps"));
    trumps.push(P.trumpRanks(ranksText(f.trump_orders[example].trumps
      .filter((c) => c[1] === example && !f.permanent_trumps.includes(c)))));
  }
  const plainOf = f.trump_orders[shown || suits.find((s) => s !== "C") || suits[0]].plain;
  const plainSuit = Object.keys(plainOf)[0];
  if (plainSuit) trumps.push(P.plainRanks(ranksText(plainOf[plainSuit])));

  const play = [];
  if (o.trick_style === "street") {
    play.push(P.streetLead(o.max_lead), P.streetAnswer, P.streetWinner);
    if (o.molodka) play.push(P.molodka(o.max_molodka_per_trick));
  } else {
    if (o.trump_lead !== "free") play.push(P.firstPlain);
    play.push((!pairs && P.trumpLeadAlone[o.trump_lead]) || P.trumpLead[o.trump_lead]);
    if (o.forced_exchange && pairs && o.trump_lead !== "free") play.push(P.forcedExchange);
    play.push(P.follow(o.must_follow_trump, o.trump_on_plain === "always"), P.winner);
  }

  const scoring = Object.entries(f.card_points).filter(([, p]) => p > 0).sort((a, b) => b[1] - a[1]);
  const zero = Object.entries(f.card_points).filter(([, p]) => p === 0).map(([r]) => (r === "T" ? "10" : r));
  const points = [P.points(scoring.map(([r, p]) => P.pointOf(r, p)).join(", "), zero.join(", "), f.total_points)];

  const end = [P.dealEnds(stock)];
  if (o.shamok_catches_queen && f.shamok) end.push(P.shamok(o.shamok_penalty));
  end.push(o.penalty === "graded" ? P.graded(pairs) : P.flat(pairs));
  if (o.tie === "annul") end.push(P.annul(pairs));
  else {
    end.push(P.eggs);
    if (o.eggs === "double-next") end.push(P.eggsDouble);
  }
  const match = [P.goat(o.match_target)];
  if (f.players === 3) match.push(P.twoGoats(o.match_loser === "most-penalty"));
  if (o.royal_goat) match.push(P.royal(stock, pairs));
  return [["deal", deal], ["trumps", trumps], ["play", play], ["points", points], ["end", end], ["match", match]];
}

function spadesSections(P, o, f) {
  const deal = [P.spadesPairs, P.spadesDeck(f.deck.length, o.jokers)];
  if (o.face_up_cards) deal.push(P.faceUp(o.face_up_cards));
  if (o.weak_hand_redeal) deal.push(P.weakHand);
  const trumps = [P.spadesTrump(o.jokers), P.order, orderList(f.trumps, "rules-trumps"), P.spadesPlain];
  const bids = [];
  if (o.mirror) bids.push(P.mirror);
  else bids.push(P.bidRound(o.min_bid, o.nil));
  if (o.min_team_bid > 0 || o.max_team_bid < 2 * f.hand_size) bids.push(P.teamBid(o.min_team_bid, o.max_team_bid));
  if (o.blind_nil) bids.push(P.blindNil(o.blind_nil_behind, o.blind_nil_points));
  if (o.double_nil) bids.push(P.doubleNil(o.exchange_cards, o.double_nil_points));
  if (o.bemo) bids.push(P.bemo(f.bemo["little-bemo"], f.bemo["big-bemo"], o.bemo_one_per_team));
  const play = [P.firstLead[o.first_lead], P.followSuit, P.broken[o.spades_broken_by], P.spadesWinner];
  const scoring = [P.made, P.set(o.set_penalty, o.set_penalty_per)];
  if (o.nil || o.blind_nil || o.double_nil) scoring.push(P.nilTricks[o.nil_tricks]);
  if (o.nil) scoring.push(P.nil(o.nil_points));
  scoring.push(o.bags ? P.bags(o.bag_limit, o.bag_penalty) : P.noBags);
  if (o.wheels) scoring.push(P.wheels(f.wheels, o.wheels_by));
  if (o.boston) scoring.push(P.boston(f.boston, o.boston_wins_game));
  const end = [P.target(o.target)];
  if (o.lose_at !== null && o.lose_at !== undefined) end.push(P.loseAt(o.lose_at));
  if (o.negative_target_loses) end.push(P.negative(o.target));
  if (o.max_deals) end.push(P.maxDeals(o.max_deals));
  return [["deal", deal], ["trumps", trumps], ["bids", bids], ["play", play], ["scoring", scoring], ["game", end]];
}

function yugiohSections(P, o) {
  const duel = [P.duel(o.starting_lp, o.starting_hand), P.handLimit(o.hand_limit), P.matchDuels(o.match_duels),
                P.deckRules(o.min_main_deck, o.max_copies)];
  if (o.banlist === "goat") duel.push(P.banlist);
  // The rule switches that are on, each in the words of the option form's explanation.
  const on = Object.entries(o).filter(([k, v]) => v === true && named("optTitle", k) !== k).map(([k]) => named("optTitle", k));
  const goat = on.length ? [P.goatRules, listOf(on)] : [];
  return [["duel", duel], ["goat", goat], ["more", [P.more]]];
}

function listOf(lines) {
  const list = el("ul", "rules-list");
  for (const line of lines) list.append(el("li", "", line));
  return list;
}

/** The sections of a ruleset's rules in the page's language: [[key, items]...]. */
export function sections(data, current = null) {
  const P = PHRASES[lang()] || PHRASES.en;
  const intro = PRESET_TEXT[data.game]?.[data.rules]?.[lang()] || PRESET_TEXT[data.game]?.[data.rules]?.en;
  const build = { kozel: () => kozelSections(P, data.options, data.facts, current),
                  spades: () => spadesSections(P, data.options, data.facts),
                  yugioh: () => yugiohSections(P, data.options) }[data.game];
  return [["intro", intro ? [intro] : []], ...(build ? build() : [])];
}

// ---------------------------------------------------------------- the panel
let dialog = null;
let opener = null;
let shown = null;     // {request, data}: what the panel shows, drawn again when the language changes

function phrases() {
  return PHRASES[lang()] || PHRASES.en;
}

/** What to show: this table's rules at a table, else the home form's choice. */
function request() {
  if (S.msg) {
    return { game: S.msg.game, rules: S.msg.rules, players: S.msg.players, options: S.msg.options || {},
             current: S.msg.view?.trump_suit || null };
  }
  const game = $("#create-game")?.value || "kozel";
  const rules = $("#create-rules")?.value || "";
  const players = Number($("#create-players")?.value) || null;
  const entry = S.catalog?.games?.find((g) => g.name === game)?.rules?.find((r) => r.name === rules);
  const defaults = entry?.options?.[String(players)] || {};
  const options = Object.fromEntries(Object.entries(S.optionEdits || {}).filter(([k]) => k in defaults));
  return { game, rules, players, options, current: null };
}

function draw() {
  const P = phrases();
  const body = $("#rules-body");
  $("#rules-close").textContent = P.close;
  for (const b of dialog.querySelectorAll(".rules-lang")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang()));
  if (!shown) return;
  const { request: r, data, error } = shown;
  $("#rules-title").textContent = P.title(named("games", r.game), named("rules", r.rules));
  if (error) {
    body.replaceChildren(el("p", "rules-error", P.failed(error)));
    return;
  }
  if (!data) {
    body.replaceChildren(el("p", "hint", P.loading));
    return;
  }
  const nodes = [];
  for (const [key, items] of sections(data, r.current)) {
    if (!items.length) continue;
    const part = el("section", `rules-${key}`);
    part.dataset.section = key;
    if (key !== "intro") part.append(el("h3", "", P.sections[key] || key));
    for (const item of items) part.append(typeof item === "string" ? el("p", "", item) : item);
    nodes.push(part);
  }
  body.replaceChildren(...nodes);
}

/** Open the panel for what is chosen (home) or played (a table). */
export async function openRules(event) {
  opener = event?.currentTarget || document.activeElement;
  const r = request();
  shown = { request: r, data: null };
  draw();
  if (!dialog.open) dialog.showModal();
  $("#rules-close").focus();
  const query = new URLSearchParams();
  if (r.players) query.set("players", String(r.players));
  if (Object.keys(r.options).length) query.set("options", JSON.stringify(r.options));
  try {
    const data = await api("GET", `api/games/${encodeURIComponent(r.game)}/rules/${encodeURIComponent(r.rules)}?${query}`);
    if (shown?.request === r) shown = { request: r, data };
  } catch (error) {
    if (shown?.request === r) shown = { request: r, data: null, error: error.message };
  }
  draw();
}

function labelButtons() {
  for (const b of document.querySelectorAll(".rules-btn")) b.textContent = phrases().open;
}

/** Make the panel and its buttons (once, at start): one beside the home form's
 * rules choice, one in the top bar at a table. */
export function initRules() {
  dialog = el("dialog", "rules-dialog");
  dialog.id = "rules";
  dialog.setAttribute("aria-labelledby", "rules-title");
  const head = el("div", "row rules-head");
  const title = el("h2", "", "");
  title.id = "rules-title";
  const langs = el("span", "rules-langs");
  langs.setAttribute("role", "group");
  langs.setAttribute("aria-label", document.querySelector(".topbar .langs")?.getAttribute("aria-label") || "Language");
  for (const code of LANGS) {
    const top = document.querySelector(`.topbar .lang[data-lang="${code}"]`);
    const b = el("button", "rules-lang", top?.textContent || code.toUpperCase());   // named as the page's own buttons
    if (top?.lang) b.lang = top.lang;
    if (top?.dir) b.dir = top.dir;
    b.type = "button";
    b.dataset.lang = code;
    // The page's own language buttons switch everything (they are inert behind the dialog).
    b.addEventListener("click", () => document.querySelector(`.topbar .lang[data-lang="${code}"]`)
      ?.dispatchEvent(new MouseEvent("click", { bubbles: true })));
    langs.append(b);
  }
  const close = el("button", "", "");
  close.id = "rules-close";
  close.type = "button";
  close.addEventListener("click", () => dialog.close());
  head.append(title, langs, close);
  const body = el("div", "rules-body");
  body.id = "rules-body";
  body.tabIndex = 0;                    // a keyboard scrolls a long text (axe: scrollable-region-focusable)
  body.setAttribute("role", "region");
  body.setAttribute("aria-labelledby", "rules-title");
  dialog.append(head, body);
  document.body.append(dialog);
  dialog.addEventListener("close", () => {
    shown = null;
    if (opener && document.contains(opener)) opener.focus();
  });

  const home = el("button", "rules-btn", "");
  home.id = "rules-open-home";
  home.type = "button";
  home.addEventListener("click", openRules);
  $("#create-rules")?.closest("label")?.after(home);
  const bar = el("button", "rules-btn", "");
  bar.id = "rules-open";
  bar.type = "button";
  bar.hidden = !new URLSearchParams(location.search).get("table");
  bar.addEventListener("click", openRules);
  $(".topbar .langs")?.before(bar);
  for (const b of document.querySelectorAll(".topbar .lang")) {
    b.addEventListener("click", () => { labelButtons(); if (dialog.open) draw(); });
  }
  labelButtons();
  draw();
}

