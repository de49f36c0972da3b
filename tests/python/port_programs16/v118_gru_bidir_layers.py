import torch
import torch.nn as nn

gru = det(nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True, dropout=0.0))
x = data(2, 5, 3)
h0 = data(4, 2, 4, seed=3) * 0.1
out, hn = gru(x, h0)
out.sum().backward()
lstm = det(nn.LSTM(3, 4, num_layers=1, bidirectional=True), seed=2)
o2, (h2, c2) = lstm(x.transpose(0, 1))
rnn = det(nn.RNN(3, 2, nonlinearity="tanh", bias=False), seed=5)
o3, h3 = rnn(x[0])
names = [n for n, _ in gru.named_parameters()][:6]
report(out=out[0, -1].detach(), hn=hn[:, 0].detach(), g=gru.weight_hh_l1_reverse.grad[0], o2=o2[-1, 0].detach(), c2=c2[1, 1].detach(),
       o3=o3.detach(), h3=h3.shape, names=names, last_eq=torch.allclose(out[:, -1, :4], hn[2]))
