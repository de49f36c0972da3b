import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3)), scale=0.4)
x = data(16, 5); y = ints(3, 16)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
accum = 4
losses = []
opt.zero_grad()
for i, (xb, yb) in enumerate(zip(x.split(4), y.split(4))):
    loss = nn.functional.cross_entropy(model(xb), yb) / accum
    loss.backward()
    losses.append(loss.item())
    if (i + 1) % accum == 0:
        gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, error_if_nonfinite=True)
        opt.step(); opt.zero_grad()
none = [p.grad is None for p in model.parameters()]
critic = det(nn.Linear(5, 1), seed=3)
copt = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
for _ in range(3):
    copt.zero_grad(); (-critic(x).mean() + critic(x * 0.5).mean()).backward(); copt.step()
    for p in critic.parameters():
        p.data.clamp_(-0.01, 0.01)
model.eval()
with torch.no_grad():
    pred = model(x).argmax(1)
cm = torch.bincount(y * 3 + pred, minlength=9).reshape(3, 3)
tp = cm.diag().float()
precision = tp / cm.sum(0).clamp(min=1); recall = tp / cm.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall + 1e-8)
top2 = (model(x).topk(2, dim=1).indices == y.unsqueeze(1)).any(1).float().mean()
report(losses=losses, gn=gn, none=none, cw=critic.weight, cm=cm, precision=precision, recall=recall, f1=f1, macro=f1.mean().item(), top2=top2)
