"""Whole programs as PyTorch users write them (issue 37, twenty-third programs round), modeled on
PyTorch's official tutorials, the programs most users start from: the 60-minute blitz (tensors,
autograd, LeNet, a CIFAR-style loop), "What is torch.nn really?" (raw weights -> nn.Module ->
nn.Linear -> optim -> Dataset / DataLoader -> CNN -> nn.Sequential with a Lambda layer -> fit /
loss_batch), learning PyTorch with examples (NumPy-style tensors, autograd, LegendrePolynomial3,
nn, optim, custom and dynamic modules), the autograd tutorial (vector-Jacobian products,
retain_grad, requires_grad_, detach, no_grad), data loading (dict samples, callable transforms,
collate_fn), saving and loading (state_dict, whole models, checkpoints, strict=False warm starts),
char-RNN classification and generation, seq2seq with an attention GRU, DCGAN, a spatial
transformer, FGSM, DQN, neural style transfer with LBFGS, pruning, torch.func, parametrizations,
module hooks, the transformer language model, and inference mode. Each program in
port_programs23/ is torch's spelling, run unchanged but for its imports, and must agree with
what PyTorch 2 printed for it (expected.json), as test_port_programs9's."""
import os

import numpy as np
import pytest

import meshflow as mf
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs23"), "t")


def _packed_count(make):
    packed = []
    with mf.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t.shape) or t, lambda t: t):
        make()
    return len(packed)


def test_saved_tensors_hooks_pack_what_each_gradient_reads_as_torch():
    x = mf.tensor([0.5, 1.0, 2.0], requires_grad=True)
    w = mf.ones(3, 2, requires_grad=True)
    # torch 2's counts: one per value its gradient reads (an output for exp, tanh, sigmoid)
    counts = {"mul": (lambda: x * (x * 1), 2), "exp": (lambda: x.exp(), 1), "sum": (lambda: x.sum(), 0),
              "mm": (lambda: x @ w, 2), "add": (lambda: x + 1, 0), "tanh": (lambda: x.tanh(), 1),
              "log_softmax": (lambda: mf.log_softmax(x, 0), 1), "mse": (lambda: mf.nn.functional.mse_loss(x, mf.zeros(3)), 2)}
    for name, (make, want) in counts.items():
        assert _packed_count(make) == want, name


def test_backward_reads_what_unpack_gives_and_create_graph_stays_differentiable():
    x = mf.tensor([1.0, 2.0], requires_grad=True)
    unpacked = []
    with mf.autograd.graph.saved_tensors_hooks(lambda t: ("kept", t * 10), lambda p: unpacked.append(p[0]) or p[1]):
        y = (x * x).sum()  # the gradient reads x (twice): unpack's value, ten times x
    y.backward()
    assert x.grad.tolist() == [20.0, 40.0] and unpacked == ["kept", "kept"]
    x.grad = None
    with mf.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = (x ** 3).sum()
    g, = mf.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    assert g.tolist() == [3.0, 12.0] and x.grad.tolist() == [6.0, 12.0]


def test_function_saves_pass_through_the_hooks_and_save_on_cpu_changes_nothing():
    class Square(mf.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * x
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * 2 * x + 0 * y

    x = mf.tensor([3.0], requires_grad=True)
    seen = []
    with mf.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t.tolist()) or t, lambda t: t):
        Square.apply(x).backward()
    assert seen == [[3.0], [9.0]] and x.grad.tolist() == [6.0]
    a = mf.tensor([0.5, -1.0], requires_grad=True)
    with mf.autograd.graph.save_on_cpu():
        (a.exp() * a).sum().backward()
    assert np.allclose(a.grad.numpy(), (np.exp([0.5, -1.0]) * (1 + np.array([0.5, -1.0]))))
    with mf.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        with pytest.raises(RuntimeError, match="no hooks here"):
            with mf.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    assert _packed_count(lambda: a.exp()) == 1  # usable again after


def test_a_0d_index_of_a_1d_tensor_is_one_position_as_torch_s():
    assert mf.zeros(4).scatter_(0, mf.tensor(2), value=1).tolist() == [0.0, 0.0, 1.0, 0.0]
    assert mf.zeros(4).scatter_add(0, mf.tensor(1), mf.tensor(2.0)).tolist() == [0.0, 2.0, 0.0, 0.0]
    x = mf.arange(4.0, requires_grad=True)
    g = x.gather(0, mf.tensor(3))
    assert g.shape == () and g.item() == 3.0 and type(g.grad_fn).__name__ == "GatherBackward0"
    g.backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match="same number"):
        mf.zeros(2, 2).scatter_(0, mf.tensor(1), value=1)


def test_module_hook_tables_hold_the_hooks_as_torch_s():
    lin = mf.nn.Linear(2, 2)
    assert len(lin._forward_pre_hooks) == 0 and len(lin._forward_hooks) == 0

    def hook(module, args, kwargs, output):
        return output * 0

    handle = lin.register_forward_hook(hook, with_kwargs=True)
    assert list(lin._forward_hooks.values()) == [hook] and lin(mf.ones(1, 2)).tolist() == [[0.0, 0.0]]
    handle.remove()
    assert not lin._forward_hooks and not lin._hook_flags
