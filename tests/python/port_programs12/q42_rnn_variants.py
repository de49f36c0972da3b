import torch
import torch.nn as nn
x = data(3, 4, 5)
res = {}
rnn = det(nn.RNN(5, 4, num_layers=2, nonlinearity="relu", bidirectional=True, batch_first=True), scale=0.3)
o, h = rnn(x, data(4, 3, 4, seed=2))
res["rnn"] = [o[:, -1], h[-1]]
lstm = det(nn.LSTM(5, 6, proj_size=3, batch_first=True, num_layers=2), scale=0.3)
o, (h, c) = lstm(x)
res["proj"] = [o.shape, h.shape, c.shape, o[1, -1], sorted(n for n, _ in lstm.named_parameters())[:5]]
cell = det(nn.GRUCell(5, 4), scale=0.4)
hx = torch.zeros(3, 4)
outs = []
for t in range(x.size(1)):
    hx = cell(x[:, t], hx); outs.append(hx)
res["gcell"] = torch.stack(outs, 1)[:, -1]
lc = det(nn.LSTMCell(5, 4), scale=0.4)
hx, cx = lc(x[:, 0])
hx, cx = lc(x[:, 1], (hx, cx))
res["lcell"] = [hx, cx]
rc = det(nn.RNNCell(5, 4, nonlinearity="tanh", bias=False), scale=0.4)
res["rcell"] = rc(x[:, 0])
gru = det(nn.GRU(5, 4, bidirectional=True), scale=0.3)
o, h = gru(x.transpose(0, 1))
res["gru"] = [o[-1], h]
ub = det(nn.LSTM(5, 4), scale=0.3)
o1, (h1, c1) = ub(x[0])
res["unbatched"] = [o1.shape, h1.shape, o1[-1]]
lstm2 = det(nn.LSTM(5, 4, batch_first=True, dropout=0.0, num_layers=2), scale=0.3)
opt = torch.optim.Adam(lstm2.parameters(), lr=0.01)
ls = []
for _ in range(3):
    opt.zero_grad(); o, _ = lstm2(x); l = o[:, -1].pow(2).mean(); l.backward(); nn.utils.clip_grad_norm_(lstm2.parameters(), 0.1); opt.step(); ls.append(l.item())
res["train"] = ls
res["flat"] = [len(lstm2.all_weights), lstm2.weight_hh_l1.shape]
lstm2.flatten_parameters()
report(**res)
