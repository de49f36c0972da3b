import copy
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(3, 3)
        self.b = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.b(self.a(x))


m = det(Net())
c = copy.deepcopy(m)
with torch.no_grad():
    c.a.weight.add_(1)
torch.save(m, "model.pt")
m2 = torch.load("model.pt", weights_only=False)
x = data(4, 3)
m.eval(); m2.eval()
torch.save({"w": m.a.weight, "list": [torch.tensor(1), 2.5], "nested": {"t": torch.arange(3)}}, "misc.pt")
misc = torch.load("misc.pt")
import io
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, map_location="cpu", weights_only=True)
report(diff=(c.a.weight - m.a.weight).mean(), same=torch.equal(m(x), m2(x)), type=type(m2).__name__, misc_list=misc["list"],
       nested=misc["nested"]["t"], sd=list(sd.keys()), shared=c.a.weight is not m.a.weight)
