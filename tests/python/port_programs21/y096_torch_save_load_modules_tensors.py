import torch
import torch.nn as nn

m = det(nn.Linear(3, 2), seed=1)
t = torch.arange(6.0).view(2, 3)
torch.save({"w": t, "view": t[0], "list": [t, 1, "a"], "nested": {"x": torch.tensor([1, 2])}}, "a.pt")
d = torch.load("a.pt")
torch.save(m.state_dict(), "m.pth")
m2 = nn.Linear(3, 2)
m2.load_state_dict(torch.load("m.pth", map_location="cpu"))
torch.save(m, "full.pt")
m3 = torch.load("full.pt", weights_only=False)
report(w=d["w"], lst=d["list"][1:], nested=d["nested"]["x"], same=torch.equal(m2.weight, m.weight), m3=type(m3).__name__,
       view=d["view"], out=m3(torch.ones(1, 3)).detach())
