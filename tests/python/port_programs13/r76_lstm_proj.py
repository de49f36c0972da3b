import torch
import torch.nn as nn
lstm = nn.LSTM(input_size=4, hidden_size=6, proj_size=3, num_layers=2, batch_first=True, bidirectional=True)
det(lstm, 0, 0.3)
x = data(2, 5, 4)
out, (h, c) = lstm(x)
out.sum().backward()
shapes = {n: list(p.shape) for n, p in lstm.named_parameters() if "l0" in n and "reverse" not in n}
report(out=list(out.shape), h=list(h.shape), c=list(c.shape), o=out[0, -1], hv=h[-1], shapes=shapes, g=lstm.weight_hr_l0.grad.sum())
