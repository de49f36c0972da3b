import torch

reps = [
    repr(torch.tensor([1.0, 2.5, 3.0])), repr(torch.tensor([[1, 2], [3, 4]])), repr(torch.tensor([1e-5, 1.0])),
    repr(torch.tensor([1e10, 1.0])), repr(torch.tensor(3.14159)), repr(torch.tensor([True, False])),
    repr(torch.zeros(2, 0)), repr(torch.tensor([1.0, 2.0], dtype=torch.float64)), repr(torch.tensor([1, 2], dtype=torch.int32)),
    repr(torch.tensor([0.1, 0.2], requires_grad=True)), repr(torch.tensor([1.5], dtype=torch.float16)),
    repr(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])), str(torch.arange(3.0) * 2),
    repr(torch.tensor([1.0, 2.0], requires_grad=True) * 2), repr(torch.tensor([[0.001, 123.456], [-7.0, 0.0]])),
    f"{torch.tensor(2.5).item():.3f}", f"loss={torch.tensor(0.123456):.4f}" if hasattr(torch.Tensor, "__format__") else "",
    repr(torch.tensor([1 + 2j, 3 - 1j])), repr(torch.tensor([255, 0], dtype=torch.uint8)), repr(torch.tensor([1.0, 2.0], dtype=torch.bfloat16)),
]
report(reps=reps)
