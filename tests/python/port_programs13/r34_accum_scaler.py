import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 3)))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
scaler = torch.cuda.amp.GradScaler(enabled=torch.cuda.is_available())
scaler2 = torch.amp.GradScaler("cpu", enabled=False)
accum = 4
X, Y = data(16, 6), ints(3, 16)
crit = nn.CrossEntropyLoss()
losses = []
opt.zero_grad(set_to_none=True)
for i, (xb, yb) in enumerate(zip(X.split(2), Y.split(2))):
    with torch.autocast(device_type="cpu", enabled=False):
        loss = crit(model(xb), yb) / accum
    scaler.scale(loss).backward()
    if (i + 1) % accum == 0:
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item() * accum)
full = det(nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 3)))
crit(full(X[:8]), Y[:8]).backward()
acc = det(nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 3)))
for xb, yb in zip(X[:8].split(2), Y[:8].split(2)):
    (crit(acc(xb), yb) / 4).backward()
report(losses=losses, w=model[2].weight[0], same=torch.allclose(full[0].weight.grad, acc[0].weight.grad, atol=1e-6),
       scale=scaler.get_scale(), en=scaler.is_enabled(), grad=model[0].weight.grad, en2=scaler2.is_enabled())
