"""What several commands' options share: ``--bot-module``'s help and ``goat
bench``'s seed range. The ``--option key=value`` parser is the games'
(:mod:`goat.games.options`), the seed check the protocol's
(:func:`goat.protocol.check_seed`, named ``--seed`` here), the bot-module
loader the bots' (:func:`goat.bots.load_bot_modules`): the library uses them too."""

from __future__ import annotations

#: ``goat bench``'s seeds are below ``BENCH_SEED_LIMIT``: the compiled simulator
#: (``bench sim``) takes its seeds as numpy ``uint64``, and a larger one wrapped
#: round to a smaller one's deals in silence (``2**64 + 5`` measured ``5``'s);
#: every bench takes the same range.
BENCH_SEED_LIMIT = 2**64

#: ``--bot-module`` of ``goat tournament`` and ``goat play``: one help text.
BOT_MODULE_HELP = ("Import this bot module first: a module name (mypkg.bots) or a .py file that registers "
                   "bots with goat.bots.register_bot (docs/bots.md); repeatable (default: none, the built-in bots only).")
