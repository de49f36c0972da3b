import torch
import torch.nn as nn
rnn = det(nn.RNN(3, 5, num_layers=2, nonlinearity="relu", dropout=0.0), 0, 0.3)
x = data(6, 2, 3)
h0 = data(2, 2, 5, seed=3)
out, hn = rnn(x, h0)
out1, hn1 = rnn(x[:3], h0)
out2, hn2 = rnn(x[3:], hn1)
cont = torch.allclose(torch.cat([out1, out2]), out, atol=1e-6)
unb = rnn(x[:, 0])[0]
cell = det(nn.RNNCell(3, 5, nonlinearity="tanh"), 1)
h = torch.zeros(2, 5)
for t in range(6):
    h = cell(x[t], h)
gru = det(nn.GRUCell(3, 4), 2)
hg = gru(x[0])
lstm = det(nn.LSTM(3, 4, num_layers=1, batch_first=False, bias=False), 3)
o, (hl, cl) = lstm(x)
report(out=out[-1], hn=hn[0], cont=cont, unb=list(unb.shape), h=h, hg=hg, hl=hl, names=[n for n, _ in lstm.named_parameters()], wnames=[n for n, _ in rnn.named_parameters()][:4])
