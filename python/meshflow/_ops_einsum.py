"""einsum, as torch.einsum: composed of diagonals (advanced indexing), sums, permutes, reshapes,
broadcasts and batched matmuls, so every device, layout and gradient is theirs.

Operands are contracted left to right, two at a time: the letters both share and the output
(or a later operand) needs are batch dims, those only they share are summed by the matmul,
the others stay. A letter an operand holds alone and nothing needs is summed out first; a
letter repeated within one operand takes its diagonal. '...' stands for the same broadcast
dims in every operand (NumPy's rule); without '->' the output is '...' and then the letters
that appear once, in alphabetical order.
"""
import functools
import operator

from . import _C
from ._ops_shape import broadcast_to, permute, reshape
from ._tensor import Tensor

__all__ = ["einsum"]

_ELLIPSIS_LETTERS = [chr(c) for c in range(0x0391, 0x0391 + 40)]  # stand-ins for '...' dims


def _prod(sizes):
    return functools.reduce(operator.mul, sizes, 1)


def _parse(equation, operands):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
        explicit = True
    else:
        lhs, out, explicit = eq, None, False
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise _C.OpError("einsum(): more operands were provided than specified in the equation" if len(operands) >
                         len(terms) else "einsum(): fewer operands were provided than specified in the equation")
    ell_ndim = 0
    for k, (term, t) in enumerate(zip(terms, operands)):
        letters = term.replace("...", "")
        if not all(c.isalpha() for c in letters) or term.count("...") > 1:
            raise _C.OpError(f"einsum(): invalid subscript given in the equation string {equation!r}")
        if "..." in term and len(letters) <= t.ndim:
            ell_ndim = max(ell_ndim, t.ndim - len(letters))
        elif len(letters) != t.ndim:
            raise _C.OpError(f"einsum(): the number of subscripts in the equation ({len(letters)}) does not match "
                             f"the number of dimensions ({t.ndim}) for operand {k}"
                             + ("" if "..." in term else " and no ellipsis was given"))
    ell = _ELLIPSIS_LETTERS[:ell_ndim]
    subs = []
    for term, t in zip(terms, operands):
        if "..." in term:
            head, tail = term.split("...")
            k = t.ndim - len(head) - len(tail)
            subs.append(list(head) + ell[ell_ndim - k:] + list(tail))
        else:
            subs.append(list(term))
    if explicit:
        if "..." in out:
            head, tail = out.split("...")
            out_subs = list(head) + ell + list(tail)
        else:
            out_subs = list(out)
        for c in out_subs:
            if c not in ell and not any(c in s for s in subs):
                raise _C.OpError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                 "operand")
        if len(set(out_subs)) != len(out_subs):
            raise _C.OpError("einsum(): output subscript appears more than once in the output")
    else:
        counts = {}
        for s in subs:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out_subs = ell + sorted(c for c, n in counts.items() if n == 1 and c not in ell)
    return subs, out_subs


def _diagonal(t, sub):
    """t with each repeated letter of `sub` taken once (its diagonal), and the letters."""
    while len(set(sub)) != len(sub):
        c = next(c for c in sub if sub.count(c) > 1)
        dims = [d for d, s in enumerate(sub) if s == c]
        n = t.shape[dims[0]]
        if any(t.shape[d] != n for d in dims):
            raise _C.OpError(f"einsum(): subscript {c} is repeated for operand but the sizes don't match, "
                             f"{[t.shape[d] for d in dims]}")
        from ._ops_index import _arange_like
        rng = _arange_like(t, n)
        index = tuple(rng if d in dims else slice(None) for d in range(t.ndim))
        # Adjacent indexed dims stay where the first was; separated ones go first.
        t = t[index]
        adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
        rest = [s for d, s in enumerate(sub) if d not in dims]
        sub = sub[:dims[0]] + [c] + rest[dims[0]:] if adjacent else [c] + rest
    return t, sub


def _sum_out(t, sub, keep):
    drop = [d for d, c in enumerate(sub) if c not in keep]
    if not drop:
        return t, sub
    return t.sum(drop), [c for d, c in enumerate(sub) if d not in drop]


def _arrange(t, sub, order, sizes):
    """t permuted to the letters `order` (each in sub), broadcast to `sizes` where it is 1."""
    if sub != order:
        t = permute(t, [sub.index(c) for c in order])
    shape = [sizes[c] for c in order]
    if list(t.shape) != shape:
        t = broadcast_to(t, shape)
    return t


def _contract(a, sa, b, sb, keep, sizes):
    """a and b contracted over their shared letters not in `keep`."""
    batch = [c for c in sa if c in sb and c in keep]
    summed = [c for c in sa if c in sb and c not in keep]
    left = [c for c in sa if c not in sb]
    right = [c for c in sb if c not in sa]
    a = _arrange(a, sa, batch + left + summed, sizes)
    b = _arrange(b, sb, batch + summed + right, sizes)
    nb, nl, ns, nr = (_prod(sizes[c] for c in g) for g in (batch, left, summed, right))
    out = reshape(a, [nb, nl, ns]) @ reshape(b, [nb, ns, nr])
    return reshape(out, [sizes[c] for c in batch + left + right]), batch + left + right


def _sublist_equation(args):
    """torch's sublist form, einsum(op1, [0, 1], op2, [1, 2], [0, 2]) (Ellipsis for "..."): the
    equation and operands it stands for."""
    def letters(sub):
        if not isinstance(sub, (list, tuple)):
            raise TypeError(f"einsum(): expected a list of subscripts after each operand, got {type(sub).__name__}")
        out = ""
        for i in sub:
            if i is Ellipsis:
                out += "..."
            elif isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 52:
                out += "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[i]
            else:
                raise _C.OpError(f"einsum(): subscript in subscript list is not within the valid range [0, 52), "
                                 f"got {i!r}")
        return out
    operands, subs = list(args[0:len(args) - len(args) % 2:2]), [letters(s) for s in args[1::2]]
    equation = ",".join(subs) + ("->" + letters(args[-1]) if len(args) % 2 else "")
    return equation, operands


def einsum(equation, *operands):
    """torch.einsum(equation, *operands) (operands also as one list): e.g. "ij,jk->ik",
    "bij,bjk->bik", "bhqd,bhkd->bhqk", "ii->i", "ij->ji", "i,i->", "i,j->ij",
    "...ij,...jk->...ik", or implicit output ("ij,jk"); or torch's sublist form,
    einsum(a, [0, 1], b, [1, 2], [0, 2])."""
    if isinstance(equation, Tensor):
        equation, operands = _sublist_equation((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands or not all(isinstance(t, Tensor) for t in operands):
        raise TypeError("einsum(): expected meshflow tensors as operands")
    subs, out_subs = _parse(equation, operands)
    sizes = {}
    for t, sub in zip(operands, subs):
        for c, n in zip(sub, t.shape):
            if c in sizes and n != sizes[c] and n != 1 and sizes[c] != 1:
                raise _C.OpError(f"einsum(): operands do not broadcast with remapped shapes (original->remapped): "
                                 f"subscript {c} has sizes {sizes[c]} and {n}")
            sizes[c] = max(sizes.get(c, n), n) if n != 0 and sizes.get(c, 1) != 0 else 0
    tensors, letters = [], []
    for t, sub in zip(operands, subs):
        t, sub = _diagonal(t, list(sub))
        tensors.append(t)
        letters.append(sub)
    t, sub = tensors[0], letters[0]
    for k in range(len(tensors)):
        later = set(out_subs).union(*[set(s) for s in letters[k + 1:]]) if k + 1 < len(tensors) else set(out_subs)
        if k == 0:
            t, sub = _sum_out(t, sub, later)
            continue
        b, sb = _sum_out(tensors[k], letters[k], later | set(sub))
        t, sub = _contract(t, sub, b, sb, later, sizes)
    t, sub = _sum_out(t, sub, set(out_subs))
    return _arrange(t, sub, out_subs, sizes) if sub != out_subs or [sizes[c] for c in out_subs] != list(t.shape) \
        else t
