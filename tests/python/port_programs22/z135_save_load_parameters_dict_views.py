import torch
import torch.nn as nn

p = nn.Parameter(torch.arange(4.0))
base = torch.arange(10.0)
obj = {"p": p, "params": [p, nn.Parameter(torch.ones(2), requires_grad=False)], "view": base[3:7], "t": (base, base.view(2, 5)),
       "int": torch.tensor([1, 2], dtype=torch.int32), "sd": nn.Linear(2, 1).state_dict(), "set": {1, 2}, "size": torch.Size([2, 3]),
       "dtype": torch.float16, "dev": torch.device("cpu")}
torch.save(obj, "obj.pt")
b = torch.load("obj.pt", weights_only=False)
report(p_type=type(b["p"]).__name__, p_req=b["p"].requires_grad, same=b["params"][0] is b["p"], req2=b["params"][1].requires_grad,
       view=b["view"], view_shape=b["view"].shape, t1=b["t"][1], int_dtype=b["int"].dtype, sd_keys=sorted(b["sd"]), set=sorted(b["set"]),
       size=b["size"], dtype=b["dtype"], dev=str(b["dev"]), tuple_type=type(b["t"]).__name__)
