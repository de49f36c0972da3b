import torch
a = torch.tensor([1.0, float("nan"), 1e-9, 100.0])
b = torch.tensor([1.0 + 1e-6, float("nan"), 0.0, 100.1])
report(ic=torch.isclose(a, b), icn=torch.isclose(a, b, equal_nan=True), ac=torch.allclose(a[:1], b[:1]), eq=torch.equal(a, a), eqn=torch.equal(a[2:], a[2:]),
       ict=torch.isclose(a, b, rtol=0, atol=0.2), iint=torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])), ne=torch.equal(torch.tensor([1]), torch.tensor([1.0])))
