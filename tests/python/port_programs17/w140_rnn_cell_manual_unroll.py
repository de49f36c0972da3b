import torch
import torch.nn as nn

cell = det(nn.LSTMCell(3, 4))
gcell = det(nn.GRUCell(3, 4), seed=1)
rcell = det(nn.RNNCell(3, 4, nonlinearity="relu"), seed=2)
xs = data(5, 2, 3, seed=3)
h = c = torch.zeros(2, 4)
hg = torch.zeros(2, 4)
hr = torch.zeros(2, 4)
outs = []
for t in range(5):
    h, c = cell(xs[t], (h, c))
    hg = gcell(xs[t], hg)
    hr = rcell(xs[t], hr)
    outs.append(h)
lstm = nn.LSTM(3, 4)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(cell.weight_ih)
    lstm.weight_hh_l0.copy_(cell.weight_hh)
    lstm.bias_ih_l0.copy_(cell.bias_ih)
    lstm.bias_hh_l0.copy_(cell.bias_hh)
full, (hn, cn) = lstm(xs)
single = cell(xs[0][0])
report(h=h, c=c, hg=hg, hr=hr, eq=torch.allclose(full, torch.stack(outs), atol=1e-6), s=list(single[0].shape), hn=hn[0])
