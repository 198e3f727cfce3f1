"""The phases of a Spades deal (the values of ``state.phase`` and ``view["phase"]``)."""

from goat.games.tricks.phases import DEAL, OVER  # shared by every game

BID = "bid"            # one bid a seat, starting left of the dealer
EXCHANGE = "exchange"  # a double nil's exchange of cards between partners
PLAY = "play"          # 13 tricks

PHASES = (DEAL, BID, EXCHANGE, PLAY, OVER)
