"""torch.return_types: the named tuples ops return ((values, indices) of max, sort, topk, ...),
one type per op name, printed as torch prints them."""
import collections
import sys

_TYPES = {}


def named(name, fields=("values", "indices")):
    """The tuple type op `name` returns, with these fields (made once, kept as this module's
    attribute so that pickle finds it)."""
    key = (name, tuple(fields))
    made = _TYPES.get(key)
    if made is None:
        def __repr__(self):
            items = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
            return f"meshflow.return_types.{name}(\n{items})"
        made = type(name, (collections.namedtuple(name, fields),),
                    {"__slots__": (), "__repr__": __repr__, "__module__": __name__})
        _TYPES[key] = made
        setattr(sys.modules[__name__], name, made)
    return made
