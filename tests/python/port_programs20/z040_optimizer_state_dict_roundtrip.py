import torch
import torch.nn as nn

m = det(nn.Linear(3, 2))
opt = torch.optim.Adam(m.parameters(), lr=0.01, betas=(0.8, 0.99), amsgrad=True)
x = data(4, 3)
for _ in range(2):
    opt.zero_grad()
    m(x).sum().backward()
    opt.step()
sd = opt.state_dict()
state_keys = sorted(sd["state"][0].keys())
pg = {k: v for k, v in sd["param_groups"][0].items() if k in ("lr", "betas", "eps", "weight_decay", "amsgrad", "params")}
m2 = det(nn.Linear(3, 2))
m2.load_state_dict(m.state_dict())
opt2 = torch.optim.Adam(m2.parameters(), lr=0.5)
torch.save(sd, "opt.pt")
opt2.load_state_dict(torch.load("opt.pt"))
for o, mm in [(opt, m), (opt2, m2)]:
    o.zero_grad()
    mm(x).sum().backward()
    o.step()
opt2.param_groups[0]["lr"] = 0.02
report(state_keys=state_keys, pg=pg, step=opt.state_dict()["state"][0]["step"], eq=torch.equal(m.weight, m2.weight), lr=opt2.state_dict()["param_groups"][0]["lr"],
       mx=opt.state[m.weight]["max_exp_avg_sq"], nstate=len(sd["state"]))
