"""Whole programs as PyTorch users write them (issue 37, twentieth programs round), focused on
whole training and inference programs and the module and optimizer surface around them: a
ResNet with BatchNorm, HF-style GPT-2 generation with a KV cache and left padding, LSTM
language models (tied weights, truncated BPTT), DataLoader loops (samplers, collate_fn,
iterable datasets), checkpoint and resume, in-place idioms, torch.compile of modules and
functions, nn.utils (parametrize, weight_norm, spectral_norm, orthogonal, clip_grad_*, rnn
packing, prune, fusion), less common optimizers (LBFGS, Rprop, ASGD, NAdam, RAdam, Adamax,
SparseAdam, Adafactor) and schedulers (ReduceLROnPlateau, SequentialLR, ChainedScheduler,
PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR), torch.utils.checkpoint,
nn.init, module, optimizer and state_dict hooks, non-persistent buffers, named_modules
traversal, grad-mode decorators, torch.func and half / bfloat16 inference. Each program in
port_programs20/ is torch's spelling, run unchanged but for its imports, and must agree with
what PyTorch 2 printed for it (expected.json), as test_port_programs9's."""
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs20"), "z")


def test_adafactor_factors_a_matrix_s_second_moment_and_steps_as_torch_s():
    rs = np.random.RandomState(0)
    ps = [nn.Parameter(mf.from_numpy(rs.standard_normal(s).astype(np.float32))) for s in [(3, 4), (2, 2, 3), (5,)]]
    opt = mf.optim.Adafactor([{"params": ps[:2]}, {"params": ps[2:], "weight_decay": 0.1, "maximize": True}],
                             lr=0.05, d=1.5)
    for _ in range(3):
        opt.zero_grad()
        sum((p.sin() * (i + 1)).sum() for i, p in enumerate(ps)).backward()
        opt.step()
    torch_s = [[[1.834143, 0.170022, 0.819205, 2.437162], [1.972921, -1.103156, 0.785697, -0.433009],
                [-0.350872, 0.235273, -0.059797, 1.42599]],
               [[[0.637251, -0.077105, 0.306359], [0.154743, 1.475503, -0.367912]],
                [[0.158718, -0.988741, -2.404556], [0.508168, 0.699213, -0.88602]]],
               [2.043562, -1.201876, 0.246189, 0.018061, 1.598341]]
    for p, want in zip(ps, torch_s):
        np.testing.assert_allclose(p.detach().numpy(), np.array(want), atol=2e-6)
    st = opt.state[ps[1]]
    assert sorted(st) == ["col_var", "row_var", "step"] and st["step"].item() == 3.0
    assert tuple(st["row_var"].shape) == (2, 2, 1) and tuple(st["col_var"].shape) == (2, 1, 3)
    assert sorted(opt.state[ps[2]]) == ["step", "variance"]


def test_fused_conv_and_linear_compute_the_batchnorm_after_them():
    rs = np.random.RandomState(3)
    for conv, transpose in ((nn.Conv2d(2, 3, 3, padding=1), False), (nn.ConvTranspose2d(2, 3, 3), True)):
        bn = nn.BatchNorm2d(3)
        with mf.no_grad():
            bn.running_mean.copy_(mf.tensor([0.1, -0.2, 0.3]))
            bn.running_var.copy_(mf.tensor([1.5, 0.5, 2.0]))
            bn.weight.copy_(mf.tensor([0.5, 2.0, -1.0]))
        conv.eval(), bn.eval()
        x = mf.from_numpy(rs.standard_normal((2, 2, 5, 5)).astype(np.float32))
        fused = nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
        assert fused is not conv and isinstance(fused.weight, nn.Parameter)
        np.testing.assert_allclose(fused(x).numpy(), bn(conv(x)).detach().numpy(), atol=1e-5)
    lin, bn1 = nn.Linear(4, 3).eval(), nn.BatchNorm1d(3).eval()
    with mf.no_grad():
        bn1.running_var.fill_(4.0)
    x = mf.from_numpy(rs.standard_normal((5, 4)).astype(np.float32))
    np.testing.assert_allclose(nn.utils.fusion.fuse_linear_bn_eval(lin, bn1)(x).detach().numpy(),
                               bn1(lin(x)).detach().numpy(), atol=1e-6)
    with pytest.raises(AssertionError, match="Fusion only for eval"):
        nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), nn.BatchNorm2d(1))


def test_optimizers_take_named_parameters_and_keep_the_names():
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    for opt in (mf.optim.Adam(m.named_parameters(), lr=0.1), mf.optim.Adafactor(m.named_parameters())):
        assert opt.param_groups[0]["param_names"] == ["0.weight", "0.bias", "1.weight", "1.bias"]
        assert opt.state_dict()["param_groups"][0]["param_names"][0] == "0.weight"
        assert opt.param_groups[0]["params"][0] is m[0].weight
    with pytest.raises(ValueError, match="Some param names are missing"):
        mf.optim.SGD([("w", m[0].weight), m[0].bias], lr=0.1)


def test_encoder_zeroes_right_padded_positions_where_torch_s_nested_path_does():
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4))
    with mf.no_grad():
        enc.norm.bias.copy_(mf.tensor([0.5, -1.0, 2.0, 0.0]))
    x = mf.from_numpy(np.random.RandomState(1).standard_normal((2, 3, 4)).astype(np.float32))
    pad = mf.tensor([[False, False, True], [False, False, False]])
    enc.eval()
    with mf.no_grad():
        out = enc(x, src_key_padding_mask=pad)
        left_padded = enc(x, src_key_padding_mask=pad.flip(1))  # not right-padded: no nested path
    assert out[0, 2].tolist() == [0.5, -1.0, 2.0, 0.0]  # the norm of 0: its bias
    assert left_padded[0, 0].tolist() != [0.5, -1.0, 2.0, 0.0]
    with_grad = enc(x, src_key_padding_mask=pad)  # autograd through the weights: no nested path
    np.testing.assert_allclose(with_grad[:, :2].detach().numpy(), out[:, :2].numpy(), atol=1e-6)
    assert with_grad[0, 2].tolist() != [0.5, -1.0, 2.0, 0.0]
    pre_norm = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, norm_first=True), 1).eval()
    assert not pre_norm.use_nested_tensor and enc.use_nested_tensor


def test_grad_mode_decorators_run_a_generator_s_body_inside_the_mode():
    w = mf.ones(2, requires_grad=True)

    @mf.no_grad()
    def frozen(n):
        for i in range(n):
            yield (w * i).requires_grad
        return "done"

    @mf.enable_grad()
    def recording():
        yield (w * 2).requires_grad

    assert list(frozen(3)) == [False, False, False]
    with mf.no_grad():
        assert list(recording()) == [True]
    gen = frozen(2)
    next(gen)
    assert (w * 2).requires_grad  # suspended at a yield: outside the mode
    with pytest.raises(StopIteration) as stop:
        next(gen), next(gen)
    assert stop.value.value == "done"


def test_sequential_and_module_list_pop_and_renumber():
    s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    assert isinstance(s.pop(0), nn.ReLU) and list(s._modules) == ["0", "1"] and isinstance(s[0], nn.Tanh)
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Identity()])
    assert len(ml.pop(slice(0, 2))) == 2 and list(ml._modules) == ["0"]


def test_a_parameter_read_in_optimizer_state_before_its_step_stays_listed():
    lin = nn.Linear(2, 1)
    opt = mf.optim.Adam(lin.parameters(), lr=0.1)
    assert opt.state[lin.weight] == {} and len(opt.state) == 1 and list(opt.state) == [lin.weight]
    lin(mf.ones(1, 2)).sum().backward()
    opt.step()
    assert sorted(opt.state[lin.weight]) == ["exp_avg", "exp_avg_sq", "step"] and len(opt.state) == 2


def test_autograd_grad_runs_only_the_nodes_on_paths_to_its_inputs():
    a = mf.tensor([1.0, 2.0], requires_grad=True)
    b = mf.tensor([3.0], requires_grad=True)
    c = mf.tensor([4.0], requires_grad=True)
    p, q = a * b, c.exp() * 2
    y = p.sum() + q.sum()
    with pytest.raises(RuntimeError, match="not have been used in the graph"):
        mf.autograd.grad(p.sum(), [c])  # nothing ran, nothing was freed
    (ga,) = mf.autograd.grad(y, [a])  # frees the nodes down to a alone, as torch's
    assert ga.tolist() == [3.0, 3.0] and a.grad is None and b.grad is None and c.grad is None
    (gc,) = mf.autograd.grad(q.sum(), [c])  # the exp branch kept its saved values
    np.testing.assert_allclose(gc.numpy(), [2 * np.exp(4.0)], rtol=1e-6)
    with pytest.raises(Exception, match="a second time"):
        mf.autograd.grad(p.sum(), [a])
    h = a * 2  # a non-leaf input: its node's hooks run, its backward only where needed
    z = (h * b).sum()
    gh, gb = mf.autograd.grad(z, [h, b], retain_graph=True)
    assert gh.tolist() == [3.0, 3.0] and gb.tolist() == [6.0]
    z.backward()  # h's node kept its saved values: backward runs through it
    assert a.grad.tolist() == [6.0, 6.0] and b.grad.tolist() == [6.0]


def test_layers_reset_parameters_and_a_subclass_s_override_initializes_them():
    class ConstLinear(nn.Linear):
        def reset_parameters(self):
            nn.init.constant_(self.weight, 0.1)
            nn.init.zeros_(self.bias)

    lin = ConstLinear(3, 2)
    np.testing.assert_allclose(lin.weight.detach().numpy(), 0.1)
    assert lin.bias.tolist() == [0.0, 0.0]
    for layer in (nn.Linear(3, 2), nn.Conv2d(2, 3, 3), nn.ConvTranspose1d(2, 3, 3), nn.LSTM(3, 4, 2, proj_size=2),
                  nn.GRUCell(3, 4), nn.Embedding(5, 3, padding_idx=1)):
        mf.manual_seed(7)
        before = [p.detach().clone() for p in layer.parameters()]
        layer.reset_parameters()  # the k-fold idiom: hasattr(layer, "reset_parameters")
        after = list(layer.parameters())
        assert [p.shape for p in after] == [p.shape for p in before]
        assert any(not mf.equal(p, q) for p, q in zip(after, before)), type(layer).__name__
    assert nn.Embedding(5, 3, padding_idx=1).weight[1].tolist() == [0.0, 0.0, 0.0]
    bn, ln, gn = nn.BatchNorm1d(2), nn.LayerNorm(2), nn.GroupNorm(1, 2)
    with mf.no_grad():
        for m in (bn, ln, gn):
            m.weight.fill_(3.0), m.bias.fill_(2.0)
        bn.running_var.fill_(5.0)
    for m in (bn, ln, gn):
        m.reset_parameters()
        assert m.weight.tolist() == [1.0, 1.0] and m.bias.tolist() == [0.0, 0.0]
    assert bn.running_var.tolist() == [1.0, 1.0] and bn.num_batches_tracked.item() == 0
