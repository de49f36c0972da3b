# The program also wrote into the loaded base of a saved view and read the loaded view: meshflow
# loads tensors saved together as tensors of their own (docs/porting.md, "What differs").
import io
import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)))
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
m2 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
m2.load_state_dict(sd)
x = data(3, 2)
torch.save({"t": torch.arange(4), "nested": [torch.ones(2), {"h": torch.tensor(1.5, dtype=torch.float16)}], "meta": {"ver": 2, "name": "run"}}, "misc.pt")
misc = torch.load("misc.pt", weights_only=True)
torch.save(m, "whole.pt")
whole = torch.load("whole.pt", weights_only=False)
view = torch.arange(10.0)
torch.save([view[2:5], view], "views.pt")
v1, v2 = torch.load("views.pt")
half_sd = {k: v.half() for k, v in m.state_dict().items()}
m3 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
m3.load_state_dict(half_sd)
report(same=torch.equal(m(x), m2(x)), t=misc["t"], nested=misc["nested"], meta=misc["meta"], whole=torch.equal(whole(x), m(x)), v1=v1,
       cls=type(whole).__name__, m3dt=m3[0].weight.dtype, m3=torch.allclose(m3(x), m(x), atol=1e-2))
