import torch
import torch.nn as nn

conv = det(nn.Conv1d(3, 4, 3))
lstm = det(nn.LSTM(4, 5, batch_first=True), seed=2)
x = data(2, 3, 10)
with torch.autocast("cpu", dtype=torch.bfloat16):
    c = conv(x)
    o, (h, cc) = lstm(c.transpose(1, 2))
    ln = nn.functional.layer_norm(o, (5,))
    sm = torch.log_softmax(o, -1)
    bmm = torch.bmm(o, o.transpose(1, 2))
    relu = torch.relu(c)
    add = c + 1.0
with torch.no_grad():
    ref = conv(x)
report(c=c.dtype, o=o.dtype, h=h.dtype, ln=ln.dtype, sm=sm.dtype, bmm=bmm.dtype, relu=relu.dtype, add=add.dtype,
       close=torch.allclose(c.float(), ref, atol=0.05, rtol=0.02), bf_vals=c.float()[0, 0, :3], is_autocast=torch.is_autocast_enabled())
