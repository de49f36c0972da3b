import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(2, 3, requires_grad=True)
w = torch.randn(3, 3, requires_grad=True)
names = {}
ops = {
    "add": lambda: x + x, "mul": lambda: x * 2, "div": lambda: x / 3, "neg": lambda: -x, "pow": lambda: x ** 2,
    "exp": lambda: x.exp(), "log": lambda: x.abs().log(), "mm": lambda: x @ w, "relu": lambda: F.relu(x),
    "sigmoid": lambda: torch.sigmoid(x), "tanh": lambda: x.tanh(), "sum": lambda: x.sum(), "mean": lambda: x.mean(),
    "mean_dim": lambda: x.mean(1), "view": lambda: x.view(3, 2), "reshape_copy": lambda: x.t().reshape(6),
    "permute": lambda: x.permute(1, 0), "transpose": lambda: x.transpose(0, 1), "t": lambda: x.t(),
    "cat": lambda: torch.cat([x, x]), "stack": lambda: torch.stack([x, x]), "slice": lambda: x[:, 1:],
    "select": lambda: x[0], "index": lambda: x[[0, 1]], "softmax": lambda: x.softmax(-1),
    "log_softmax": lambda: F.log_softmax(x, -1), "unsqueeze": lambda: x.unsqueeze(0), "expand": lambda: x[:, :1].expand(2, 3),
    "clone": lambda: x.clone(), "max_all": lambda: x.max(), "abs": lambda: x.abs(), "sqrt": lambda: x.abs().sqrt(),
    "gelu": lambda: F.gelu(x), "silu": lambda: F.silu(x), "dropout_eval": lambda: F.dropout(x, 0.5, training=False),
    "where": lambda: torch.where(x > 0, x, 0.0), "masked_fill": lambda: x.masked_fill(x > 0, 0.0),
    "linear": lambda: F.linear(x, w), "mse": lambda: F.mse_loss(x, torch.zeros(2, 3)),
    "ce": lambda: F.cross_entropy(x, torch.tensor([0, 1])), "bce_logits": lambda: F.binary_cross_entropy_with_logits(x, torch.ones(2, 3)),
    "l1": lambda: F.l1_loss(x, torch.zeros(2, 3)), "norm": lambda: x.norm(), "std": lambda: x.std(),
    "cumsum": lambda: x.cumsum(1), "gather": lambda: x.gather(1, torch.tensor([[0], [1]])), "squeeze": lambda: x[:1].squeeze(0),
    "flatten": lambda: x.flatten(), "repeat": lambda: x.repeat(2, 1), "to_double": lambda: x.double(),
    "layer_norm": lambda: F.layer_norm(x, (3,)), "embedding": lambda: F.embedding(torch.tensor([1]), w),
    "clamp": lambda: x.clamp(-1, 1), "rsub": lambda: 1 - x, "mul_tensor": lambda: x * x, "bmm": lambda: torch.bmm(x[None], w[None]),
}
for k, f in ops.items():
    out = f()
    names[k] = type(out.grad_fn).__name__ if out.grad_fn is not None else None
torch.manual_seed(0)
report(**names)
