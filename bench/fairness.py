"""Is the deal fair? Chi-square tests over many seeded shuffles.

For every one of the 106 wall positions, the 53 faces (52 tiles and the fake joker, two copies
each) must be equally likely (1/53): one chi-square test with 52 degrees of freedom per
position. Since a fair shuffle makes the 106 p-values uniform on [0, 1], they are also tested
together (Kolmogorov-Smirnov), and the smallest one is reported with a Bonferroni bound. The
indicator, never a fake joker, must be each of the 52 faces with probability 1/52 (51 degrees
of freedom).

    .venv/bin/python bench/fairness.py [--deals 100000] [--base HEX]

Seeds are SHA-256(base || deal number as 8 bytes); the base is random unless given, and printed
so that a run can be repeated.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import TableOptions, deal, shuffle  # noqa: E402
from games.engine.tiles import FACES, FAKE, TILE_COUNT  # noqa: E402


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) (Numerical Recipes, 6.2)."""
    if x <= 0:
        return 1.0
    ln_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(ln_front))
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(ln_front) * h


def chi2_sf(x: float, dof: int) -> float:
    return _gamma_q(dof / 2, x / 2)


def chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


def ks_uniform(ps: list[float]) -> tuple[float, float]:
    """Kolmogorov-Smirnov distance of p-values from uniform, and its asymptotic p-value."""
    ps = sorted(ps)
    n = len(ps)
    d = max(max((i + 1) / n - p, p - i / n) for i, p in enumerate(ps))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


def run(deals: int, base: bytes) -> None:
    counts = [0] * (TILE_COUNT * FACES)
    indicator = [0] * FAKE
    options = TableOptions()
    started = time.perf_counter()
    for i in range(deals):
        seed = hashlib.sha256(base + i.to_bytes(8, "big")).digest()
        wall = shuffle(seed)
        for pos, f in enumerate(wall):
            counts[pos * FACES + f] += 1
        # the deal's indicator rule, taken from the wall already built
        indicator[next(f for f in wall if f != FAKE)] += 1
    elapsed = time.perf_counter() - started
    # spot check that deal() agrees with the shortcut above
    last = hashlib.sha256(base + (deals - 1).to_bytes(8, "big")).digest()
    assert deal(last, options, 0).indicator == next(f for f in shuffle(last) if f != FAKE)

    expected = deals / FACES
    ps = []
    worst = (1.0, 0, 0.0)
    for pos in range(TILE_COUNT):
        stat = chi_square(counts[pos * FACES : (pos + 1) * FACES], expected)
        p = chi2_sf(stat, FACES - 1)
        ps.append(p)
        worst = min(worst, (p, pos, stat))
    d, ks_p = ks_uniform(ps)
    ind_stat = chi_square(indicator, deals / FAKE)
    ind_p = chi2_sf(ind_stat, FAKE - 1)

    print(f"deals: {deals}  base: {base.hex()}  shuffle time: {elapsed:.1f} s")
    print(f"  ({elapsed / deals * 1e6:.0f} us a shuffle, counting included)")
    print("wall positions: 106 chi-square tests, 52 dof, expected", f"{expected:.1f} per cell")
    print(f"  smallest p = {worst[0]:.4f} at position {worst[1]} (chi2 = {worst[2]:.1f});")
    print(f"  Bonferroni over 106: {min(1.0, worst[0] * TILE_COUNT):.4f}")
    print(f"  p-values vs uniform: KS D = {d:.4f}, p = {ks_p:.4f}")
    print(f"  mean p = {sum(ps) / len(ps):.4f} (0.5 expected)")
    print(f"indicator: chi2 = {ind_stat:.1f} on 51 dof, p = {ind_p:.4f}")
    fair = min(1.0, worst[0] * TILE_COUNT) > 0.01 and ks_p > 0.01 and ind_p > 0.01
    print(
        "verdict:", "no evidence of bias at the 1% level" if fair else "INVESTIGATE: possible bias"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--base", help="hex bytes to derive the seeds from (default: random)")
    args = ap.parse_args()
    base = bytes.fromhex(args.base) if args.base else secrets.token_bytes(16)
    run(args.deals, base)


if __name__ == "__main__":
    main()
