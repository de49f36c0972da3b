import torch
import torch.nn as nn
import torch.nn.functional as F

model = det(nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = data(16, 6), ints(3, 16)
losses = []
for _ in range(3):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.float().item())
with torch.autocast("cpu", dtype=torch.bfloat16), torch.no_grad():
    out = model(x)
report(losses=losses, out_dtype=out.dtype, loss_dtype=loss.dtype, logits_dtype=logits.dtype, grad_dtype=model[0].weight.grad.dtype,
       out=out[:2].float(), w=model[3].weight[0].detach())
