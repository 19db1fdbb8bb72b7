"""Town of Stairs deals: rules version 3 deals through the cryptographic generator
(``games.chance.DealRandom``), and matches stored under versions 1 and 2 keep the Mersenne
Twister deal their seed gave them, so they replay to the very snapshot they were played to."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.chance import SEED_BITS, SEED_LIMIT, DealRandom, check_seed
from games.town.cards import EVENT_IDS, PATH_IDS
from games.town.engine import GAME, TownState

# A two-player game played and stored before version 3 (seed 987654321, random moves): its
# deal, its move log and the SHA-256 of its final snapshot, as the version-2 engine made them.
OLD_SEED = 987654321
OLD_LOG = (
    "E13@c1", "P4@f1", "E5@g1", "P11@f2", "P6@a1", "E1@g2", "P10@g3", "P5@d1", "P9@d2", "P1@c2",
    "E8@a2", "E11@d3", "P14@f3", "E7@e3", "P2@e4", "E9@a3", "P8@d4", "P12@b3", "P13@c4",
    "E12@e1", "P7@g4", "E3@b1", "E14@a4", "E2@b2", "P3@c3", "E4@e2", "E10@f4", "E6@b4", "UR",
    "UR",
)
OLD_SNAPSHOT_SHA256 = {
    1: "979bf08657f2fb48b74824d26134c1b6f1dc6e41532e0e38de592c784116f6eb",
    2: "b0b65f9232bd96669af6e064bb973a1974c8016cb7225f51901402b05caf6685",
}
# Version 2's deal of seed 2024 for three seats, as the version-2 engine dealt it.
OLD_DEAL_2024 = {
    "offer": ["P1", "E13"],
    "path_deck": ["P9", "P11", "P2", "P13", "P6", "P14", "P7", "P4", "P5", "P10", "P12", "P3", "P8"],
    "event_deck": ["E8", "E3", "E11", "E2", "E1", "E12", "E14", "E5", "E4", "E10", "E9", "E7",
                   "E6"],
    "start_cards": [5, 2, 4],
}


def _digest(state: TownState) -> str:
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()


def _deal(state: TownState) -> dict[str, list]:
    data = state.to_json()
    return {key: data[key] for key in ("offer", "path_deck", "event_deck", "start_cards")}


def _mersenne_deal(seed: int, players: int) -> dict[str, list]:
    """The deal ``random.Random(seed)`` gives, drawn the way every Town version draws."""
    rng = random.Random(seed)
    path, event = list(PATH_IDS), list(EVENT_IDS)
    rng.shuffle(path)
    rng.shuffle(event)
    start = rng.sample(range(1, 8), players)
    return {"offer": [path[0], event[0]], "path_deck": path[1:], "event_deck": event[1:],
            "start_cards": start}


@pytest.mark.parametrize("version", [1, 2])
def test_a_game_stored_under_an_old_version_replays_to_the_same_snapshot(version: int) -> None:
    state = GAME.replay_start(version, 2, None, OLD_SEED)
    for move in OLD_LOG:
        state = state.play(move)
    assert state.is_over
    assert _digest(state) == OLD_SNAPSHOT_SHA256[version]


def test_version_two_deals_exactly_what_it_dealt_before() -> None:
    assert _deal(GAME.replay_start(2, 3, None, 2024)) == OLD_DEAL_2024
    assert _deal(GAME.replay_start(1, 3, None, 2024)) == OLD_DEAL_2024


def test_a_new_deal_is_not_the_mersenne_twisters_deal_of_its_seed() -> None:
    """The old attack searched ``random.Random(seed)``; a new game's deal is not that one, for
    small seeds and for 128-bit ones alike."""
    rng = random.Random(7)
    for seed in [0, 1, 2024, *(rng.getrandbits(SEED_BITS) for _ in range(20))]:
        assert _deal(GAME.new_state(3, seed=seed)) != _mersenne_deal(seed, 3)
        assert _deal(GAME.replay_start(2, 3, None, seed)) == _mersenne_deal(seed, 3)


def test_a_new_deal_is_the_hash_generators_and_reproducible_from_its_seed() -> None:
    seed = 0x0123456789ABCDEF0123456789ABCDEF
    rng = DealRandom(seed)
    path, event = list(PATH_IDS), list(EVENT_IDS)
    rng.shuffle(path)
    rng.shuffle(event)
    start = rng.sample(range(1, 8), 2)
    expected = {"offer": [path[0], event[0]], "path_deck": path[1:], "event_deck": event[1:],
                "start_cards": start}
    assert _deal(GAME.new_state(2, seed=seed)) == expected == _deal(GAME.new_state(2, seed=seed))


def test_seeds_that_differ_only_above_bit_64_deal_differently() -> None:
    """All 128 bits count: seeds equal in their low 64 bits (or in all but the top bit) deal
    different games, so a search cannot skip the high bits."""
    low = 0xDEADBEEF_12345678
    deals = {json.dumps(_deal(GAME.new_state(4, seed=low + (high << 64))))
             for high in range(1, 9)}
    top = 1 << (SEED_BITS - 1)
    deals |= {json.dumps(_deal(GAME.new_state(4, seed=seed))) for seed in (low, low | top)}
    assert len(deals) == 10


def test_the_generator_is_sha256_in_counter_mode_keyed_by_the_seed() -> None:
    seed = 2**127 + 12345
    key = seed.to_bytes(32, "big")
    first = hashlib.sha256(b"stepwell deal v1\x00" + key + (0).to_bytes(8, "big")).digest()
    second = hashlib.sha256(b"stepwell deal v1\x00" + key + (1).to_bytes(8, "big")).digest()
    rng = DealRandom(seed)
    assert rng.getrandbits(256) == int.from_bytes(first, "big")
    assert rng.getrandbits(7) == second[0] >> 1
    assert DealRandom(seed).getrandbits(64) == int.from_bytes(first[:8], "big")


def test_the_generators_bits_look_uniform() -> None:
    """A coarse sanity check of the plumbing (not of SHA-256): each bit position of 4,000
    32-bit draws is set about half the time, and random() covers [0, 1)."""
    rng = DealRandom(99)
    draws = [rng.getrandbits(32) for _ in range(4000)]
    for bit in range(32):
        ones = sum(d >> bit & 1 for d in draws)
        assert 1800 < ones < 2200, (bit, ones)
    floats = [rng.random() for _ in range(4000)]
    assert 0 <= min(floats) < 0.01 and 0.99 < max(floats) < 1


def test_seeds_outside_the_generators_range_are_refused() -> None:
    assert check_seed(SEED_LIMIT - 1) == SEED_LIMIT - 1
    for bad in (-1, SEED_LIMIT, 1.5, "12", True):
        with pytest.raises(ValueError):
            check_seed(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        GAME.new_state(2, seed=-1)


def test_a_duplicate_deal_comes_from_the_current_generator() -> None:
    seed = 3**80
    deal = GAME.draw_deal(seed)
    state = GAME.new_state(4, seed=seed).to_json()
    assert deal["path_deck"] == [state["offer"][0], *state["path_deck"]]
    assert deal["start_cards"] == state["start_cards"]
    assert deal["start_cards"] != _mersenne_deal(seed, 4)["start_cards"] or \
        deal["path_deck"] != [_mersenne_deal(seed, 4)["offer"][0],
                              *_mersenne_deal(seed, 4)["path_deck"]]
