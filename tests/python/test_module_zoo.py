"""Every public module of meshflow.nn on the test device (issue 39): built there with torch's
factory kwargs (device=, dtype=) or built on the CPU and moved by module.to, each runs forward
and backward with values and gradients equal to the same module on the CPU, and every
parameter, buffer, output and gradient lives on the test device.

The classes come from meshflow.nn's namespace, so a new module fails
test_every_module_has_a_row until ZOO has a row for it: a name, a constructor taking the
factory kwargs (**kw; pass them to the module, or to its parts where torch's constructor has
no device=, as TransformerEncoder's), and the inputs (NumPy arrays, made on the CPU and moved
by the test; integer arrays take no gradient)."""
import inspect

import numpy as np
import pytest

import meshflow as mf
import meshflow.distributions as D
import meshflow.nn as nn

TESTDEV = mf.device("testdev:0")


def _randn(*shape, low=None, high=None, seed=0):
    rng = np.random.default_rng(seed + sum(shape))
    if low is not None:
        return rng.uniform(low, high, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def _ints(high, *shape):
    return np.random.default_rng(high).integers(0, high, shape).astype(np.int64)


def _log_probs(*shape):
    x = _randn(*shape)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def _probs(*shape):
    return np.exp(_log_probs(*shape))


def _signs(*shape):
    """1 and -1 targets, as float32."""
    return np.where(np.random.default_rng(sum(shape)).random(shape) < 0.5, -1.0, 1.0).astype(np.float32)


def _pad_row(cls, kind):
    return (lambda **kw: cls(1, 2.0)) if kind == "Constant" else (lambda **kw: cls(1))


class Row:
    """One way to build and call a module: make(**kw) -> module, inputs() -> arrays; `grads`:
    the inputs that take gradients (None: every floating one); `forward`: False for modules
    that are not called (containers)."""

    def __init__(self, make, inputs=lambda: [_randn(4, 3)], grads=None, forward=True):
        self.make, self.inputs, self.grads, self.forward = make, inputs, grads, forward


def _x(*shape):
    return lambda: [_randn(*shape)]


def _loss(cls, inputs=lambda: [_randn(4, 3), _randn(4, 3, seed=1)], **args):
    return Row(lambda **kw: cls(**args), inputs, grads=(0,))


ZOO = {
    "AdaptiveAvgPool2d": Row(lambda **kw: nn.AdaptiveAvgPool2d(2), _x(2, 3, 4, 4)),
    "AdaptiveAvgPool3d": Row(lambda **kw: nn.AdaptiveAvgPool3d((2, 3, 2)), _x(2, 3, 4, 5, 4)),
    "AdaptiveMaxPool2d": Row(lambda **kw: nn.AdaptiveMaxPool2d(2, return_indices=True), _x(2, 3, 4, 4)),
    "AdaptiveMaxPool3d": Row(lambda **kw: nn.AdaptiveMaxPool3d(2, return_indices=True), _x(2, 3, 4, 5, 4)),
    "AvgPool1d": Row(lambda **kw: nn.AvgPool1d(2), _x(2, 3, 6)),
    "AvgPool2d": Row(lambda **kw: nn.AvgPool2d(2), _x(2, 3, 4, 4)),
    "AvgPool3d": Row(lambda **kw: nn.AvgPool3d(2, padding=1, count_include_pad=False), _x(2, 3, 4, 5, 4)),
    "BCELoss": _loss(nn.BCELoss, lambda: [_randn(4, 3, low=0.1, high=0.9), _randn(4, 3, low=0, high=1, seed=1)]),
    "BCEWithLogitsLoss": _loss(nn.BCEWithLogitsLoss,
                               lambda: [_randn(4, 3), _randn(4, 3, low=0, high=1, seed=1)]),
    "BatchNorm1d": Row(lambda **kw: nn.BatchNorm1d(3, **kw), _x(4, 3)),
    "BatchNorm2d": Row(lambda **kw: nn.BatchNorm2d(3, momentum=None, **kw), _x(2, 3, 4, 4)),
    "BatchNorm3d": Row(lambda **kw: nn.BatchNorm3d(3, **kw), _x(2, 3, 2, 2, 2)),
    "CELU": Row(lambda **kw: nn.CELU()),
    "DataParallel": Row(lambda **kw: nn.DataParallel(nn.Linear(3, 2, **kw)), _x(4, 3)),
    "Conv1d": Row(lambda **kw: nn.Conv1d(3, 4, 3, **kw), _x(2, 3, 6)),
    "Conv2d": Row(lambda **kw: nn.Conv2d(3, 4, 3, padding=1, **kw), _x(2, 3, 5, 5)),
    "Conv3d": Row(lambda **kw: nn.Conv3d(3, 4, 3, padding=1, **kw), _x(2, 3, 4, 5, 4)),
    "ConvTranspose1d": Row(lambda **kw: nn.ConvTranspose1d(3, 4, 3, stride=2, **kw), _x(2, 3, 5)),
    "ConvTranspose2d": Row(lambda **kw: nn.ConvTranspose2d(3, 4, 3, stride=2, **kw), _x(2, 3, 3, 3)),
    "ConvTranspose3d": Row(lambda **kw: nn.ConvTranspose3d(3, 4, 2, stride=2, **kw), _x(2, 3, 2, 3, 2)),
    "CosineSimilarity": Row(lambda **kw: nn.CosineSimilarity(), lambda: [_randn(4, 3), _randn(4, 3, seed=1)]),
    "CrossEntropyLoss": _loss(nn.CrossEntropyLoss, lambda: [_randn(4, 5), _ints(5, 4)], label_smoothing=0.1),
    "Dropout": Row(lambda **kw: nn.Dropout(0.5)),
    "Dropout1d": Row(lambda **kw: nn.Dropout1d(0.5), _x(2, 3, 4)),
    "Dropout2d": Row(lambda **kw: nn.Dropout2d(0.5), _x(2, 3, 4, 4)),
    "Dropout3d": Row(lambda **kw: nn.Dropout3d(0.5), _x(2, 3, 2, 2, 2)),
    "ELU": Row(lambda **kw: nn.ELU()),
    "Embedding": Row(lambda **kw: nn.Embedding(10, 3, padding_idx=0, max_norm=1.0, **kw),
                     lambda: [_ints(10, 2, 3)]),
    "Flatten": Row(lambda **kw: nn.Flatten(), _x(2, 3, 4)),
    "GELU": Row(lambda **kw: nn.GELU("tanh")),
    "GLU": Row(lambda **kw: nn.GLU(), _x(4, 6)),
    "GRU": Row(lambda **kw: nn.GRU(3, 4, num_layers=2, bidirectional=True, **kw), _x(5, 2, 3)),
    "GRUCell": Row(lambda **kw: nn.GRUCell(3, 4, **kw), _x(2, 3)),
    "GroupNorm": Row(lambda **kw: nn.GroupNorm(2, 4, **kw), _x(2, 4, 3)),
    "Hardsigmoid": Row(lambda **kw: nn.Hardsigmoid()),
    "Hardswish": Row(lambda **kw: nn.Hardswish()),
    "Hardtanh": Row(lambda **kw: nn.Hardtanh()),
    "HuberLoss": _loss(nn.HuberLoss, delta=0.5),
    "Identity": Row(lambda **kw: nn.Identity()),
    "InstanceNorm1d": Row(lambda **kw: nn.InstanceNorm1d(3, affine=True, track_running_stats=True, **kw),
                          _x(2, 3, 5)),
    "InstanceNorm2d": Row(lambda **kw: nn.InstanceNorm2d(3, affine=True, **kw), _x(2, 3, 4, 4)),
    "InstanceNorm3d": Row(lambda **kw: nn.InstanceNorm3d(3, affine=True, **kw), _x(2, 3, 3, 4, 3)),
    "KLDivLoss": _loss(nn.KLDivLoss, lambda: [_log_probs(4, 3), _probs(4, 3)], reduction="batchmean"),
    "L1Loss": _loss(nn.L1Loss),
    "LSTM": Row(lambda **kw: nn.LSTM(3, 4, num_layers=2, bidirectional=True, **kw), _x(5, 2, 3)),
    "LSTMCell": Row(lambda **kw: nn.LSTMCell(3, 4, **kw), _x(2, 3)),
    "LayerNorm": Row(lambda **kw: nn.LayerNorm(4, **kw), _x(2, 3, 4)),
    "Linear": Row(lambda **kw: nn.Linear(3, 5, **kw), _x(2, 4, 3)),
    "LazyLinear": Row(lambda **kw: nn.LazyLinear(5, **kw), _x(2, 4, 3)),  # made where its empty weight is
    # the Lazy layers of channels, made at their first input as the rows of their layers
    "LazyConv1d": Row(lambda **kw: nn.LazyConv1d(4, 3, **kw), _x(2, 3, 6)),
    "LazyConv2d": Row(lambda **kw: nn.LazyConv2d(4, 3, padding=1, **kw), _x(2, 3, 5, 5)),
    "LazyConv3d": Row(lambda **kw: nn.LazyConv3d(4, 3, padding=1, **kw), _x(2, 3, 4, 5, 4)),
    "LazyConvTranspose1d": Row(lambda **kw: nn.LazyConvTranspose1d(4, 3, stride=2, **kw), _x(2, 3, 5)),
    "LazyConvTranspose2d": Row(lambda **kw: nn.LazyConvTranspose2d(4, 3, stride=2, **kw), _x(2, 3, 3, 3)),
    "LazyConvTranspose3d": Row(lambda **kw: nn.LazyConvTranspose3d(4, 2, stride=2, **kw), _x(2, 3, 2, 3, 2)),
    "LazyBatchNorm1d": Row(lambda **kw: nn.LazyBatchNorm1d(**kw), _x(4, 3)),
    "LazyBatchNorm2d": Row(lambda **kw: nn.LazyBatchNorm2d(momentum=None, **kw), _x(2, 3, 4, 4)),
    "LazyBatchNorm3d": Row(lambda **kw: nn.LazyBatchNorm3d(**kw), _x(2, 3, 2, 2, 2)),
    "LazyInstanceNorm1d": Row(lambda **kw: nn.LazyInstanceNorm1d(affine=True, track_running_stats=True, **kw),
                              _x(2, 3, 5)),
    "LazyInstanceNorm2d": Row(lambda **kw: nn.LazyInstanceNorm2d(affine=True, **kw), _x(2, 3, 4, 4)),
    "LazyInstanceNorm3d": Row(lambda **kw: nn.LazyInstanceNorm3d(affine=True, **kw), _x(2, 3, 3, 4, 3)),
    "LeakyReLU": Row(lambda **kw: nn.LeakyReLU(0.1)),
    "LocalResponseNorm": Row(lambda **kw: nn.LocalResponseNorm(2), _x(2, 4, 3, 3)),
    "LogSigmoid": Row(lambda **kw: nn.LogSigmoid()),
    "LogSoftmax": Row(lambda **kw: nn.LogSoftmax(dim=1)),
    "MSELoss": _loss(nn.MSELoss),
    "MaxPool1d": Row(lambda **kw: nn.MaxPool1d(2), _x(2, 3, 6)),
    "MaxPool2d": Row(lambda **kw: nn.MaxPool2d(2, return_indices=True), _x(2, 3, 4, 4)),
    "MaxPool3d": Row(lambda **kw: nn.MaxPool3d(2, return_indices=True), _x(2, 3, 4, 5, 4)),
    "Mish": Row(lambda **kw: nn.Mish()),
    "Module": Row(lambda **kw: nn.Module(), forward=False),
    "ModuleDict": Row(lambda **kw: nn.ModuleDict({"a": nn.Linear(3, 2, **kw)}), forward=False),
    "ModuleList": Row(lambda **kw: nn.ModuleList([nn.Linear(3, 2, **kw)]), forward=False),
    "MultiheadAttention": Row(lambda **kw: nn.MultiheadAttention(8, 2, **kw),
                              lambda: [_randn(3, 2, 8), _randn(4, 2, 8, seed=1), _randn(4, 2, 8, seed=2),
                                       np.array([[False, False, True, False], [False, False, False, True]])]),
    "NLLLoss": _loss(nn.NLLLoss, lambda: [_log_probs(4, 5), _ints(5, 4)]),
    "PReLU": Row(lambda **kw: nn.PReLU(3, **kw)),
    "ParameterDict": Row(lambda **kw: nn.ParameterDict({"w": nn.Parameter(mf.ones(2, **kw))}), forward=False),
    "ParameterList": Row(lambda **kw: nn.ParameterList([mf.ones(2, **kw)]), forward=False),
    "RMSNorm": Row(lambda **kw: nn.RMSNorm(4, eps=1e-6, **kw), _x(2, 4)),
    "RNN": Row(lambda **kw: nn.RNN(3, 4, nonlinearity="relu", batch_first=True, **kw), _x(2, 5, 3)),
    "RNNCell": Row(lambda **kw: nn.RNNCell(3, 4, **kw), _x(2, 3)),
    "ReLU": Row(lambda **kw: nn.ReLU()),
    "ReLU6": Row(lambda **kw: nn.ReLU6()),
    "SELU": Row(lambda **kw: nn.SELU()),
    "Sequential": Row(lambda **kw: nn.Sequential(nn.Linear(3, 5, **kw), nn.ReLU(), nn.Linear(5, 2, **kw))),
    "SiLU": Row(lambda **kw: nn.SiLU()),
    "Sigmoid": Row(lambda **kw: nn.Sigmoid()),
    "SmoothL1Loss": _loss(nn.SmoothL1Loss, beta=0.5),
    "Softmax": Row(lambda **kw: nn.Softmax(dim=1)),
    "Softmax2d": Row(lambda **kw: nn.Softmax2d(), _x(2, 3, 2, 2)),
    "Softmin": Row(lambda **kw: nn.Softmin(dim=1)),
    "Softplus": Row(lambda **kw: nn.Softplus()),
    "Softsign": Row(lambda **kw: nn.Softsign()),
    "SyncBatchNorm": Row(lambda **kw: nn.SyncBatchNorm(3, **kw), _x(4, 3)),
    "Tanh": Row(lambda **kw: nn.Tanh()),
    "Tanhshrink": Row(lambda **kw: nn.Tanhshrink()),
    "Threshold": Row(lambda **kw: nn.Threshold(0.1, 20.0)),
    "Transformer": Row(lambda **kw: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, **kw),
                       lambda: [_randn(3, 2, 8), _randn(4, 2, 8, seed=1)]),
    "TransformerDecoder": Row(lambda **kw: nn.TransformerDecoder(
        nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, **kw), 2, nn.LayerNorm(8, **kw)),
        lambda: [_randn(4, 2, 8), _randn(3, 2, 8, seed=1)]),
    "TransformerDecoderLayer": Row(lambda **kw: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True,
                                                                           **kw),
                                   lambda: [_randn(4, 2, 8), _randn(3, 2, 8, seed=1),
                                            nn.Transformer.generate_square_subsequent_mask(4).numpy()]),
    "TransformerEncoder": Row(lambda **kw: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, **kw), 2),
        lambda: [_randn(2, 3, 8), nn.Transformer.generate_square_subsequent_mask(3).numpy()]),
    "TransformerEncoderLayer": Row(lambda **kw: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, bias=False, **kw),
                                   lambda: [_randn(3, 2, 8)]),
    "Unflatten": Row(lambda **kw: nn.Unflatten(1, (2, 2)), _x(3, 4)),
    "Upsample": Row(lambda **kw: nn.Upsample(scale_factor=2), _x(2, 3, 2, 2)),
    "EmbeddingBag": Row(lambda **kw: nn.EmbeddingBag(10, 3, mode="max", padding_idx=1, **kw),
                        lambda: [_ints(10, 2, 4)]),
    "AdaptiveLogSoftmaxWithLoss": Row(lambda **kw: nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0, **kw),
                                      lambda: [_randn(5, 6), _ints(10, 5)]),
    "RReLU": Row(lambda **kw: nn.RReLU()),
    "AlphaDropout": Row(lambda **kw: nn.AlphaDropout(0.5)),
    "FeatureAlphaDropout": Row(lambda **kw: nn.FeatureAlphaDropout(0.5), _x(2, 3, 4)),
    "LPPool1d": Row(lambda **kw: nn.LPPool1d(2, 2), lambda: [_randn(2, 3, 6, low=0.1, high=1)]),
    "LPPool2d": Row(lambda **kw: nn.LPPool2d(3, 2), lambda: [_randn(2, 3, 4, 4, low=0.1, high=1)]),
    "MaxUnpool1d": Row(lambda **kw: nn.MaxUnpool1d(2),
                       lambda: [_randn(2, 3, 3), np.broadcast_to(np.array([1, 2, 5]), (2, 3, 3)).copy()]),
    "MaxUnpool2d": Row(lambda **kw: nn.MaxUnpool2d(2),
                       lambda: [_randn(2, 3, 2, 2), np.broadcast_to(np.array([[0, 3], [9, 14]]), (2, 3, 2, 2)).copy()]),
    "FractionalMaxPool2d": Row(lambda **kw: nn.FractionalMaxPool2d(
        2, output_size=(3, 2), _random_samples=mf.tensor(np.linspace(0.1, 0.9, 12).reshape(2, 3, 2), dtype=mf.float32)),
        _x(2, 3, 5, 4)),
    "CircularPad1d": Row(lambda **kw: nn.CircularPad1d((1, 2)), _x(2, 3, 4)),
    "CircularPad2d": Row(lambda **kw: nn.CircularPad2d(1), _x(2, 3, 4, 4)),
    "CircularPad3d": Row(lambda **kw: nn.CircularPad3d(1), _x(2, 3, 2, 2, 2)),
    # issue 37's first round
    "AdaptiveAvgPool1d": Row(lambda **kw: nn.AdaptiveAvgPool1d(2), _x(2, 3, 6)),
    "AdaptiveMaxPool1d": Row(lambda **kw: nn.AdaptiveMaxPool1d(2), _x(2, 3, 6)),
    "Bilinear": Row(lambda **kw: nn.Bilinear(3, 4, 5, **kw), lambda: [_randn(4, 3), _randn(4, 4, seed=1)]),
    "CTCLoss": _loss(nn.CTCLoss, lambda: [_log_probs(6, 2, 4), np.array([[1, 2], [3, 1]]), np.array([6, 5]),
                                          np.array([2, 1])]),
    "ChannelShuffle": Row(lambda **kw: nn.ChannelShuffle(2), _x(2, 4, 3, 3)),
    "CosineEmbeddingLoss": _loss(nn.CosineEmbeddingLoss, lambda: [_randn(4, 3), _randn(4, 3, seed=1), _signs(4)]),
    "Fold": Row(lambda **kw: nn.Fold((4, 5), 2), _x(2, 12, 12)),
    "GaussianNLLLoss": _loss(nn.GaussianNLLLoss, lambda: [_randn(4, 3), _randn(4, 3, seed=1),
                                                          _randn(4, 3, low=0.5, high=1)]),
    "Hardshrink": Row(lambda **kw: nn.Hardshrink()),
    "HingeEmbeddingLoss": _loss(nn.HingeEmbeddingLoss, lambda: [_randn(4, 3), _signs(4, 3)]),
    "MarginRankingLoss": _loss(nn.MarginRankingLoss, lambda: [_randn(4), _randn(4, seed=1), _signs(4)]),
    "MultiLabelMarginLoss": _loss(nn.MultiLabelMarginLoss, lambda: [_randn(4, 3), np.array(
        [[0, 2, -1], [1, -1, 0], [2, 1, 0], [0, -1, 1]])]),
    "MultiLabelSoftMarginLoss": _loss(nn.MultiLabelSoftMarginLoss, lambda: [_randn(4, 3), (_signs(4, 3) + 1) / 2]),
    "MultiMarginLoss": _loss(nn.MultiMarginLoss, lambda: [_randn(4, 5), _ints(5, 4)]),
    "PairwiseDistance": Row(lambda **kw: nn.PairwiseDistance(), lambda: [_randn(4, 3), _randn(4, 3, seed=1)]),
    "PixelShuffle": Row(lambda **kw: nn.PixelShuffle(2), _x(2, 8, 2, 2)),
    "PixelUnshuffle": Row(lambda **kw: nn.PixelUnshuffle(2), _x(2, 3, 4, 4)),
    "PoissonNLLLoss": _loss(nn.PoissonNLLLoss, lambda: [_randn(4, 3), _randn(4, 3, low=0, high=3)]),
    "SoftMarginLoss": _loss(nn.SoftMarginLoss, lambda: [_randn(4, 3), _signs(4, 3)]),
    "Softshrink": Row(lambda **kw: nn.Softshrink()),
    "TripletMarginLoss": _loss(nn.TripletMarginLoss, lambda: [_randn(4, 3), _randn(4, 3, seed=1),
                                                              _randn(4, 3, seed=2)]),
    "TripletMarginWithDistanceLoss": _loss(nn.TripletMarginWithDistanceLoss, lambda: [
        _randn(4, 3), _randn(4, 3, seed=1), _randn(4, 3, seed=2)]),
    "Unfold": Row(lambda **kw: nn.Unfold(2), _x(2, 3, 4, 4)),
    "UpsamplingBilinear2d": Row(lambda **kw: nn.UpsamplingBilinear2d(scale_factor=2), _x(2, 3, 2, 2)),
    "UpsamplingNearest2d": Row(lambda **kw: nn.UpsamplingNearest2d(scale_factor=2), _x(2, 3, 2, 2)),
    **{f"{kind}Pad{d}d": Row(_pad_row(getattr(nn, f"{kind}Pad{d}d"), kind), _x(*(2, 3, 4, 4, 4)[:d + 2]))
       for kind in ("Zero", "Constant", "Reflection", "Replication") for d in (1, 2, 3)},
}


# Base classes torch exports for isinstance checks, which no program builds.
_BASES = {"RNNBase", "RNNCellBase"}


def _module_classes():
    return sorted(name for name, value in vars(nn).items()
                  if inspect.isclass(value) and issubclass(value, nn.Module) and name not in _BASES)


def test_every_module_has_a_row():
    missing = [name for name in _module_classes() if name not in ZOO]
    assert not missing, (f"meshflow.nn's {missing} have no row in ZOO (tests/python/test_module_zoo.py): add one "
                         "(a constructor taking **kw, the factory kwargs, and its inputs)")
    assert not set(ZOO) - set(_module_classes()), "ZOO names a class meshflow.nn does not have"


def _flat(value):
    if isinstance(value, mf.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _flat(v)]
    return []


def _run(row, device, dtype, moved):
    """The module built on `device` in `dtype` (moved: built on the CPU, then module.to),
    its inputs, outputs, and after backward of a weighted sum of the outputs, its gradients."""
    mf.manual_seed(0)
    module = row.make() if moved else row.make(device=device, dtype=dtype)
    if moved:
        module.to(device, dtype)
    inputs = []
    for i, array in enumerate(row.inputs()):
        t = mf.tensor(array).to(device)
        if t.is_floating_point():
            t = t.to(dtype)
            if row.grads is None or i in row.grads:
                t.requires_grad_(True)
        inputs.append(t)
    if not row.forward:
        return module, inputs, []
    mf.manual_seed(1)  # dropout's draws
    outputs = _flat(module(*inputs))
    loss = None
    for out in outputs:
        if out.requires_grad:
            weight = mf.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape))).to(device, out.dtype)
            term = (out * weight).sum()
            loss = term if loss is None else loss + term
    if loss is not None:
        loss.backward()
    return module, inputs, outputs


def _tensors(module, inputs, outputs):
    """name -> tensor of everything the comparison covers."""
    named = {f"param {n}": p for n, p in module.named_parameters()}
    named.update({f"grad {n}": p.grad for n, p in module.named_parameters() if p.grad is not None})
    named.update({f"buffer {n}": b for n, b in module.named_buffers()})
    named.update({f"input {i}": t for i, t in enumerate(inputs)})
    named.update({f"grad input {i}": t.grad for i, t in enumerate(inputs) if t.grad is not None})
    named.update({f"output {i}": t for i, t in enumerate(outputs)})
    return named


def check_against_cpu(name, device, dtype, moved, tolerance=None):
    """ZOO[name] on `device` against the CPU: everything there, in `dtype` where floating,
    equal bit for bit (tolerance None) or within `tolerance` (assert_allclose's keywords)."""
    row, device = ZOO[name], mf.device(device)
    on_cpu = _tensors(*_run(row, mf.device("cpu"), dtype, moved))
    on_device = _tensors(*_run(row, device, dtype, moved))
    assert on_cpu.keys() == on_device.keys()
    for key, t in on_device.items():
        assert t.device == device, f"{name}: {key} is on {t.device}, expected {device}"
        expected = on_cpu[key]
        assert t.dtype == expected.dtype and tuple(t.shape) == tuple(expected.shape), key
        if key.startswith(("param", "buffer", "grad", "output")) and t.is_floating_point():
            assert t.dtype == dtype, f"{name}: {key} is {t.dtype}, expected {dtype}"
        if tolerance is None or not t.is_floating_point():
            assert np.array_equal(t.numpy(), expected.numpy(), equal_nan=True), f"{name}: {key} differs from the CPU's"
        else:
            np.testing.assert_allclose(t.numpy(), expected.numpy(), err_msg=f"{name}: {key}", **tolerance)
    if row.forward:
        assert any(key.startswith("output") for key in on_cpu), name
    if any(key.startswith("output") and on_cpu[key].requires_grad for key in on_cpu):
        assert any(key.startswith("grad") for key in on_cpu), f"{name}: no gradient reached the inputs or parameters"


@pytest.mark.parametrize("moved", [False, True], ids=["device=", "to"])
@pytest.mark.parametrize("dtype", [mf.float32, mf.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(ZOO))
def test_module_on_the_test_device_is_the_cpus(name, dtype, moved):
    check_against_cpu(name, TESTDEV, dtype, moved)  # the test device runs the CPU's kernels: bit for bit


def test_integer_buffers_keep_their_dtype():
    """torch's rule: dtype= makes the floating parameters and buffers; a count stays int64."""
    bn = nn.BatchNorm1d(3, device="testdev", dtype=mf.float64)
    assert bn.num_batches_tracked.dtype == mf.int64 and bn.num_batches_tracked.device == TESTDEV
    assert bn.running_mean.dtype == mf.float64 and bn.weight.dtype == mf.float64


@pytest.mark.parametrize("name", _module_classes())
def test_device_and_dtype_come_together(name):
    """A constructor that takes device= takes dtype= too (torch's factory kwargs)."""
    parameters = inspect.signature(getattr(nn, name)).parameters
    assert ("device" in parameters) == ("dtype" in parameters), name


def test_a_module_with_state_takes_the_factory_kwargs():
    """Every module whose default construction makes parameters or buffers takes device=
    (containers and the stacks of layers, whose parts take it, excepted as in torch)."""
    composite = {"DataParallel", "ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential", "TransformerDecoder",
                 "TransformerEncoder"}
    for name, row in ZOO.items():
        module = row.make()
        stateful = any(True for _ in module.parameters()) or any(True for _ in module.named_buffers())
        if stateful and name not in composite:
            assert "device" in inspect.signature(getattr(nn, name)).parameters, name


def test_creation_ops_take_a_device():
    x = mf.randn(2, 3).to(TESTDEV)
    made = [mf.zeros(2, device=TESTDEV), mf.ones(2, device="testdev"), mf.full((2,), 1.5, device=TESTDEV),
            mf.arange(3, device=TESTDEV), mf.eye(2, device=TESTDEV), mf.randn(2, device=TESTDEV),
            mf.rand(2, device=TESTDEV), mf.empty(2, device=TESTDEV), mf.linspace(0, 1, 3, device=TESTDEV),
            mf.zeros_like(x), mf.ones_like(x), mf.full_like(x, 2.0), mf.rand_like(x), mf.randn_like(x),
            mf.empty_like(x), mf.zeros_like(mf.ones(2), device=TESTDEV), x.new_zeros(2), x.new_ones(2)]
    for t in made:
        assert t.device == TESTDEV
    mf.manual_seed(3)
    a = mf.randn(4, device=TESTDEV)
    mf.manual_seed(3)
    assert np.array_equal(a.numpy(), mf.randn(4).numpy())  # the same draw on every device
    assert mf.zeros_like(x, device="cpu").device == mf.device("cpu")


def _clipped(x):
    """clip_grad_norm_'s norm and the clipped gradient of a parameter made from x."""
    p = nn.Parameter(x)
    (p * p).sum().backward()
    return nn.utils.clip_grad_norm_([p], 1.0), p.grad


@pytest.mark.parametrize("op", [
    lambda x, i: mf.unique(i, return_inverse=True, return_counts=True),
    lambda x, i: mf.bincount(i),
    lambda x, i: mf.bincount(i, weights=x),
    lambda x, i: mf.nonzero(i),
    lambda x, i: mf.histc(x, 4),
    lambda x, i: mf.where(x > 0),
    lambda x, i: mf.isin(i, [1, 2]),
    lambda x, i: mf.argsort(x),
    lambda x, i: mf.topk(x, 2),
    lambda x, i: x[x > 0],
    lambda x, i: _clipped(x),
], ids=["unique", "bincount", "bincount_weights", "nonzero", "histc", "where", "isin", "argsort", "topk", "mask",
        "clip_grad_norm"])
def test_results_are_made_on_the_inputs_device(op):
    x, i = np.array([0.5, -1.0, 2.0, 0.25]), np.array([1, 0, 2, 2])
    on_cpu = _flat(op(mf.tensor(x), mf.tensor(i)))
    on_testdev = _flat(op(mf.tensor(x).to(TESTDEV), mf.tensor(i).to(TESTDEV)))
    for a, b in zip(on_cpu, on_testdev, strict=True):
        assert b.device == TESTDEV
        assert a.dtype == b.dtype and np.array_equal(a.numpy(), b.numpy())


def test_tensor_of_a_tensor_stays_on_its_device():
    """torch.tensor(t) copies t where it is; device= still chooses."""
    x = mf.arange(3.0, device=TESTDEV)
    assert mf.tensor(x).device == TESTDEV and mf.tensor(x, device="cpu").device == mf.device("cpu")
    assert np.array_equal(mf.tensor(x).numpy(), [0.0, 1.0, 2.0])


_DISTRIBUTIONS = {
    "Normal": lambda a, b: D.Normal(a, 1.5), "Uniform": lambda a, b: D.Uniform(a - 1, 2.0),
    "Laplace": lambda a, b: D.Laplace(0.0, b), "Exponential": lambda a, b: D.Exponential(b),
    "LogNormal": lambda a, b: D.LogNormal(a, b), "Bernoulli": lambda a, b: D.Bernoulli(b / 2),
    "Cauchy": lambda a, b: D.Cauchy(a, 0.5), "StudentT": lambda a, b: D.StudentT(3.0, a, b),
    "Geometric": lambda a, b: D.Geometric(b / 2), "Gamma": lambda a, b: D.Gamma(b, 2.0),
    "Beta": lambda a, b: D.Beta(b, 1.0), "Poisson": lambda a, b: D.Poisson(b),
    "Categorical": lambda a, b: D.Categorical(logits=a), "Binomial": lambda a, b: D.Binomial(4, probs=b / 2),
    "RelaxedBernoulli": lambda a, b: D.RelaxedBernoulli(0.5, probs=b / 2),
    "RelaxedOneHotCategorical": lambda a, b: D.RelaxedOneHotCategorical(0.5, logits=a),
}


@pytest.mark.parametrize("name", sorted(_DISTRIBUTIONS))
def test_distributions_sample_and_score_where_their_parameters_are(name):
    """A distribution of test-device parameters (numbers among them) samples and scores on the
    test device, equal to the CPU's."""
    def run(device):
        a, b = (mf.tensor(v).to(device) for v in ([-0.5, 0.25, 1.0], [0.3, 0.9, 1.7]))
        mf.manual_seed(4)
        d = _DISTRIBUTIONS[name](a, b)
        s = d.sample((2,))
        return s, d.log_prob(s)
    for a, b in zip(run(mf.device("cpu")), run(TESTDEV), strict=True):
        assert b.device == TESTDEV, name
        assert a.dtype == b.dtype and np.array_equal(a.numpy(), b.numpy()), name
