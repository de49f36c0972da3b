import io
import os
import torch
import torch.nn as nn
obj = {"epoch": 3, "name": "run-1", "tensors": [torch.arange(3), torch.ones(2, 2, dtype=torch.float64)], "nested": {"lr": 0.1, "t": torch.tensor([True, False])}, "tuple": (1, torch.tensor(2.5))}
torch.save(obj, "ck.pt")
a = torch.load("ck.pt")
b = torch.load("ck.pt", map_location=torch.device("cpu"))
c = torch.load("ck.pt", map_location=lambda storage, loc: storage)
d = torch.load("ck.pt", map_location={"cuda:0": "cpu"}, weights_only=True)
buf = io.BytesIO(); torch.save(nn.Linear(2, 2).state_dict(), buf)
size_ok = buf.tell() > 0
buf.seek(0); sd = torch.load(buf, weights_only=True)
with open("w.pt", "wb") as f:
    torch.save(obj["tensors"], f)
with open("w.pt", "rb") as f:
    tl = torch.load(f)
shared = torch.arange(6.0)
torch.save({"a": shared, "b": shared[2:4]}, "shared.pt")
sh = torch.load("shared.pt")
report(epoch=a["epoch"], name=b["name"], t0=c["tensors"][0], t1=d["tensors"][1], nested=a["nested"]["t"], tup=[a["tuple"][0], a["tuple"][1]], size_ok=size_ok, keys=sorted(sd), tl=tl, sh=[sh["a"], sh["b"]],
       exists=os.path.getsize("ck.pt") > 0, types=[type(a["tuple"]).__name__, type(a["tensors"]).__name__])
