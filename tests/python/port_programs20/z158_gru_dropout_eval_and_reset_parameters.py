import math
import torch
import torch.nn as nn


class MyLinear(nn.Linear):
    def reset_parameters(self):
        nn.init.constant_(self.weight, 0.1)
        if self.bias is not None:
            nn.init.zeros_(self.bias)


gru = det(nn.GRU(3, 4, num_layers=2, dropout=0.5))
gru.eval()
x = data(5, 2, 3)
a, _ = gru(x)
b, _ = gru(x)
lin = MyLinear(3, 2)
lin2 = MyLinear(3, 2)
lin2.weight.data.fill_(7)
lin2.reset_parameters()
report(same=torch.equal(a, b), a=a.sum(), lin=lin.weight, lin2=lin2.weight, b=lin.bias, stdv=1.0 / math.sqrt(4))
