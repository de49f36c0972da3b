"""A 4-rank walk through the examples of CONCEPTS.md: placements, SBP layouts, every boxing
conversion with the plan meshflow chose, the collectives each rank issued, the bytes moved,
and a check that the logical value survived; then ops whose layouts meshflow infers.

Run: scripts/demo   (or: PYTHONPATH=build/python /usr/bin/python3 -m meshflow.launch --nproc 4 examples/concepts_walkthrough.py)
"""
import numpy as np

import meshflow as mf
from meshflow import sbp

S, B, P = sbp.split, sbp.broadcast, sbp.partial_sum
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv")

rank, world = mf.env.get_rank(), mf.env.get_world_size()
if world != 4:
    raise SystemExit("the walk-through needs 4 ranks: scripts/demo")
line = print if rank == 0 else (lambda *a, **k: None)
flat = mf.placement("cpu", ranks=[0, 1, 2, 3])
mesh = mf.placement("cpu", ranks=[[0, 1], [2, 3]])


def every_rank(values):
    """Each rank's row of `values`, on every rank (a global tensor gathers them)."""
    local = mf.tensor(np.asarray(values, dtype=np.int64).reshape(1, -1))
    return local.to_global(placement=flat, sbp=S(0)).numpy()


def show_locals(title, g):
    shapes = every_rank(list(g.to_local().shape) or [0])
    line(f"  {title:<30} " + "  ".join(f"rank {r}: {tuple(s)}" for r, s in enumerate(shapes)))


def convert(g, placement, nd_sbp, expected):
    """Boxes g, checks the value, and prints what every rank issued."""
    plan_steps, cost = mf._C.plan_boxing(list(g.shape), g.dtype.name, g.placement, list(g.sbp), placement,
                                         list(nd_sbp if isinstance(nd_sbp, tuple) else (nd_sbp,)))
    before = mf.comm_stats()
    h = g.to_global(placement=placement, sbp=nd_sbp)
    after = mf.comm_stats()
    issued = every_rank([after[k] - before[k] for k in COLLECTIVES + ("bytes_sent",)])
    ok = np.array_equal(h.numpy(), expected)
    calls = {k: int(issued[:, i].sum()) for i, k in enumerate(COLLECTIVES) if issued[:, i].any()}
    per_rank = {k: issued[:, i].tolist() for i, k in enumerate(COLLECTIVES) if issued[:, i].any()}
    src = f"{g.placement.ranks} {_fmt(g.sbp)}"
    dst = f"{h.placement.ranks} {_fmt(h.sbp)}"
    line(f"  {src:>22} -> {dst:<22} {'value ok' if ok else 'VALUE WRONG'}")
    line(f"      plan: {' ; '.join(step[0] + (f'(axis {step[1]})' if step[1] >= 0 else '') for step in plan_steps) or 'nothing'}"
         f"   planned cost {cost} B")
    line(f"      issued per rank: {per_rank or 'nothing'}   bytes sent, all ranks: {int(issued[:, -1].sum())}")
    if not ok:
        raise SystemExit(f"conversion {src} -> {dst} changed the value")
    return h


def _fmt(nd_sbp):
    return "(" + ", ".join(repr(s) for s in nd_sbp) + ")"


line("== 1. Placement")
line(f"  {mesh!r}: type={mesh.type!r} hierarchy={mesh.hierarchy} ranks={mesh.ranks}")
line(f"  {flat!r} == {mesh!r}? {flat == mesh} (same ranks, different hierarchies)")

line("\n== 2. SBP: each rank's local shape for a 5 x 6 tensor (uneven on purpose)")
x = np.arange(30, dtype=np.float32).reshape(5, 6)
for nd in [S(0), S(1), B, P]:
    show_locals(f"{flat.ranks} {_fmt((nd,))}", mf.tensor(x, placement=flat, sbp=nd))
for nd in [(B, S(0)), (S(0), S(0)), (S(0), S(1)), (S(0), P)]:
    show_locals(f"{mesh.ranks} {_fmt(nd)}", mf.tensor(x, placement=mesh, sbp=nd))

line("\n== 3. Local -> global: rank r contributes r + 1 rows; split(0) concatenates them")
parts = mf.tensor(np.full((rank + 1, 2), rank, dtype=np.int64))
g = parts.to_global(placement=flat, sbp=S(0))
line(f"  logical shape {g.shape}; parts moved to the balanced split:")
show_locals("after to_global", g)

line("\n== 4. Boxing on one axis, 4 ranks, a 1024 x 256 float32 tensor (1 MiB)")
big = (np.arange(1024 * 256) % 251).astype(np.float32).reshape(1024, 256)
for src, dst in [(S(0), B), (P, B), (P, S(0)), (S(0), S(1)), (B, S(1)), (B, P), (S(0), P)]:
    convert(mf.tensor(big, placement=flat, sbp=src), flat, dst, big)

line("\n== 5. N-d boxing on [[0, 1], [2, 3]]")
for src, dst in [((S(0), S(0)), (B, B)), ((S(0), P), (S(0), B)), ((B, S(0)), (S(1), S(0))), ((P, P), (B, S(1)))]:
    convert(mf.tensor(big, placement=mesh, sbp=src), mesh, dst, big)

line("\n== 6. Between placements")
for (pa, sa), (pb, sb) in [
    ((mf.placement("cpu", ranks=[0, 1]), S(0)), (mf.placement("cpu", ranks=[2, 3]), S(0))),
    ((flat, S(0)), (mesh, (S(0), S(1)))),
    ((mf.placement("cpu", ranks=[0]), B), (flat, B)),
    ((flat, P), (mf.placement("cpu", ranks=[1]), B)),
]:
    convert(mf.tensor(big, placement=pa, sbp=sa), pb, sb, big)

line("\n== 7. Ops: meshflow picks every layout (CONCEPTS section 4)")
m = (np.arange(16, dtype=np.float32).reshape(4, 4) % 5) - 2
p2 = mf.placement("cpu", ranks=[0, 1])
for what, make, expected in [
    ("S(0) + S(1) on [0, 1]", lambda: mf.tensor(m, placement=p2, sbp=S(0)) + mf.tensor(m, placement=p2, sbp=S(1)), m + m),
    ("S(0) + B on [0, 1]", lambda: mf.tensor(m, placement=p2, sbp=S(0)) + mf.tensor(m, placement=p2, sbp=B), m + m),
    ("(B, S(0)) @ (S(1), B) on the mesh",
     lambda: mf.tensor(m, placement=mesh, sbp=(B, S(0))) @ mf.tensor(m, placement=mesh, sbp=(S(1), B)), m @ m),
    ("(S(0), S(1)) @ (B, S(0)) on the mesh",
     lambda: mf.tensor(m, placement=mesh, sbp=(S(0), S(1))) @ mf.tensor(m, placement=mesh, sbp=(B, S(0))), m @ m),
    ("softmax(relu(x @ x), dim=1), x S(0) on 4 ranks",
     lambda: mf.softmax(mf.relu(mf.tensor(m, placement=flat, sbp=S(0)) @ mf.tensor(m, placement=flat, sbp=B)), dim=1),
     None),
]:
    before = mf.comm_stats()
    out = make()
    after = mf.comm_stats()
    issued = every_rank([after[k] - before[k] for k in COLLECTIVES])
    calls = {k: issued[:, i].tolist() for i, k in enumerate(COLLECTIVES) if issued[:, i].any()}
    if expected is None:
        e = np.maximum(m @ m, 0)
        expected = np.exp(e - e.max(axis=1, keepdims=True))
        expected /= expected.sum(axis=1, keepdims=True)
    ok = np.allclose(out.numpy(), expected, rtol=1e-5)
    line(f"  {what:<48} -> sbp {_fmt(out.sbp):<14} issued per rank: {calls or 'nothing'}  "
         f"{'value ok' if ok else 'VALUE WRONG'}")
    if not ok:
        raise SystemExit(f"{what} differs from the single-device result")
line(f"  SBP inference cache on this rank: {mf.infer_cache_stats()}")

line("\n== 8. Bad input raises on every rank, and the job goes on")
for what, make in [
    ("split dim out of range", lambda: mf.tensor(x, placement=flat, sbp=S(2))),
    ("sbp tuple of the wrong length", lambda: mf.tensor(x, placement=mesh, sbp=S(0))),
    ("ranks outside the world", lambda: mf.placement("cpu", ranks=[0, 4])),
]:
    try:
        make()
        line(f"  {what}: NOT REJECTED")
    except ValueError as e:
        line(f"  {what}: ValueError: {e}")
line("\nwalk-through complete: every conversion kept the logical value")
