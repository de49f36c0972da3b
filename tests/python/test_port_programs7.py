"""What ported programs met (issue 37, seventh programs round), against NumPy and torch's
documented behaviour: a program's own Optimizer subclass, torch's module paths, the identity of
.grad, inference_mode's flag, distributions.kl and dtype properties."""
import sys
import weakref

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


# ---- an Optimizer subclass a program writes (Lion), as torch's base runs it

class _Lion(mf.optim.Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

    @mf.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with mf.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data.mul_(1 - group["lr"] * group["weight_decay"])
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = mf.zeros_like(p)
                    state["step"] = 0
                beta1, beta2 = group["betas"]
                update = state["exp_avg"] * beta1 + p.grad * (1 - beta1)
                p.add_(mf.sign(update), alpha=-group["lr"])
                state["exp_avg"].mul_(beta2).add_(p.grad, alpha=1 - beta2)
                state["step"] += 1
        return loss


def _lion_reference(w, b, x, y, steps, lr, betas, wd_w):
    """Lion on mean((x @ w.T + b - y)^2) in float64, w decayed by wd_w and b not."""
    m_w, m_b, losses = np.zeros_like(w), np.zeros_like(b), []
    for _ in range(steps):
        r = x @ w.T + b - y
        losses.append((r ** 2).mean())
        g_w, g_b = 2 * r.T @ x / r.size, 2 * r.sum(0) / r.size
        w = w * (1 - lr * wd_w)
        w = w - lr * np.sign(m_w * betas[0] + g_w * (1 - betas[0]))
        b = b - lr * np.sign(m_b * betas[0] + g_b * (1 - betas[0]))
        m_w, m_b = m_w * betas[1] + g_w * (1 - betas[1]), m_b * betas[1] + g_b * (1 - betas[1])
    return w, b, losses


def test_an_optimizer_subclass_steps_with_groups_state_and_closure():
    rng = np.random.default_rng(0)
    w0, b0 = rng.standard_normal((2, 3)), rng.standard_normal(2)
    x, y = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    layer = nn.Linear(3, 2)
    with mf.no_grad():
        layer.weight.copy_(mf.tensor(w0, dtype=mf.float32))
        layer.bias.copy_(mf.tensor(b0, dtype=mf.float32))
    opt = _Lion([{"params": [layer.weight], "weight_decay": 0.1}, {"params": [layer.bias]}], lr=0.01)
    xt, yt = mf.tensor(x, dtype=mf.float32), mf.tensor(y, dtype=mf.float32)
    losses = []
    for _ in range(4):
        def closure():
            opt.zero_grad()
            loss = F.mse_loss(layer(xt), yt)
            loss.backward()
            return loss
        losses.append(opt.step(closure).item())
    w, b, ref = _lion_reference(w0, b0, x, y, 4, 0.01, (0.9, 0.99), 0.1)
    np.testing.assert_allclose(losses, ref, rtol=1e-5)
    np.testing.assert_allclose(layer.weight.numpy(), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.bias.numpy(), b, rtol=1e-5, atol=1e-6)
    assert opt.param_groups[1]["weight_decay"] == 0.0 and opt.state[layer.weight]["step"] == 4
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1]] and sorted(sd["state"]) == [0, 1]
    fresh = _Lion([{"params": [layer.weight], "weight_decay": 0.1}, {"params": [layer.bias]}], lr=0.5)
    fresh.load_state_dict(sd)
    assert fresh.param_groups[0]["lr"] == 0.01 and fresh.state[layer.bias]["step"] == 4


def test_the_optimizer_base_is_every_optimizer_s_and_refuses_a_missing_step():
    p = nn.Parameter(mf.ones(2))
    for make in (lambda: mf.optim.SGD([p], lr=0.1), lambda: mf.optim.AdamW([p]), lambda: mf.optim.RMSprop([p]),
                 lambda: mf.optim.LBFGS([p])):
        assert isinstance(make(), mf.optim.Optimizer)

    class NoStep(mf.optim.Optimizer):
        pass
    opt = NoStep([p], {"lr": 1.0})
    p.grad = mf.ones(2)
    with pytest.raises(NotImplementedError, match="step"):
        opt.step()


def test_a_scheduler_subclass_drives_a_subclassed_optimizer():
    class Inverse(mf.optim.lr_scheduler.LRScheduler):
        def get_lr(self):
            return [g["initial_lr"] / (1 + self.last_epoch) for g in self.optimizer.param_groups]
    opt = _Lion([nn.Parameter(mf.ones(2))], lr=0.5)
    sched = Inverse(opt)
    lrs = []
    for _ in range(3):
        opt.step()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == [0.25, 0.5 / 3, 0.125]


# ---- torch's module paths below its packages

def test_torch_s_submodule_paths_import_and_hold_torch_s_names():
    import meshflow.backends.cudnn as cudnn
    from meshflow.nn.modules.batchnorm import _BatchNorm
    from meshflow.nn.modules.conv import _ConvNd
    from meshflow.nn.modules.dropout import _DropoutNd
    from meshflow.nn.modules.loss import _Loss
    from meshflow.nn.parameter import Parameter
    from meshflow.optim.optimizer import Optimizer
    from meshflow.amp.grad_scaler import GradScaler
    from meshflow.autograd.grad_mode import no_grad
    from meshflow.distributions.normal import Normal
    from meshflow.distributions.transforms import TanhTransform
    from meshflow.nn.utils.clip_grad import clip_grad_norm_
    cudnn.benchmark = True
    assert mf.backends.cudnn.benchmark and cudnn is mf.backends.cudnn
    assert Parameter is nn.Parameter and Optimizer is mf.optim.Optimizer and GradScaler is mf.amp.GradScaler
    assert no_grad is mf.no_grad and Normal is mf.distributions.Normal and clip_grad_norm_ is nn.utils.clip_grad_norm_
    assert TanhTransform is mf.distributions.transforms.TanhTransform
    assert nn.modules.loss is sys.modules["meshflow.nn.modules.loss"] and nn.modules.loss.MSELoss is nn.MSELoss
    assert all(isinstance(m, _BatchNorm) for m in (nn.BatchNorm1d(2), nn.BatchNorm2d(2), nn.SyncBatchNorm(2)))
    assert isinstance(nn.Conv2d(1, 1, 1), _ConvNd) and isinstance(nn.Dropout2d(), _DropoutNd)
    assert all(isinstance(m, _Loss) for m in (nn.MSELoss(), nn.CrossEntropyLoss(), nn.TripletMarginLoss(),
                                             nn.KLDivLoss(), nn.CTCLoss()))
    with pytest.raises(AttributeError, match="meshflow.nn.modules.loss.*NoSuchLoss"):
        nn.modules.loss.NoSuchLoss


def test_a_weighted_loss_subclass_keeps_its_weight_as_a_buffer():
    from meshflow.nn.modules.loss import _WeightedLoss

    class Focal(_WeightedLoss):
        def __init__(self, weight=None, gamma=2.0):
            super().__init__(weight, reduction="mean")
            self.gamma = gamma

        def forward(self, logits, target):
            logp = F.log_softmax(logits, 1).gather(1, target[:, None]).squeeze(1)
            w = self.weight[target]
            return (-(1 - logp.exp()) ** self.gamma * logp * w).sum() / w.sum()
    logits = np.array([[1.0, -0.5, 0.2], [0.3, 0.9, -1.0]])
    target = np.array([2, 1])
    weight = np.array([1.0, 2.0, 0.5])
    loss = Focal(mf.tensor(weight, dtype=mf.float32))
    assert list(loss.state_dict()) == ["weight"] and loss.reduction == "mean"
    logp = (logits - np.log(np.exp(logits).sum(1, keepdims=True)))[np.arange(2), target]
    w = weight[target]
    expected = (-(1 - np.exp(logp)) ** 2 * logp * w).sum() / w.sum()
    got = loss(mf.tensor(logits, dtype=mf.float32), mf.tensor(target)).item()
    assert got == pytest.approx(expected, rel=1e-5)


# ---- a .grad is the same object while it is the same tensor (torch's)

def test_grad_reads_give_one_object_until_the_gradient_changes():
    x = mf.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    assert x.grad is g and x.grad is x.grad
    (x * 3).sum().backward()  # accumulated into the same tensor
    assert x.grad is g and g.numpy().tolist() == [5.0, 5.0, 5.0]
    mine = mf.zeros(3)
    x.grad = mine
    assert x.grad is mine
    x.grad = None
    assert x.grad is None
    ref = weakref.ref(mine)
    del mine
    assert ref() is None  # the parameter does not keep a dropped gradient's object alive


# ---- inference_mode as torch's: its flag, and mode=False turning grad mode on

def test_inference_mode_is_reported_and_mode_false_enables_grad():
    assert not mf.is_inference_mode_enabled()
    with mf.inference_mode():
        assert mf.is_inference_mode_enabled() and not mf.is_grad_enabled()
        with mf.inference_mode(False):
            assert not mf.is_inference_mode_enabled() and mf.is_grad_enabled()
        assert mf.is_inference_mode_enabled() and not mf.is_grad_enabled()
    assert not mf.is_inference_mode_enabled() and mf.is_grad_enabled()

    @mf.inference_mode()
    def predict():
        return mf.is_inference_mode_enabled()
    assert predict() and not mf.is_inference_mode_enabled()


# ---- torch.distributions.kl: its module path and register_kl

@pytest.fixture
def kl_rules_restored():
    """The rules this test registers end with it (later tests meet the built-in closed forms)."""
    from meshflow import distributions
    saved = dict(distributions._KL_REGISTRY)
    yield
    distributions._KL_REGISTRY.clear()
    distributions._KL_REGISTRY.update(saved)


def test_distributions_kl_module_and_registered_rules(kl_rules_restored):
    from meshflow.distributions.kl import kl_divergence, register_kl
    from meshflow.distributions import Normal, Laplace, Uniform
    kl = kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)).item()
    assert kl == pytest.approx(np.log(2.0) + (1 + 1) / (2 * 4) - 0.5, rel=1e-6)

    class Wide(Normal):
        pass

    @register_kl(Normal, Laplace)
    def _normal_laplace(p, q):  # a closed form of the program's own, checked at one point
        return (p.loc - q.loc).abs() * 0 + 7.0

    @register_kl(Wide, Laplace)
    def _wide_laplace(p, q):
        return (p.loc - q.loc).abs() * 0 + 9.0
    assert kl_divergence(Normal(0.0, 1.0), Laplace(0.0, 1.0)).item() == 7.0
    assert kl_divergence(Wide(0.0, 1.0), Laplace(0.0, 1.0)).item() == 9.0  # the most specific rule
    with pytest.raises(NotImplementedError):  # a pair torch has no closed form for either
        kl_divergence(Uniform(0.0, 1.0), Laplace(0.0, 1.0))
    with pytest.raises(TypeError):
        register_kl(int, Normal)


# ---- torch.dtype's properties

def test_dtype_itemsize_signedness_and_complexness():
    sizes = {mf.float32: 4, mf.float64: 8, mf.float16: 2, mf.bfloat16: 2, mf.int64: 8, mf.int32: 4, mf.int16: 2,
             mf.int8: 1, mf.uint8: 1, mf.bool: 1}
    assert {d: d.itemsize for d in sizes} == sizes
    assert [d for d in sizes if not d.is_signed] == [mf.uint8, mf.bool]
    assert not any(d.is_complex for d in sizes)
    assert mf.zeros(3, dtype=mf.bfloat16).element_size() == 2


# ---- torch.func.vmap (a map over the batch): per-sample gradients as the tutorial computes them

def test_vmap_of_grad_gives_per_sample_gradients():
    from meshflow.func import functional_call, grad, vmap
    rng = np.random.default_rng(3)
    w0, b0 = rng.standard_normal((3, 4)), rng.standard_normal(3)
    x, y = rng.standard_normal((5, 4)), np.array([0, 2, 1, 1, 0])
    model = nn.Linear(4, 3)
    with mf.no_grad():
        model.weight.copy_(mf.tensor(w0, dtype=mf.float32))
        model.bias.copy_(mf.tensor(b0, dtype=mf.float32))
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(params, sample, target):
        out = functional_call(model, params, (sample.unsqueeze(0),))
        return F.cross_entropy(out, target.unsqueeze(0))
    per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, mf.tensor(x, dtype=mf.float32), mf.tensor(y))
    logits = x @ w0.T + b0
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    d = p - np.eye(3)[y]  # d loss_i / d logits_i
    np.testing.assert_allclose(per_sample["weight"].numpy(), d[:, :, None] * x[:, None, :], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(per_sample["bias"].numpy(), d, rtol=1e-5, atol=1e-6)


def test_vmap_dims_nesting_and_errors():
    from meshflow.func import vmap
    a = np.arange(24.0).reshape(2, 3, 4)
    at = mf.tensor(a, dtype=mf.float32)
    got = vmap(lambda m, v: m @ v, in_dims=(None, 0))(at[0], at[1])
    np.testing.assert_allclose(got.numpy(), (a[0] @ a[1].T).T)
    got = vmap(vmap(lambda t: t.sum()), in_dims=1)(at)  # over dim 1, then the first remaining
    np.testing.assert_allclose(got.numpy(), a.sum(2).T)
    out_a, out_b = vmap(lambda t: (t * 2, t.sum()), out_dims=(1, 0))(at)
    np.testing.assert_allclose(out_a.numpy(), np.moveaxis(a * 2, 0, 1))
    np.testing.assert_allclose(out_b.numpy(), a.sum((1, 2)))
    got = vmap(lambda d: d["x"] + d["y"], in_dims=({"x": 0, "y": None},))({"x": at, "y": at[0]})
    np.testing.assert_allclose(got.numpy(), a + a[0])
    assert mf.vmap is vmap
    with pytest.raises(ValueError, match="sizes"):
        vmap(lambda s, t: s + t)(at, at[:1])
    with pytest.raises(ValueError, match="in_dims"):
        vmap(lambda s, t: s + t, in_dims=(0,))(at, at)


# ---- finfo and iinfo print as torch's

def test_finfo_and_iinfo_print_as_torch_s():
    assert repr(mf.finfo(mf.float32)) == ("finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, "
                                          "eps=1.19209e-07, smallest_normal=1.17549e-38, tiny=1.17549e-38, "
                                          "dtype=float32)")
    assert mf.finfo(mf.float16).resolution == 0.001
    assert repr(mf.iinfo(mf.uint8)) == "iinfo(min=0, max=255, dtype=uint8)"


# ---- distributions: the methods torch's families have that programs call

def test_distribution_supports_inverse_cdfs_and_perplexity():
    import math
    D = mf.distributions
    D.Distribution.set_default_validate_args(False)
    D.Distribution.set_default_validate_args(True)
    logits = np.array([[0.1, -0.4, 1.2], [0.0, 0.3, -2.0]])
    c = D.Categorical(logits=mf.tensor(logits, dtype=mf.float32))
    assert c.enumerate_support().tolist() == [[0, 0], [1, 1], [2, 2]]
    assert c.enumerate_support(expand=False).tolist() == [[0], [1], [2]]
    p = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    np.testing.assert_allclose(c.perplexity().numpy(), np.exp(-(p * np.log(p)).sum(1)), rtol=1e-5)
    np.testing.assert_allclose(c.log_prob(c.enumerate_support()).exp().numpy(), p.T, rtol=1e-5)
    b = D.Bernoulli(probs=mf.tensor([0.2, 0.7]))
    assert b.enumerate_support().tolist() == [[0.0, 0.0], [1.0, 1.0]]
    u = D.Uniform(mf.tensor([0.0, 1.0]), mf.tensor([2.0, 5.0]))
    with pytest.raises(ValueError, match="within the support"):  # torch's validation: 6 is outside [1, 5]
        u.cdf(mf.tensor([1.0, 6.0]))
    unchecked = D.Uniform(mf.tensor([0.0, 1.0]), mf.tensor([2.0, 5.0]), validate_args=False)
    np.testing.assert_allclose(unchecked.cdf(mf.tensor([1.0, 6.0])).numpy(), [0.5, 1.0])
    np.testing.assert_allclose(u.icdf(mf.tensor([0.25, 0.5])).numpy(), [0.5, 3.0])
    assert math.isnan(u.mode[0].item())
    lap = D.Laplace(1.0, 2.0)
    q = np.array([0.2, 0.9])
    np.testing.assert_allclose(lap.icdf(mf.tensor(q, dtype=mf.float32)).numpy(),
                               1 - 2 * np.sign(q - 0.5) * np.log1p(-2 * np.abs(q - 0.5)), rtol=1e-6)
    e = D.Exponential(mf.tensor([0.5, 2.0]))
    np.testing.assert_allclose(e.icdf(mf.tensor([0.3, 0.8])).numpy(), -np.log1p(-np.array([0.3, 0.8])) /
                               np.array([0.5, 2.0]), rtol=1e-6)
    assert e.mode.tolist() == [0.0, 0.0] and list(D.Normal(mf.zeros(3), 1.0).sample_n(5).shape) == [5, 3]
    w, mu, sd = np.array([0.2, 0.8]), np.array([-1.0, 2.0]), np.array([1.0, 0.5])
    mix = D.MixtureSameFamily(D.Categorical(probs=mf.tensor(w, dtype=mf.float32)),
                              D.Normal(mf.tensor(mu, dtype=mf.float32), mf.tensor(sd, dtype=mf.float32)))
    x = np.array([-1.5, 0.0, 2.5])
    expected = [sum(wk * 0.5 * (1 + math.erf((xi - m) / (s * math.sqrt(2)))) for wk, m, s in zip(w, mu, sd))
                for xi in x]
    np.testing.assert_allclose(mix.cdf(mf.tensor(x, dtype=mf.float32)).numpy(), expected, rtol=1e-5)


# ---- interpolate(mode="nearest") with a scale factor steps by 1 / scale_factor as torch's

@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_nearest_interpolation_by_a_scale_factor_reads_torch_s_sources(device):
    def sources(n, s):
        step = np.float32(1.0 / s)  # torch's compute_scales_value: the quotient in double, then float
        o = np.arange(int(np.floor(n * s)), dtype=np.float32)
        return np.minimum(np.floor(o * step).astype(np.int64), n - 1)
    x = np.arange(88.0, dtype=np.float32).reshape(1, 1, 8, 11)
    xt = mf.tensor(x).to(device)
    y = F.interpolate(xt, scale_factor=1.7, mode="nearest").cpu().numpy()
    rows, cols = sources(8, 1.7), sources(11, 1.7)
    assert cols[-1] == 10  # 17 * float32(1 / 1.7) rounds above 10 (1 / float32(1.7) gave 9)
    np.testing.assert_array_equal(y[0, 0], x[0, 0][np.ix_(rows, cols)])
    y1 = F.interpolate(xt[:, :, 0], scale_factor=2.3, mode="nearest").cpu().numpy()
    np.testing.assert_array_equal(y1[0, 0], x[0, 0, 0][sources(11, 2.3)])
    g = mf.tensor(x, requires_grad=True)
    F.interpolate(g.to(device), scale_factor=1.7, mode="nearest").sum().backward()
    counts = np.zeros((8, 11))
    np.add.at(counts, (rows[:, None], cols[None, :]), 1)
    np.testing.assert_array_equal(g.grad.numpy()[0, 0], counts)


# ---- autograd.Function in torch 2's form (forward without ctx, setup_context) and once_differentiable

def test_function_with_setup_context_and_once_differentiable():
    from meshflow.autograd.function import Function, once_differentiable

    class Cube(Function):
        @staticmethod
        def forward(x, k):
            return x ** 3 * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.k = inputs[1]

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            assert not mf.is_grad_enabled()
            return g * 3 * x ** 2 * ctx.k, None
    xs = np.array([-1.5, 0.5, 2.0])
    x = mf.tensor(xs, dtype=mf.float32, requires_grad=True)
    y = Cube.apply(x, 2.0)
    np.testing.assert_allclose(y.detach().numpy(), xs ** 3 * 2, rtol=1e-6)
    g, = mf.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 6 * xs ** 2, rtol=1e-6)


# ---- register_post_accumulate_grad_hook: an optimizer step per parameter after accumulation

def test_post_accumulate_grad_hooks_step_each_parameter():
    rng = np.random.default_rng(5)
    w0, b0, x = rng.standard_normal((2, 3)), rng.standard_normal(2), rng.standard_normal((4, 3))
    layer = nn.Linear(3, 2)
    with mf.no_grad():
        layer.weight.copy_(mf.tensor(w0, dtype=mf.float32))
        layer.bias.copy_(mf.tensor(b0, dtype=mf.float32))
    opts = {p: mf.optim.SGD([p], lr=0.1) for p in layer.parameters()}
    seen = []

    def hook(p):
        seen.append("w" if p is layer.weight else "b")
        opts[p].step()
        opts[p].zero_grad()
    handles = [p.register_post_accumulate_grad_hook(hook) for p in layer.parameters()]
    xt = mf.tensor(x, dtype=mf.float32)
    out = layer(xt) + layer(xt)  # two gradients reach each leaf: the hook runs once
    out.pow(2).sum().backward()
    r = 2 * (x @ w0.T + b0)  # d/d(layer(x)) of sum((2 layer(x))^2) / 2, per use
    grad_w, grad_b = 2 * 2 * r.T @ x, 2 * 2 * r.sum(0)
    assert sorted(seen) == ["b", "w"] and layer.weight.grad is None and layer.bias.grad is None
    np.testing.assert_allclose(layer.weight.numpy(), w0 - 0.1 * grad_w, rtol=1e-5)
    np.testing.assert_allclose(layer.bias.numpy(), b0 - 0.1 * grad_b, rtol=1e-5)
    mf.autograd.grad(layer(xt).sum(), [layer.weight])  # accumulates nothing: no hook
    assert len(seen) == 2
    for h in handles:
        h.remove()
    layer(xt).sum().backward()
    assert len(seen) == 2 and layer.weight.grad is not None
    with pytest.raises(RuntimeError, match="non-leaf"):
        (layer.weight * 2).register_post_accumulate_grad_hook(hook)


def test_post_accumulate_grad_hooks_run_as_each_gradient_is_final():
    """As torch's: a later layer's hooks run before an earlier layer's gradient exists, so an
    optimizer step in the hook frees each gradient before the next is made; backward(inputs=)
    runs them too. torch 2's values after two such steps."""
    lin1, lin2 = nn.Linear(3, 4), nn.Linear(4, 2)
    with mf.no_grad():
        for p in list(lin1.parameters()) + list(lin2.parameters()):
            p.copy_(mf.linspace(-1, 1, p.numel()).reshape(p.shape))
    params = {"w1": lin1.weight, "b1": lin1.bias, "w2": lin2.weight, "b2": lin2.bias}
    opts = {p: mf.optim.SGD([p], lr=0.1) for p in params.values()}
    seen = []

    def hook(p):
        name = next(k for k, v in params.items() if v is p)
        seen.append((name, sorted(k for k, v in params.items() if v.grad is not None)))
        opts[p].step()
        opts[p].zero_grad()
    for p in params.values():
        p.register_post_accumulate_grad_hook(hook)
    x = mf.linspace(0, 1, 6).reshape(2, 3)
    for _ in range(2):
        lin2(mf.tanh(lin1(x))).pow(2).sum().backward()
    # each hook sees only its own gradient: the others were freed or are not made yet
    assert [others for _, others in seen] == [[name] for name, _ in seen] and len(seen) == 8
    assert [name for name, _ in seen[:4]].index("w2") < [name for name, _ in seen[:4]].index("w1")
    np.testing.assert_allclose(lin1.weight.flatten().numpy(), [-0.99823, -0.81042, -0.62261, -0.46952, -0.30033,
                               -0.13113, 0.06427, 0.20429, 0.34432, 0.63449, 0.80456, 0.97463], atol=2e-5)
    np.testing.assert_allclose(lin2.bias.numpy(), [-1.10593, 0.62702], atol=2e-5)
    (lin1.bias * 3).sum().backward(inputs=[lin1.bias])
    assert len(seen) == 9 and seen[-1][0] == "b1"


def test_post_accumulate_grad_hooks_fire_in_torchs_order():
    """torch's engine accumulates a Linear's bias before its weight (the weight's gradient
    passes its TBackward0 first), for 2-d and 3-d inputs; a LayerNorm's weight before its bias."""
    lin1, lin2, norm = nn.Linear(3, 4), nn.Linear(4, 2), nn.LayerNorm(2)
    params = {"w1": lin1.weight, "b1": lin1.bias, "w2": lin2.weight, "b2": lin2.bias, "g": norm.weight,
              "h": norm.bias}
    seen = []
    for p in params.values():
        p.register_post_accumulate_grad_hook(lambda p: seen.append(next(k for k, v in params.items() if v is p)))
    x = mf.linspace(0, 1, 6).reshape(2, 3)
    for shaped in (x, x.reshape(1, 2, 3)):
        seen.clear()
        norm(lin2(mf.tanh(lin1(shaped)))).pow(3).sum().backward()
        assert seen == ["g", "h", "b2", "w2", "b1", "w1"]


# ---- torch.distributions.constraints, as a program's own Distribution subclass names them

def test_constraints_check_values_and_serve_a_custom_distribution():
    from meshflow.distributions import constraints
    from meshflow.distributions.constraints import positive

    class HalfNormal(mf.distributions.Distribution):
        arg_constraints = {"scale": constraints.positive}
        support = constraints.nonnegative

        def __init__(self, scale, validate_args=None):
            self.scale = scale
            super().__init__(scale.shape, validate_args=validate_args)

        def log_prob(self, value):
            return mf.distributions.Normal(0.0, self.scale).log_prob(value) + np.log(2.0)
    h = HalfNormal(mf.tensor([1.0, 2.0]))
    v, s = np.array([0.5, 1.0]), np.array([1.0, 2.0])
    np.testing.assert_allclose(h.log_prob(mf.tensor(v, dtype=mf.float32)).numpy(),
                               np.log(2) - v ** 2 / (2 * s ** 2) - np.log(s) - 0.5 * np.log(2 * np.pi), rtol=1e-6)
    assert positive is constraints.positive and repr(positive) == "GreaterThan(lower_bound=0.0)"
    assert positive.check(mf.tensor([-1.0, 0.0, 2.0])).tolist() == [False, False, True]
    assert constraints.unit_interval.check(mf.tensor([0.0, 1.0, 1.5])).tolist() == [True, True, False]
    assert constraints.simplex.check(mf.tensor([[0.2, 0.8], [0.5, 0.6]])).tolist() == [True, False]
    assert constraints.integer_interval(0, 3).check(mf.tensor([1.0, 1.5, 4.0])).tolist() == [True, False, False]
    assert constraints.real_vector.check(mf.tensor([[0.0, float("nan")], [1.0, 2.0]])).tolist() == [False, True]
    assert constraints.positive_definite.check(mf.tensor([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 2.0], [2.0, 1.0]]])
                                               ).tolist() == [True, False]
    assert constraints.lower_cholesky.check(mf.tensor([[1.0, 0.0], [3.0, 2.0]])).item()
    assert constraints.is_dependent(constraints.dependent) and not constraints.is_dependent(positive)
    assert constraints.boolean.is_discrete and constraints.simplex.event_dim == 1
