import torch
import torch.nn as nn

lstm = det(nn.LSTM(3, 6, num_layers=2, bidirectional=True, proj_size=2, batch_first=True))
x = data(2, 4, 3)
o, (h, c) = lstm(x)
names = [n for n, _ in lstm.named_parameters()]
o.sum().backward()
gru = det(nn.GRU(3, 4, num_layers=2, bidirectional=True), seed=1)
o2, h2 = gru(x.transpose(0, 1), torch.zeros(4, 2, 4))
rnn = det(nn.RNN(3, 2, nonlinearity="tanh", bias=False), seed=2)
o3, h3 = rnn(x[0])
report(oshape=o.shape, hshape=h.shape, cshape=c.shape, o=o.sum(), h=h, names=names, g=lstm.weight_hr_l1_reverse.grad,
       o2=o2.sum(), h2=h2, o3=o3, h3=h3)
