// One or two sentences a ruleset, in each language: what kind of game it is.
// The Rules panel (rules.js) opens with it; everything after it is built from the
// table's options and the engine's facts. Plain JSON after `export default`, so
// tests/server/test_rulebook.py can read it and fail when a ruleset has no text.
export default {
  "kozel": {
    "classic": {
      "ru": "Классический «Козёл» — дворовая игра двое на двое: на руках по четыре карты, после каждой взятки все добирают из прикупа. Козыри постоянные.",
      "en": "Classic Kozel, the courtyard game of two against two: four cards in hand, and everyone draws from the stock after every trick. The trumps never change."
    },
    "full-hand": {
      "ru": "«Козёл» на полную руку: все карты сдаются сразу, а козырную масть сдачи показывает открытая карта. Играют вчетвером парами, вдвоём или втроём — каждый за себя.",
      "en": "Kozel with the full hand: all cards are dealt at once, and a card shown before the deal names its trump suit. Four play in pairs; two or three play each for themselves."
    },
    "full-hand-24": {
      "ru": "«Козёл» на полную руку колодой в 24 карты, от девятки до туза: по шесть карт каждому, шамка нет.",
      "en": "Kozel with the full hand and a 24-card deck, nines to aces: six cards each, and no shamok."
    },
    "street": {
      "ru": "Уличный «Козёл»: ходят и бьют сразу несколькими картами одной масти, а кто не может или не хочет бить — скидывает карты рубашкой вверх. Козырь — масть карты из середины прикупа.",
      "en": "Street Kozel: you lead and beat with several cards of one suit at once, and whoever cannot or will not beat passes cards face down. The trump is the suit of a card from the middle of the stock."
    }
  },
  "spades": {
    "standard": {
      "ru": "Классический «Спейдс» («Пики»): четверо, двое на двое; каждый заранее заказывает, сколько взяток возьмёт, пики всегда козырь. Игра до 500 очков.",
      "en": "Standard Spades: four players, two against two; everyone bids how many tricks they will take, and spades are always trump. The game goes to 500 points."
    },
    "spades": {
      "ru": "Классический «Спейдс» («Пики»): четверо, двое на двое; каждый заранее заказывает, сколько взяток возьмёт, пики всегда козырь. Игра до 500 очков.",
      "en": "Standard Spades: four players, two against two; everyone bids how many tricks they will take, and spades are always trump. The game goes to 500 points."
    },
    "no-early-spades": {
      "ru": "«Спейдс» без ранних пик: ходить с пики можно только после того, как пикой побили взятку другой масти.",
      "en": "Spades with no early spades: a spade may be led only once a spade has trumped a trick of another suit."
    },
    "face-up-four": {
      "ru": "«Спейдс», четыре в открытую: первые четыре карты каждому сдаются лицом вверх, их видят все.",
      "en": "Spades with four face up: the first four cards dealt to each player are dealt face up, for everyone to see."
    },
    "wheels": {
      "ru": "«Спейдс» с «колёсами» (10 за 200): заказ пары на 10 взяток и больше приносит или стоит 200 очков.",
      "en": "Spades with wheels (10 for 200): a team bid of 10 tricks or more wins or loses 200 points."
    },
    "mirror": {
      "ru": "Зеркальный «Спейдс»: каждый заказывает ровно столько взяток, сколько у него пик.",
      "en": "Mirror Spades: every player bids exactly the number of spades they hold."
    },
    "joker-trumps": {
      "ru": "«Спейдс» с джокерами: большой и малый джокер — старшие козыри, выше туза пик; двойки треф и бубен убраны.",
      "en": "Spades with jokers: the big and the little joker are the top trumps, above the ace of spades; the twos of clubs and diamonds are taken out."
    },
    "partnership-fourteen": {
      "ru": "«Спейдс» «четырнадцать на пару»: заказы каждой пары вместе — ровно 7, и никто не заказывает меньше двух.",
      "en": "Partnership fourteen: each team's two bids add up to exactly 7, and nobody bids fewer than two."
    },
    "low-club-lead": {
      "ru": "«Спейдс» с младшей трефы: первую взятку начинает тот, у кого младшая трефа, — ею.",
      "en": "Low club lead: whoever holds the lowest club leads it to the first trick."
    },
    "boston": {
      "ru": "«Спейдс» с «Бостоном»: заказ пары на все 13 взяток приносит или стоит 200 очков.",
      "en": "Spades with Boston: a team bid of all 13 tricks wins or loses 200 points."
    },
    "bemo": {
      "ru": "«Спейдс» с бимо: можно заказать, что пара возьмёт все первые 6 (малое бимо) или 9 (большое) взяток.",
      "en": "Spades with Bemo: a team may bid to take all of the first 6 (little Bemo) or 9 (big Bemo) tricks."
    },
    "negative-reverse": {
      "ru": "«Спейдс» с обратным минусом: пара, ушедшая в минус на целевое число очков, проигрывает.",
      "en": "Negative reverse: a team that sinks to minus the target score loses."
    }
  },
  "yugioh": {
    "goat": {
      "ru": "Дуэль Yu-Gi-Oh! в Goat Format — правила и карты 2005 года (список запретов апреля 2005), как их играют сегодня на турнирах Goat Format.",
      "en": "A Yu-Gi-Oh! duel in Goat Format: the rules and cards of 2005 (the April 2005 Forbidden/Limited list), as Goat Format tournaments play them today."
    },
    "official": {
      "ru": "Дуэль Yu-Gi-Oh! по официальной книге правил 2004–2005 годов, без уточнений Goat Format.",
      "en": "A Yu-Gi-Oh! duel by the official 2004–2005 rulebook, without the Goat Format rulings."
    }
  }
};
