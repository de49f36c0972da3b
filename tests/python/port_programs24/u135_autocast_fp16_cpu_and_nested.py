import torch
import torch.nn as nn

lin = det(nn.Linear(4, 3))
x = data(2, 4)
with torch.autocast("cpu", dtype=torch.bfloat16):
    a = lin(x)
    with torch.autocast("cpu", enabled=False):
        b = lin(x)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            c = lin(x)
    d = torch.mm(x, x.t())
e = lin(x)
report(a=a.dtype, b=b.dtype, c=c.dtype, d=d.dtype, e=e.dtype, close=torch.allclose(a.float(), e, atol=0.05), get=torch.get_autocast_dtype("cpu"),
       a_vals=a.float()[0])
