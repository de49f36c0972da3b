import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)))
cm = torch.compile(m)
opt = torch.optim.SGD(cm.parameters(), lr=0.1)
x = data(4, 2)
cm(x).sum().backward()
opt.step()
sd = cm.state_dict()
unwanted_prefix = "_orig_mod."
for k in list(sd.keys()):
    if k.startswith(unwanted_prefix):
        sd[k[len(unwanted_prefix):]] = sd.pop(k)
fresh = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
res = fresh.load_state_dict(sd)
handles = []
hook_out = []
handles.append(cm.register_forward_hook(lambda mod, i, o: hook_out.append(o.shape)))
cm(x)
report(keys=list(sd.keys()), res=str(res), same=torch.equal(fresh(x), m(x)), hook=[list(s) for s in hook_out])
