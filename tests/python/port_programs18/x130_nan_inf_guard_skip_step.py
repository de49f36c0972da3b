import torch
import torch.nn as nn

m = det(nn.Linear(2, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
batches = [data(2, 2, seed=1), torch.tensor([[float("nan"), 1.0], [0.0, 1.0]]), data(2, 2, seed=3)]
skipped = []
for i, xb in enumerate(batches):
    loss = m(xb).pow(2).mean()
    if not torch.isfinite(loss):
        skipped.append(i)
        continue
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
    opt.step()
x = torch.tensor([1.0, float("inf"), float("nan"), -float("inf")])
report(skipped=skipped, w=m.weight, nan_to_num=torch.nan_to_num(x, nan=0.0, posinf=1e4, neginf=-1e4),
       isnan=x.isnan(), isinf=x.isinf(), isfinite=x.isfinite(), anynan=x.isnan().any().item())
