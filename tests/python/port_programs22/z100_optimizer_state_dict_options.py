import torch
import torch.nn as nn

model = det(nn.Linear(3, 2), seed=140)
opt = torch.optim.AdamW([{"params": [model.weight], "amsgrad": True}, {"params": [model.bias], "lr": 0.1, "weight_decay": 0}],
                        lr=0.01, weight_decay=0.05)
x = data(5, 3, seed=141)
for _ in range(2):
    opt.zero_grad()
    model(x).pow(2).sum().backward()
    opt.step()
sd = opt.state_dict()
groups = [{k: (list(v) if isinstance(v, tuple) else v) for k, v in g.items() if k in ("lr", "weight_decay", "amsgrad", "betas", "eps", "params")} for g in sd["param_groups"]]
opt2 = torch.optim.AdamW([{"params": [model.weight]}, {"params": [model.bias]}], lr=0.5)
opt2.load_state_dict(sd)
rms = torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9, momentum=0.5, centered=True)
model(x).sum().backward()
rms.step()
report(groups=groups, state_keys=sorted(sd["state"][0]), state1_keys=sorted(sd["state"][1]), max_sq=sd["state"][0]["max_exp_avg_sq"],
       lr2=[g["lr"] for g in opt2.param_groups], amsgrad2=[g["amsgrad"] for g in opt2.param_groups], rms_keys=sorted(rms.state[model.weight]),
       rms_w=model.weight, step_type=type(sd["state"][0]["step"]).__name__)
