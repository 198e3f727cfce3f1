"""The phases of a Spades deal (the values of ``state.phase`` and ``view["phase"]``)."""

DEAL = "deal"          # chance: shuffle and deal
BID = "bid"            # one bid a seat, starting left of the dealer
EXCHANGE = "exchange"  # a double nil's exchange of cards between partners
PLAY = "play"          # 13 tricks
OVER = "over"          # the game (or the single deal) is over

PHASES = (DEAL, BID, EXCHANGE, PLAY, OVER)
