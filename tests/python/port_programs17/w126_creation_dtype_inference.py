import torch

r = {
    "mixed": torch.tensor([1, 2.0]), "bools": torch.tensor([True, 1]), "full_i": torch.full((2,), 3), "full_b": torch.full((2,), True),
    "full_f": torch.full((2,), 3.5), "ar_f": torch.arange(0, 1, 0.25), "ar_i": torch.arange(5), "ar_mix": torch.arange(1, 2.5),
    "ls_i": torch.linspace(0, 10, 5, dtype=torch.int64), "ls": torch.linspace(-1, 1, 4), "lg": torch.logspace(0, 2, 3),
    "zl": torch.zeros_like(torch.tensor([1, 2]), dtype=torch.float16), "e": torch.eye(2, 3, dtype=torch.int32),
    "tri": torch.ones(3, 3).triu(1), "sc": torch.scalar_tensor(2), "asnum": torch.as_tensor([1, 2], dtype=torch.float64),
    "ar_len": torch.arange(0.1, 0.45, 0.05), "emp": torch.empty(0, 3).sum(0), "heav": torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)),
}
report(v={k: v for k, v in r.items()}, d={k: v.dtype for k, v in r.items()}, n=len(torch.arange(0.1, 0.45, 0.05)))
