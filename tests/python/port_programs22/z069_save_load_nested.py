import collections
import torch
import torch.nn as nn

model = det(nn.Linear(3, 2), seed=84)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
model(data(2, 3, seed=85)).sum().backward()
opt.step()
shared = torch.arange(6.)
ckpt = {
    "epoch": 3, "model": model.state_dict(), "optim": opt.state_dict(),
    "nested": {"list": [torch.ones(2), (torch.zeros(1, dtype=torch.int64), "tag")], "od": collections.OrderedDict(a=torch.tensor(1.5))},
    "views": [shared, shared[2:4]], "none": None, "bf16": torch.tensor([1.5, 2.25], dtype=torch.bfloat16), "bool": torch.tensor([True, False]),
}
torch.save(ckpt, "ckpt.pt")
back = torch.load("ckpt.pt")
m2 = nn.Linear(3, 2)
res = m2.load_state_dict(back["model"])
opt2 = torch.optim.Adam(m2.parameters(), lr=1e-3)
opt2.load_state_dict(back["optim"])
report(epoch=back["epoch"], keys=sorted(back), w=m2.weight, missing=list(res.missing_keys), list_types=[type(v).__name__ for v in back["nested"]["list"]],
       tup=back["nested"]["list"][1], od_type=type(back["nested"]["od"]).__name__, od=back["nested"]["od"]["a"],
       view=back["views"][1], bf16=back["bf16"], bool=back["bool"], step=opt2.state_dict()["state"][0]["step"], none=back["none"],
       exp_avg=opt2.state[m2.weight]["exp_avg"])
