import torch
import torch.nn as nn


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(16, 8)
        self.fc2 = nn.Linear(8, 5)


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(16, 8)
        self.head = nn.Linear(8, 2)


netA = det(NetA(), seed=1)
torch.save(netA.state_dict(), "a.pt")
netB = det(NetB(), seed=2)
res = netB.load_state_dict(torch.load("a.pt", weights_only=True), strict=False)
missing, unexpected = res.missing_keys, res.unexpected_keys
same = torch.equal(netB.fc1.weight, netA.fc1.weight)
kept = netB.head.bias.clone()
try:
    netB.load_state_dict(torch.load("a.pt", weights_only=True))
    err = None
except RuntimeError as e:
    err = "Missing key(s)" in str(e) and "Unexpected key(s)" in str(e)
sd = torch.load("a.pt", weights_only=True)
renamed = {k.replace("fc2", "head"): v for k, v in sd.items() if not k.startswith("fc2")}
res2 = netB.load_state_dict(renamed, strict=False)
report(missing=missing, unexpected=unexpected, same=same, kept=kept, err=err, res2=[res2.missing_keys, res2.unexpected_keys],
       tup=list(res2), keys=sorted(sd.keys()))
