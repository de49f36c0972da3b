"""SBP values: split(dim), broadcast, partial_sum, partial_max, partial_min.

They compare and hash by value and print as CONCEPTS.md writes them: S(0), B, P, P(max), P(min).
"""
from . import _C

sbp = _C.Sbp


def split(dim):
    """Each rank holds a slice of dimension `dim`; the logical tensor is their concatenation."""
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"split: dim must be an int, got {type(dim).__name__}")
    return _C.Sbp.split(dim)


broadcast = _C.Sbp.broadcast()
partial_sum = _C.Sbp.partial_sum()
partial_max = _C.Sbp.partial_max()
partial_min = _C.Sbp.partial_min()


def as_nd_sbp(value, placement):
    """A list of SBPs from one SBP or a tuple/list of them. Its length is checked in C++,
    on every rank at once, so that one rank's bad argument cannot leave the others waiting."""
    items = list(value) if isinstance(value, (tuple, list)) else [value]
    for item in items:
        if not isinstance(item, _C.Sbp):
            raise TypeError(f"sbp entries must be meshflow.sbp values, got {item!r}")
    return items
