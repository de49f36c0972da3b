import torch
import torch.nn as nn
lin = det(nn.Linear(8, 4))
x = data(3, 8)
res = {}
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    y = lin(x)
    res["lin"] = str(y.dtype)
    res["relu"] = str(torch.relu(y).dtype)
    res["sum"] = str((y.float() + 1).dtype)
    res["softmax"] = str(torch.softmax(y, -1).dtype)
    res["mm"] = str(torch.mm(x, x.t()).dtype)
    res["enabled"] = torch.is_autocast_enabled("cpu") if hasattr(torch, "is_autocast_cpu_enabled") else True
with torch.cpu.amp.autocast():
    res["cpu_amp"] = str(lin(x).dtype)
with torch.amp.autocast("cpu", dtype=torch.bfloat16):
    with torch.autocast("cpu", enabled=False):
        res["nested_off"] = str(lin(x).dtype)
    res["back_on"] = str(lin(x).dtype)
@torch.autocast("cpu")
def f(a):
    return a @ a.t()
res["decor"] = str(f(x).dtype)
with torch.autocast("cpu", dtype=torch.bfloat16):
    z = lin(x)
loss = z.float().pow(2).mean()
loss.backward()
report(res=res, approx=torch.allclose(z.float(), lin(x), atol=0.05), gdtype=lin.weight.grad.dtype, loss=loss, outside=lin(x).dtype)
# TOL 2e-2
