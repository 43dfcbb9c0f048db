"""The hard bot ("zor"): its choices read only what its seat knows (knowledge.py).

It throws in two steps.
1. Distance: of the tiles it may throw, only those that leave the rack the fewest draws from a
   finish (distance.py; seven pairs count when nearer: a pair short per missing pair) stay in.
   Tiles in melds alone mislead here: five loose tiles that each want a sixth leave a rack with
   three melds two draws away, since only one more group fits the 14 places.
2. Estimate: each rack of 14 left is valued by its tiles in melds, its outs (for every face this
   seat has not seen yet, weighted by the copies still unseen, how many more tiles in melds
   drawing it would give; a draw that would let the rack finish counts much more, twice as
   much when the finish would put a real okey on the indicator) and, for a rack made of pairs
   (five or more, or four with live twins), the same with seven pairs, the better of the two;
   less the tile's danger: how much the next player (an opponent in Düz and Eşli alike) is
   likely to want it, read from the tiles that player took (wanted: their neighbours are
   dangerous) and threw (not wanted). Danger weighs more as the stock runs down, and more in
   Eşli, where a finish by either opponent costs both partners. It reads only what the next
   player showed: a tile with live neighbours is as likely to help the bot itself.

It takes the left player's discard when that finishes, is a real okey, or adds to its melds
(or its pairs) and leaves a better estimate than the rack has now.

One memo, scoped to a single choice, keeps the values of racks already valued in it.
"""

from __future__ import annotations

from .distance import key_distance
from .finish import FINISH_FACTOR, finishes
from .knowledge import SeatKnowledge
from .melds import key_can_meld, key_without, rack_key
from .rack import key_arrangement, key_melded, key_pairs, neighbours
from .tiles import FAKE, colour_of, number_of

_BITS = 4
_MELD = 100  # a tile in a meld
_OUT = 3  # an unseen copy of a face that adds one tile to the melds
_FINISHING_OUT = 60  # an unseen copy that lets the rack finish (times the finish factor)
_PAIR_OUT = 9  # an unseen twin of a single, going for pairs
_DANGER = 1  # one point of the next player's likely interest in a tile
_NEAR = 0.2  # an unseen copy of a face that could join a loose tile (weighted as in _near)


class _Choice:
    """One decision: what the seat knows, and the values of racks valued so far."""

    def __init__(self, k: SeatKnowledge) -> None:
        self.k = k
        self.okey = k.okey
        self.values: dict[tuple[int, int], float] = {}

    def unseen(self, f: int) -> int:
        return self.k.unseen[f]

    # ------------------------------------------------------------ values of a 14-tile rack

    def value(self, key: int, jokers: int) -> float:
        found = self.values.get((key, jokers))
        if found is None:
            found = max(self._meld_value(key, jokers), self._pairs_value(key, jokers))
            self.values[(key, jokers)] = found
        return found

    def _meld_value(self, key: int, jokers: int) -> float:
        melds, loose, spare = key_arrangement(key, jokers)
        melded = 14 - len(loose) - spare
        if melded >= 14:  # any tile drawn finishes, put on the indicator
            return melded * _MELD + self.k.unseen_total * _FINISHING_OUT
        gains = _gains(melds, loose)
        outs = 0.0
        for f, gain in gains.items():
            copies = self.unseen(FAKE if f == self.okey else f)
            if copies:
                outs += copies * self._out(key + (1 << (_BITS * f)), jokers, melded, gain)
        if self.unseen(self.okey) and jokers < 2:
            gain = 3 if any(g == 3 for g in gains.values()) else 2 if loose else 1
            outs += self.unseen(self.okey) * self._out(key, jokers + 1, melded, gain)
        near = sum(self.unseen(f) * w for x in loose for f, w in _near(x).items())
        return melded * _MELD + outs + near * _NEAR

    def _out(self, key15: int, jokers15: int, melded: int, gain: int) -> float:
        """What one unseen copy of a tile that would add ``gain`` tiles to the melds is worth;
        a draw that looks like finishing is checked exactly: 15 tiles all in melds need not
        hold 14 that finish (five melds of three do not), so it asks the distance search."""
        if melded + gain >= 14 and key_distance(key15, jokers15) == 0:
            return _FINISHING_OUT * self._finish_factor(key15, jokers15)
        return _OUT * gain

    def _pairs_value(self, key: int, jokers: int) -> float:
        pairs = key_pairs(key, jokers)
        if pairs < 4:
            return 0.0
        singles = [f for f in range(FAKE) if key >> (_BITS * f) & 15 == 1]
        live = sum(self.unseen(f if f != self.okey else FAKE) for f in singles)
        live += self.unseen(self.okey) * bool(singles)
        if pairs == 4 and live < 4:
            return 0.0
        weight = _FINISHING_OUT if pairs == 6 else _PAIR_OUT
        return 2 * pairs * _MELD + live * weight * (2 if pairs == 6 else 1)

    @staticmethod
    def _finish_factor(key: int, jokers: int) -> int:
        """The finish factor of a 15-tile packed rack that has 14 tiles in melds: 2 when a real
        okey can go on the indicator (the other 14 in melds), else 1."""
        return 2 if jokers and key_can_meld(key, jokers - 1) else 1

    # ------------------------------------------------------------ defence

    def danger(self, t: int) -> float:
        """How much the next player is likely to want the tile ``t``."""
        if t == FAKE:
            t = self.okey
        k = self.k
        nxt = k.next_seat
        near = _near(t)
        score = 0.0
        for taken in k.took[nxt]:
            score += 4 * near.get(taken, 0) + (6 if taken == t else 0)
        for thrown in k.thrown[nxt]:
            score -= 2 * near.get(thrown, 0) + (5 if thrown == t else 0)
        late = 1 + max(0, 20 - k.stock_size) / 10
        team = 1.5 if k.partnership else 1.0
        return max(0.0, score) * late * team

    # ------------------------------------------------------------ choices

    def distance(self, key: int, jokers: int) -> int:
        """Draws from a finish: in melds, or in seven pairs (one draw per missing pair)."""
        return min(key_distance(key, jokers), 7 - key_pairs(key, jokers))

    def best_throw(self, rack15: tuple[int, ...], keep: int | None) -> tuple[int, float]:
        """The tile to throw from 15 and the value of the rack it leaves; ``keep`` is a tile that
        may not go (taken from the left this turn)."""
        key, jokers = rack_key(rack15, self.okey)
        options = [t for t in set(rack15) if t != keep and t != self.okey]
        if not options:
            options = [t for t in set(rack15) if t != keep]
        after = {t: key_without(key, jokers, t, self.okey) for t in options}
        distance = {t: self.distance(*after[t]) for t in options}
        least = min(distance.values())
        nearest = [t for t in options if distance[t] == least]
        value = {t: self.value(*after[t]) for t in nearest}
        best = max(nearest, key=lambda t: (value[t] - _DANGER * self.danger(t), -t))
        return best, value[best]


def hard_throw(k: SeatKnowledge) -> int:
    """The tile to put down from a rack of 15: the finishing tile of the best finish if the rack
    can finish, else the hard bot's discard."""
    done = finishes(k.rack, k.okey)
    if done:
        return max(done, key=lambda t: (FINISH_FACTOR[done[t]], t == k.okey, -t))
    return _Choice(k).best_throw(k.rack, k.taken_now)[0]


def hard_take(k: SeatKnowledge) -> bool:
    """Take the left player's discard (``k.takeable``) instead of drawing?"""
    x = k.takeable
    if x is None:
        return False
    if x == k.okey:
        return True
    rack15 = (*k.rack, x)
    if any(t != x for t in finishes(rack15, k.okey)):
        return True
    key, jokers = rack_key(k.rack, k.okey)
    key15, jokers15 = rack_key(rack15, k.okey)
    pairs = key_pairs(key, jokers) >= 4 and x in k.rack
    if not pairs and key_melded(key15, jokers15) <= key_melded(key, jokers):
        return False  # it would join no meld: a tile from the stock may do more
    c = _Choice(k)
    now = c.value(key, jokers)
    _, after = c.best_throw(rack15, x)
    return after > now


def wanted_by_next(k: SeatKnowledge, tile: int) -> int | None:
    """The tile the next player took from their left that makes ``tile`` one they were likely to
    take (it, or a tile that stands in a meld beside it), as the hard bot's defence reads it;
    None when nothing they showed says so."""
    if _Choice(k).danger(tile) <= 0:
        return None
    t = k.okey if tile == FAKE else tile
    near = _near(t)
    took = [x for x in k.took[k.next_seat] if x == t or x in near]
    return max(took, key=lambda x: (x == t, near.get(x, 0)), default=None)


def _near(f: int) -> dict[int, int]:
    """The faces that could stand in a meld beside f, weighted: one apart in its colour 3, two
    apart 2, its number in another colour 2."""
    colour, index = divmod(f, 13)
    near = {}
    for d, w in ((1, 3), (2, 2)):
        for n in neighbours(index + 1, d):
            near[colour * 13 + n - 1] = w
    for c in range(4):
        if c != colour:
            near[c * 13 + index] = 2
    return near


def _run_ends(meld: list[int | None]) -> tuple[int, int, int] | None:
    """(colour, first number, last number) of a run (the last may be 14: the 1 after the 13),
    or None for a set."""
    real = [(i, f) for i, f in enumerate(meld) if f is not None]
    colours = {colour_of(f) for _, f in real}
    numbers = {number_of(f) for _, f in real}
    if len(colours) > 1 or (len(numbers) == 1 and len(real) > 1):
        return None
    i, f = real[0]  # never the 1 after the 13: a run has a real tile before that
    start = number_of(f) - i
    return colour_of(f), start, start + len(meld) - 1


def _gains(melds: list[list[int | None]], loose: list[int]) -> dict[int, int]:
    """For each face, how many more tiles in melds drawing it gives, read from the arrangement:
    3 where it completes two loose tiles, 2 where it bridges a loose tile to a run's end, 1
    where it only lengthens a meld."""
    gains: dict[int, int] = {}

    def add(colour: int, number: int, gain: int) -> None:
        if 1 <= number <= 14:
            f = colour * 13 + (number - 1) % 13
            gains[f] = max(gains.get(f, 0), gain)

    for meld in melds:
        ends = _run_ends(meld)
        if ends is None:
            real = [f for f in meld if f is not None]
            if len(meld) == 3:
                have = {colour_of(f) for f in real}
                for c in range(4):
                    if c not in have:
                        add(c, number_of(real[0]), 1)
            continue
        colour, start, end = ends
        if start > 1:
            add(colour, start - 1, 1)
        if end < 14 and not (end == 13 and start == 1):
            add(colour, end + 1, 1)
        for x in loose:
            if colour_of(x) == colour:
                n = number_of(x)
                if n == start - 2:
                    add(colour, start - 1, 2)
                if n == end + 2 and start > 1:
                    add(colour, end + 1, 2)
                if n == 1 and end == 12 and start > 1:  # ..., 12, 13, 1
                    add(colour, 13, 2)
    for i, x in enumerate(loose):
        cx, nx = divmod(x, 13)
        for y in loose[i + 1 :]:
            cy, ny = divmod(y, 13)
            if cx == cy:
                lo, hi = sorted((nx + 1, ny + 1))
                for a, b in ((lo, hi), (hi, lo + 13)) if lo == 1 else ((lo, hi),):
                    if b - a == 1:
                        add(cx, a - 1, 3)
                        add(cx, b + 1, 3)
                    elif b - a == 2:
                        add(cx, a + 1, 3)
            elif nx == ny:
                for c in range(4):
                    if c not in (cx, cy):
                        add(c, nx + 1, 3)
    return gains
