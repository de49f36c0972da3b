import torch
msgs = []
for f in (lambda: bool(torch.tensor([1, 2])), lambda: float(torch.tensor([1.0, 2.0])), lambda: torch.tensor([1.0, 2.0]).item(), lambda: int(torch.zeros(0))):
    try:
        f()
        msgs.append("ok")
    except (RuntimeError, ValueError) as e:
        msgs.append([isinstance(e, RuntimeError), isinstance(e, ValueError) and not isinstance(e, RuntimeError)])
report(msgs=msgs, one=bool(torch.tensor([[0]])), onef=float(torch.tensor([[2.5]])), idx_err=[1, 2, 3][torch.tensor([2])] if False else 0)
