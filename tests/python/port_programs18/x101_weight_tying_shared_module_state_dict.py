import torch
import torch.nn as nn


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 2, bias=False)
        self.dec_bias = nn.Parameter(torch.zeros(4))

    def forward(self, x):
        z = torch.relu(self.enc(x))
        return nn.functional.linear(z, self.enc.weight.t(), self.dec_bias)


m = det(AE())
shared = nn.Linear(2, 2)
seq = nn.Sequential(shared, nn.ReLU(), shared)
det(seq, seed=3)
x = data(3, 4, seed=1)
loss = nn.functional.mse_loss(m(x), x)
loss.backward()
report(loss=loss, g=m.enc.weight.grad, n_seq=len(list(seq.parameters())), keys=list(seq.state_dict().keys()),
       seq_out=seq(data(1, 2, seed=2)), nm=[n for n, _ in seq.named_modules()], nmr=len(list(seq.named_modules(remove_duplicate=False))))
