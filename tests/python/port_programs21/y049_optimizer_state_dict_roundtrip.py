import io
import torch
import torch.nn as nn

def make():
    m = det(nn.Linear(3, 2), seed=1)
    return m, torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.1)

m, opt = make()
x, y = data(4, 3, seed=2), data(4, 2, seed=3)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    opt.step()
buf = io.BytesIO()
torch.save(opt.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
m2, opt2 = make()
m2.load_state_dict(m.state_dict())
opt2.load_state_dict(sd)
for mm, oo in ((m, opt), (m2, opt2)):
    for _ in range(2):
        oo.zero_grad()
        nn.functional.mse_loss(mm(x), y).backward()
        oo.step()
report(same=torch.equal(m.weight, m2.weight), w=m2.weight.detach(), keys=sorted(sd.keys()), skeys=sorted(sd["state"][0].keys()),
       step=opt2.state_dict()["state"][0]["step"], pg=sorted(k for k in sd["param_groups"][0] if k != "params"),
       params=sd["param_groups"][0]["params"], ea=opt2.state_dict()["state"][1]["exp_avg"], lr=opt2.param_groups[0]["lr"])
