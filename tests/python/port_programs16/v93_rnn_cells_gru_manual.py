import torch
import torch.nn as nn

cell = det(nn.GRUCell(3, 4))
rnn_cell = det(nn.RNNCell(3, 4, nonlinearity="relu"), seed=2)
x = data(5, 2, 3)
h = torch.zeros(2, 4)
h2 = torch.zeros(2, 4)
outs = []
for t in range(5):
    h = cell(x[t], h)
    h2 = rnn_cell(x[t], h2)
    outs.append(h)
W_ir, W_iz, W_in = cell.weight_ih.chunk(3)
W_hr, W_hz, W_hn = cell.weight_hh.chunk(3)
b_ir, b_iz, b_in = cell.bias_ih.chunk(3)
b_hr, b_hz, b_hn = cell.bias_hh.chunk(3)
hm = torch.zeros(2, 4)
for t in range(5):
    r = torch.sigmoid(x[t] @ W_ir.T + b_ir + hm @ W_hr.T + b_hr)
    z = torch.sigmoid(x[t] @ W_iz.T + b_iz + hm @ W_hz.T + b_hz)
    n = torch.tanh(x[t] @ W_in.T + b_in + r * (hm @ W_hn.T + b_hn))
    hm = (1 - z) * n + z * hm
gru = nn.GRU(3, 4)
gru.load_state_dict({k + "_l0": v for k, v in cell.state_dict().items()})
full, hn = gru(x)
unbatched = cell(x[0, 0])
report(h=h.detach(), manual=torch.allclose(h, hm, atol=1e-6), full=torch.allclose(full[-1], h, atol=1e-6), h2=h2.detach(),
       ub=list(unbatched.shape), stack=torch.stack(outs).shape)
