import torch

target = torch.zeros(3)
src = torch.tensor([1.0, 2.0, 3.0])
vals = []
for step in range(5):
    decay = min(0.99, (1 + step) / (10 + step))
    target.lerp_(src, 1 - decay)
    vals.append(target.clone())
h = torch.zeros(3, dtype=torch.float16)
h.lerp_(src.half(), 0.3)
t2 = torch.lerp(torch.zeros(2), torch.ones(2), torch.tensor([0.25, 0.75]))
foreach = [torch.zeros(2), torch.ones(2)]
torch._foreach_mul_(foreach, 0.5)
torch._foreach_add_(foreach, [torch.ones(2), torch.ones(2)], alpha=2.0)
report(vals=vals, h=h, t2=t2, fe=foreach)
