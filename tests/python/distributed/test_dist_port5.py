"""Issue 37's fifth programs round on global tensors, equal to one device: a global leaf's
.grad is its own tensor, accumulated in place; the special functions of that round (erfcx,
bessel_j0, bessel_j1, zeta, gammainc, gammaincc) with their inputs split."""
import numpy as np
import pytest

import meshflow as mf

from global_check import MESHES, B, _placement, _same_as_local, _sbp  # noqa: F401


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_global_grads_are_their_own_and_accumulate_in_place(name, ranks, world):
    p = _placement(ranks, world)
    w = np.array([1.0, 2.0, 3.0, 4.0])
    a = mf.tensor(np.zeros(4), placement=p, sbp=_sbp(p, 0), requires_grad=True)
    b = mf.tensor(np.zeros(4), placement=p, sbp=_sbp(p, None), requires_grad=True)
    weights = mf.tensor(w, placement=p, sbp=_sbp(p, None))
    ((a + b) * weights).sum().backward()
    g = a.grad
    a.grad.mul_(2)
    assert np.allclose(a.grad.numpy(), 2 * w) and np.allclose(b.grad.numpy(), w)
    ((a + b) * weights).sum().backward()
    assert np.allclose(g.numpy(), 3 * w) and np.allclose(b.grad.numpy(), 2 * w)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_special_functions_of_the_fifth_round_split_equal_one_device(name, ranks, world):
    p = _placement(ranks, world)
    x = np.linspace(0.3, 6.0, 12).reshape(4, 3)
    for f in (mf.special.erfcx, mf.special.bessel_j0, mf.special.bessel_j1):
        _same_as_local(lambda t: f(t), [x], p, [0])
    orders = np.linspace(1.5, 4.0, 12).reshape(4, 3)
    # the first argument has no gradient: it goes in as a constant
    for f in (mf.special.zeta, mf.special.gammainc, mf.special.gammaincc):
        want = f(mf.tensor(orders), mf.tensor(x)).numpy()
        got = f(mf.tensor(orders, placement=p, sbp=_sbp(p, 1)), mf.tensor(x, placement=p, sbp=_sbp(p, 1)))
        assert np.allclose(got.numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_index_writes_of_a_global_source_into_a_local_tensor_keep_its_gradient(name, ranks, world):
    # torch.zeros(...).index_add(0, idx, source) in a forward whose source is global: the local
    # zeros is taken as broadcast (it was given the source's values gathered, without gradient)
    p = _placement(ranks, world)
    src = np.arange(12.0).reshape(3, 4)
    weights = np.arange(1.0, 5.0)
    writes = [
        lambda s: mf.zeros(3, 4, dtype=mf.float64).index_add(0, mf.tensor([0, 0, 2]), s * 1.5),
        lambda s: mf.zeros(3, 4, dtype=mf.float64).index_copy(0, mf.tensor([2, 1, 0]), s),
        lambda s: mf.zeros(3, 4, dtype=mf.float64).scatter_add(0, mf.tensor([[0, 1, 2, 0]] * 3), s),
        lambda s: mf.zeros(3, 4, dtype=mf.float64).masked_scatter(mf.tensor([[True, False] * 2] * 3), s),
        lambda s: mf.zeros(3, 4, dtype=mf.float64).index_put((mf.tensor([0, 2]),), s[:2]),
    ]
    for write in writes:
        local = mf.tensor(src, requires_grad=True)
        want = write(local)
        (want.sin() * mf.tensor(weights)).sum().backward()
        glob = mf.tensor(src, placement=p, sbp=_sbp(p, 0), requires_grad=True)
        got = write(glob)
        assert got.requires_grad and got.is_global
        (got.sin() * mf.tensor(weights)).sum().backward()
        assert np.allclose(got.numpy(), want.numpy(), rtol=1e-12)
        assert np.allclose(glob.grad.numpy(), local.grad.numpy(), rtol=1e-12)


def test_a_data_parallel_state_saves_to_a_file_object(world):
    # torch.save(state, io.BytesIO()) of a model broadcast over every rank, with its optimizer
    # and scheduler (a Counter of milestones), as a checkpoint-and-resume loop writes it
    import io
    p = mf.placement("cpu", ranks=list(range(world)))
    m = mf.nn.Linear(3, 2)
    m.to_global(p, [B] * len(p.hierarchy))
    opt = mf.optim.Adam(m.parameters(), lr=0.1)
    sched = mf.optim.lr_scheduler.MultiStepLR(opt, [2], 0.5)
    x = mf.tensor(np.ones((4, 3)), dtype=mf.float32, placement=p, sbp=_sbp(p, 0))
    m(x).sum().backward()
    opt.step()
    sched.step()
    buf = io.BytesIO()
    mf.save({"m": m.state_dict(), "o": opt.state_dict(), "s": sched.state_dict()}, buf)  # raised
    buf.seek(0)
    back = mf.load(buf)
    assert not back["m"]["weight"].is_global
    assert np.allclose(back["m"]["weight"].numpy(), m.weight.numpy())
    assert np.allclose(back["o"]["state"][0]["exp_avg"].numpy(), opt.state_dict()["state"][0]["exp_avg"].numpy())
    assert dict(back["s"]["milestones"]) == {2: 1}
