import torch
import torch.nn as nn

cell = det(nn.LSTMCell(3, 4))
gcell = det(nn.GRUCell(3, 4), seed=1)
rcell = det(nn.RNNCell(3, 4, nonlinearity="relu"), seed=2)
x = data(5, 2, 3)
h = torch.zeros(2, 4)
c = torch.zeros(2, 4)
g = torch.zeros(2, 4)
r = torch.zeros(2, 4)
outs = []
for t in range(5):
    h, c = cell(x[t], (h, c))
    g = gcell(x[t], g)
    r = rcell(x[t], r)
    outs.append(h)
lstm = nn.LSTM(3, 4)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(cell.weight_ih)
    lstm.weight_hh_l0.copy_(cell.weight_hh)
    lstm.bias_ih_l0.copy_(cell.bias_ih)
    lstm.bias_hh_l0.copy_(cell.bias_hh)
o, (hn, cn) = lstm(x)
unbatched = cell(x[0, 0])
report(h=h, c=c, g=g, r=r, same=torch.allclose(torch.stack(outs), o, atol=1e-6), ub=[t.shape for t in unbatched])
