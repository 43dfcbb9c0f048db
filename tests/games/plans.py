"""A simple, deterministic way to play a hand for tests: draw, finish if you can, else throw the
least connected tile. With a fixed seed the whole hand is then known in advance, so a browser
test can play it through the page and check every step."""

import hashlib

from games import engine
from games.engine.tiles import FAKE, colour_of, number_of


def _near(a: int, b: int) -> int:
    """How much tile b helps tile a towards a meld (faces, fake jokers already resolved)."""
    if a == b:
        return 0
    ca, na, cb, nb = colour_of(a), number_of(a), colour_of(b), number_of(b)
    if ca == cb:
        gap = min(abs(na - nb), 14 - abs(na - nb)) if 1 in (na, nb) else abs(na - nb)
        return 2 if gap == 1 else 1 if gap == 2 else 0
    return 2 if na == nb else 0


def usefulness(rack: tuple[int, ...], i: int, okey: int) -> int:
    tile = rack[i]
    if tile == okey:
        return 1000
    face = okey if tile == FAKE else tile
    score = 0
    for j, other in enumerate(rack):
        if j == i or other == okey:
            continue
        score += _near(face, okey if other == FAKE else other)
    return score


def plan_move(state: engine.HandState) -> dict:
    seat = state.turn
    legal = engine.legal_moves(state, seat)
    finishes = [m for m in legal if isinstance(m, engine.Finish)]
    if finishes:
        return engine.move_to_dict(finishes[0])
    if state.phase == "draw":
        return engine.move_to_dict(engine.Draw(seat))
    rack = state.racks[seat]
    i = min(range(len(rack)), key=lambda k: (usefulness(rack, k, state.okey), -number_of(rack[k])))
    return engine.move_to_dict(engine.Discard(seat, rack[i]))


def plan_hand(
    seed: bytes, options=None, first_seat: int = 0
) -> tuple[list[dict], engine.HandState]:
    state = engine.deal(seed, options or engine.TableOptions(), first_seat)
    moves = []
    while state.phase != "over":
        move = plan_move(state)
        moves.append(move)
        state = engine.hand_apply(state, engine.move_from_dict(move))
    return moves, state


def seed_search(limit: int, prefix: bytes = b"okey-play-") -> list[tuple[int, int, str]]:
    """Seeds whose planned hand ends in a finish, shortest first: (moves, index, hex)."""
    found = []
    for i in range(limit):
        seed = hashlib.sha256(prefix + str(i).encode()).digest()
        moves, state = plan_hand(seed)
        if not state.result.void:
            found.append((len(moves), i, seed.hex()))
    return sorted(found)
