"""A game's chance, one random stream per source, each derived from the game's seed and its id.

Every source of chance in a game draws from its own stream: the gems (`gems`), each age deck
(`age-deck`, its age), each zone's deck (`zone-deck`, its key in the state: `camp-deck@1`, `mythology`,
any zone a layer adds), each shuffle of cards back into a deck during play (`reshuffle`, the deck
and how many times it was reshuffled before), and each seat's bot (`bot`, the seat). A stream is
`random.Random(n)` with n the 128-bit BLAKE2b digest of `"{seed}/{purpose}/{id}"`: stable across
processes, machines and Python versions (never Python's salted `hash()`). So a change to one deck
(a card more, a zone added) leaves every other deal of the same seed as it was, and two rule sets
played with one seed share every deal their changes do not touch.

What is shared between player counts: a deck's stream does not depend on the number of players,
but a deck whose cards differ with it (the 5-player cards, the gems of each count) is dealt from
that stream differently. The coins are not random (every player starts with the same hand, the
treasure is sorted by value).
"""
from __future__ import annotations

import hashlib
import random

GEMS = "gems"
AGE_DECK = "age-deck"
ZONE_DECK = "zone-deck"
RESHUFFLE = "reshuffle"
BOT = "bot"


def derive(seed: int, purpose: str, key: str = "") -> int:
    """The seed of a stream: a stable 128-bit hash of the game's seed, the purpose and the id."""
    text = f"{seed}/{purpose}/{key}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=16).digest(), "big")


def stream(seed: int, purpose: str, key: str = "") -> random.Random:
    """The random stream of one source of a game's chance."""
    return random.Random(derive(seed, purpose, key))


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in seat `seat` (0-based) of the game of seed `seed`."""
    return derive(seed, BOT, str(seat))
