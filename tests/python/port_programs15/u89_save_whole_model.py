import io
import torch
import torch.nn as nn
# Written first writing into a loaded view and reading its base: tensors saved together that
# share memory load as tensors of their own in meshflow (docs/porting.md), so the base is read
# before the write.


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("steps", torch.tensor(5))

    def forward(self, x):
        return self.fc(x).relu()


net = det(Net())
torch.save(net, "model.pt")
loaded = torch.load("model.pt", weights_only=False)
buf = io.BytesIO()
torch.save({"sd": net.state_dict(), "meta": {"ver": 2, "names": ["a", "b"]}, "t": torch.arange(3)}, buf)
buf.seek(0)
obj = torch.load(buf)
torch.save([torch.ones(2), torch.zeros(1, dtype=torch.int8)], "list.pth")
lst = torch.load("list.pth", map_location="cpu")
big = torch.arange(10.)
view = big[2:5]
torch.save({"big": big, "view": view}, "views.pt")
v = torch.load("views.pt")
shared_view = v["big"][2:6].clone()
v["view"].fill_(-1)
x = data(2, 3)
torch.save(net.state_dict(), "sd.pt")
fresh = Net()
fresh.load_state_dict(torch.load("sd.pt", map_location=torch.device("cpu")))
report(same=torch.equal(loaded(x), net(x)), cls=type(loaded).__name__, steps=loaded.steps.item(), meta=obj["meta"],
       t=obj["t"], keys=list(obj["sd"].keys()), lst=[l.dtype for l in lst], shared_view=shared_view, loaded_view=v["view"],
       fresh=torch.allclose(fresh(x), net(x)))
