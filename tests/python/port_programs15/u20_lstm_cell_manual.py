import torch
from torch import nn

torch.manual_seed(1)
cell = det(nn.LSTMCell(4, 6))
gru = det(nn.GRUCell(4, 6), seed=1)
rnn = det(nn.RNNCell(4, 6, nonlinearity="relu"), seed=2)
xs = data(5, 3, 4)
h, c = torch.zeros(3, 6), torch.zeros(3, 6)
g = torch.zeros(3, 6)
r = None
hs = []
for t in range(xs.size(0)):
    h, c = cell(xs[t], (h, c))
    g = gru(xs[t], g)
    r = rnn(xs[t], r)
    hs.append(h)
H = torch.stack(hs)
lstm = nn.LSTM(4, 6)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(cell.weight_ih)
    lstm.weight_hh_l0.copy_(cell.weight_hh)
    lstm.bias_ih_l0.copy_(cell.bias_ih)
    lstm.bias_hh_l0.copy_(cell.bias_hh)
out, (hn, cn) = lstm(xs)
single = cell(xs[0, 0])
report(H_last=H[-1], same=torch.allclose(out, H, atol=1e-6), cn=cn[0, 1], g=g[2], r=r[0], single=single[0].shape,
       proj=nn.LSTM(4, 6, proj_size=2)(xs)[0].shape)
