# TOL 2e-2
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1); self.bn = nn.BatchNorm2d(4); self.pool = nn.AdaptiveAvgPool2d(1)
        self.ln = nn.LayerNorm(4); self.fc = nn.Linear(4, 5); self.emb = nn.Embedding(6, 4); self.gru = nn.GRU(4, 4, batch_first=True)
    def forward(self, x, ids):
        h = self.pool(torch.relu(self.bn(self.conv(x)))).flatten(1)
        s, _ = self.gru(self.emb(ids))
        return self.fc(self.ln(h + s[:, -1]))
x = data(2, 3, 5, 5); ids = ints(6, 2, 3)
net = det(Net()).eval()
with torch.no_grad():
    ref = net(x, ids)
    res = {"ref": ref}
    for dt in (torch.bfloat16, torch.float16):
        m = det(Net()).eval().to(dt)
        out = m(x.to(dt), ids)
        res[str(dt).split(".")[-1]] = [out, str(out.dtype), str(m.fc.weight.dtype), str(m.bn.running_mean.dtype)]
    h = det(Net()).eval().half()
    res["half"] = [str(h(x.half(), ids).dtype), h(x.half(), ids).float().softmax(-1)]
m = det(Net())
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False) if hasattr(torch, "amp") else None
losses, dts = [], []
for step in range(3):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = m(x, ids)
        lin = m.fc(torch.ones(1, 4))
        mm = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
        sm = torch.softmax(out, dim=-1)
        loss = nn.functional.cross_entropy(out, torch.tensor([1, 3]))
    dts.append([str(out.dtype), str(lin.dtype), str(mm.dtype), str(loss.dtype), str(sm.dtype)])
    scaler.scale(loss).backward(); scaler.step(opt); scaler.update(); losses.append(loss.item())
with torch.autocast("cpu", enabled=False):
    plain = torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype
with torch.cpu.amp.autocast(dtype=torch.bfloat16):
    old = torch.matmul(torch.ones(2, 2), torch.ones(2, 2)).dtype
sc = torch.amp.GradScaler("cpu", init_scale=2.0 ** 4)
p = torch.nn.Parameter(torch.ones(3)); o = torch.optim.SGD([p], lr=0.1)
l = (p * 2).sum(); sc.scale(l).backward()
gscaled = p.grad.clone()
sc.unscale_(o); gun = p.grad.clone()
sc.step(o); sc.update()
report(**res, losses=losses, dts=dts, plain=str(plain), old=str(old), scale=sc.get_scale(), gscaled=gscaled, gun=gun, p=p, en=scaler.is_enabled())
