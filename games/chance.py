"""Where a game's chance comes from: a seed expanded through SHA-256, so public cards never pin the
deal down.

A match's seed is drawn by the server from the OS generator (``SEED_BITS`` bits, see
``app/match/service.py``); :class:`DealRandom` turns it into every shuffle and draw of the deal.
It is a ``random.Random`` (``shuffle``, ``sample``, ``randrange`` work unchanged) whose bits are
SHA-256 of the seed and a block counter: the same seed always deals the same cards, so a stored
match replays, yet seeing any number of its cards tells nothing about the seed or the rest of the
deal short of searching all 2^128 seeds. The Mersenne Twister of ``random.Random(seed)`` (what
older rules versions dealt with) is recoverable from its outputs and its seeds were 31 bits.

Drawing the seed is the caller's job (no game touches the OS): games stay pure functions of it.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

SEED_BITS = 128
"""Bits of a new match's seed: a search over all seeds is out of reach."""
SEED_LIMIT = 2**256
"""Seeds accepted from anywhere (a stored match, a game record, the analysis board): 0 <= seed <
SEED_LIMIT. The generator keys on 32 bytes, so a longer seed would add nothing."""

_DOMAIN = b"stepwell deal v1\x00"
_BLOCK = hashlib.sha256().digest_size


def check_seed(seed: int) -> int:
    """``seed`` if it is one the generator takes; ValueError otherwise (e.g. from a record)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed is a whole number from 0 to 2**256 - 1, not {seed!r}")
    return seed


class DealRandom(random.Random):
    """A deterministic ``random.Random`` whose bits are SHA-256(domain, seed, counter).

    Only ``getrandbits`` and ``random`` draw bits (``random.Random`` builds every other method
    on ``getrandbits`` once a subclass defines it), so no Mersenne Twister state is ever used.
    """

    _key: bytes
    _counter: int
    _pool: int
    _pool_bits: int

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    def seed(self, a: Any = 0, version: int = 2) -> None:
        """Key the generator with ``a`` (an int in 0..2**256-1) and start at block 0."""
        self._key = check_seed(a).to_bytes(32, "big")
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0

    def _refill(self) -> None:
        block = hashlib.sha256(_DOMAIN + self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool = (self._pool << (8 * _BLOCK)) | int.from_bytes(block, "big")
        self._pool_bits += 8 * _BLOCK

    def getrandbits(self, k: int) -> int:
        """``k`` fresh bits, taken in order from the hash stream."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            self._refill()
        self._pool_bits -= k
        bits = self._pool >> self._pool_bits
        self._pool &= (1 << self._pool_bits) - 1
        return bits

    def random(self) -> float:
        """A float in [0, 1) from 53 bits, as ``random.Random.random`` does."""
        return self.getrandbits(53) * 2.0**-53

    def getstate(self) -> Any:
        return (self._key, self._counter, self._pool, self._pool_bits)

    def setstate(self, state: Any) -> None:
        self._key, self._counter, self._pool, self._pool_bits = state
