"""Pure rules of coins and gems: which treasure coin answers a value; who trades gems."""
from __future__ import annotations


def treasure_value(available: list[int], wanted: int) -> int | None:
    """The value to take for `wanted`: exact, else the next higher, else the closest lower.

    003 "Transforming a Coin": "If the coin of the desired value is unavailable, take the first
    higher value available in the Royal Treasure; if no higher values remain, take the first
    available lower value". `available` lists the values with at least one coin left.
    """
    best_higher = None
    best_lower = None
    for v in available:
        if v == wanted:
            return v
        if v > wanted:
            if best_higher is None or v < best_higher:
                best_higher = v
        elif best_lower is None or v > best_lower:
            best_lower = v
    return best_higher if best_higher is not None else best_lower


def gem_swaps(gems: list[int]) -> list[tuple[int, int]]:
    """Pairs of gem values that trade among tied players (003 "Trading Gems").

    Sorted low to high, the lowest trades with the highest, the second with the second highest;
    a middle gem (odd count) is not traded: 2 tied swap, 3 swap the extremes, 4 swap both pairs,
    5 swap both pairs and keep the middle.
    """
    ordered = sorted(gems)
    n = len(ordered)
    return [(ordered[i], ordered[n - 1 - i]) for i in range(n // 2)]
