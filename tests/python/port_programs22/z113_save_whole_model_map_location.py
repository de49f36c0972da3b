import io
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("stat", torch.tensor([1.0, 2.0]))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

    def forward(self, x):
        return self.fc(x) * self.stat

net = det(Net(), seed=166)
torch.save(net, "net.pt")
loaded = torch.load("net.pt", weights_only=False)
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, map_location="cpu", weights_only=True)
sd2 = torch.load(io.BytesIO(buf.getvalue()), map_location=torch.device("cpu"))
x = data(2, 3, seed=167)
fresh = Net()
res = fresh.load_state_dict(sd, strict=True)
report(same=torch.equal(loaded(x), net(x)), type=type(loaded).__name__, keys=sorted(sd), sd2_keys=sorted(sd2), out=fresh(x),
       tmp_in=("tmp" in sd), loaded_tmp=loaded.tmp, device=str(sd["fc.weight"].device), res=repr(res))
