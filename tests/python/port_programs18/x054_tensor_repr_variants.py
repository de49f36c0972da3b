import torch

vals = [torch.tensor([1.5, -2.25, 3.0]), torch.tensor([[1, 2], [3, 4]]), torch.tensor([1e-8, 1.0]),
        torch.tensor([123456.0, 0.5]), torch.tensor(3.14159), torch.tensor([True, False]), torch.zeros(2, 0),
        torch.tensor([1.0, float("nan"), float("inf")]), torch.arange(6, dtype=torch.float64).view(2, 3) / 7,
        torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([0.1, 0.2], dtype=torch.float16),
        torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([[1e10, 1.0]]), torch.tensor([2.0]) * torch.tensor([3.0], requires_grad=True)]
report(reprs=[repr(v) for v in vals], strs=[str(v) for v in vals[:3]], item=[f"{vals[4].item():.3f}", vals[1].tolist()])
