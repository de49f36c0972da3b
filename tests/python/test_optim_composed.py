"""RMSprop and Adagrad (fused C++ steps) against NumPy versions of torch's update rules,
clip_grad_value_, and the optimizers' torch-shaped state_dict round trip."""
import numpy as np
import pytest

import meshflow as mf

W0 = np.array([[1.0, -2.0], [0.5, 3.0]])
SCALE = np.array([1.0, 2.0])


def loss_grad(w):
    return 2 * w * SCALE + 1  # d/dw sum(w * w * SCALE + w)


def run(make, steps=3, dtype=np.float64):
    w = mf.tensor(W0.astype(dtype), requires_grad=True)
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        ((w * w * mf.tensor(SCALE.astype(dtype))).sum() + w.sum()).backward()
        opt.step()
    return w.detach().numpy(), opt


def rmsprop_reference(lr, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, steps=3):
    w, sq, ga, buf = W0.copy(), np.zeros_like(W0), np.zeros_like(W0), np.zeros_like(W0)
    for _ in range(steps):
        g = loss_grad(w) + weight_decay * w
        sq = alpha * sq + (1 - alpha) * g * g
        if centered:
            ga = alpha * ga + (1 - alpha) * g
            avg = np.sqrt(sq - ga * ga) + eps
        else:
            avg = np.sqrt(sq) + eps
        if momentum:
            buf = momentum * buf + g / avg
            w = w - lr * buf
        else:
            w = w - lr * g / avg
    return w


def adagrad_reference(lr, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, steps=3):
    w, acc = W0.copy(), np.full_like(W0, initial_accumulator_value)
    for step in range(1, steps + 1):
        g = loss_grad(w) + weight_decay * w
        acc = acc + g * g
        w = w - lr / (1 + (step - 1) * lr_decay) * g / (np.sqrt(acc) + eps)
    return w


@pytest.mark.parametrize("kw", [dict(lr=0.01), dict(lr=0.02, alpha=0.9, momentum=0.9, centered=True, weight_decay=0.1)])
def test_rmsprop_matches_torch_rule(kw):
    got, opt = run(lambda p: mf.optim.RMSprop(p, **kw))
    np.testing.assert_allclose(got, rmsprop_reference(**kw), rtol=1e-12)
    assert "square_avg" in opt.state_dict()["state"][0]


@pytest.mark.parametrize("kw", [dict(lr=0.1), dict(lr=0.1, lr_decay=0.01, weight_decay=0.1,
                                                    initial_accumulator_value=0.1)])
def test_adagrad_matches_torch_rule(kw):
    got, _ = run(lambda p: mf.optim.Adagrad(p, **kw))
    np.testing.assert_allclose(got, adagrad_reference(**kw), rtol=1e-12)


def test_composed_optimizer_groups_state_dict_and_schedulers():
    a = mf.tensor([1.0, 2.0], requires_grad=True)
    b = mf.tensor([3.0], requires_grad=True)
    opt = mf.optim.RMSprop([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    sched = mf.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    (a.sum() + b.sum()).backward()
    opt.step()
    sched.step()
    assert [g["lr"] for g in opt.param_groups] == [0.05, 0.25]
    state = opt.state_dict()
    assert set(state) == {"state", "param_groups"} and [g["params"] for g in state["param_groups"]] == [[0], [1]]
    other = mf.optim.RMSprop([{"params": [a]}, {"params": [b]}], lr=1.0)
    other.load_state_dict(state)
    assert other.param_groups[1]["lr"] == 0.25 and set(other.state[b]) == {"square_avg", "step"}
    with pytest.raises(ValueError, match="empty parameter list"):
        mf.optim.Adagrad([])


def test_clip_grad_value_and_clip_grad_norm_return_values():
    w = mf.tensor([1.0, -2.0], requires_grad=True)
    (w * mf.tensor([10.0, 10.0])).sum().backward()
    mf.nn.utils.clip_grad_value_([w], 3)
    assert w.grad.numpy().tolist() == [3.0, 3.0]
    norm = mf.nn.utils.clip_grad_norm_([w], 1.0)
    assert isinstance(norm, mf.Tensor) and norm.dtype == mf.float32 and norm.shape == ()
    assert float(norm) == pytest.approx(np.sqrt(18.0))
