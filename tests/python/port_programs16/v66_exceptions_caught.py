import torch
import torch.nn as nn
import torch.nn.functional as F

checks = {
    "index_oob": lambda: torch.arange(3)[5],
    "index_tensor_oob": lambda: torch.arange(3)[torch.tensor([0, 7])],
    "shape_mm": lambda: torch.ones(2, 3) @ torch.ones(2, 3),
    "view_bad": lambda: torch.ones(6).view(4, -1),
    "cat_dims": lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]),
    "linear_in": lambda: nn.Linear(3, 2)(torch.ones(4, 5)),
    "ce_target": lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5])),
    "dim_oob": lambda: torch.ones(2, 3).sum(dim=2),
    "backward_twice": lambda: (lambda y: (y.backward(), y.backward()))((torch.ones(2, requires_grad=True) * 2).sum()),
    "grad_nonscalar": lambda: (torch.ones(2, requires_grad=True) * 2).backward(),
    "leaf_inplace": lambda: torch.ones(2, requires_grad=True).add_(1),
    "item_many": lambda: torch.ones(2).item(),
    "embedding_oob": lambda: nn.Embedding(3, 2)(torch.tensor([3])),
    "reshape_bad": lambda: torch.ones(5).reshape(2, 3),
    "stack_diff": lambda: torch.stack([torch.ones(2), torch.ones(3)]),
    "conv_channels": lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)),
    "squeeze_dim": lambda: torch.ones(2, 3).transpose(0, 5),
    "multinomial_neg": lambda: torch.multinomial(torch.tensor([-1.0, 1.0]), 1),
    "bool_ambiguous": lambda: bool(torch.ones(3)),
    "int_float_tensor": lambda: range(torch.tensor(2.5)),
}
kinds = {}
for name, fn in checks.items():
    try:
        result = fn()
        if isinstance(result, torch.Tensor):
            result.tolist()
        kinds[name] = "no error"
    except Exception as e:
        kinds[name] = next(k.__name__ for k in (IndexError, TypeError, RuntimeError, Exception) if isinstance(e, k))
report(kinds=kinds)
