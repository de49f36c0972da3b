import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.rnn = nn.GRU(4, 4, batch_first=True)
        self.out = nn.Linear(4, 10)
        self.out.weight = self.emb.weight

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


m = det(LM())
sd = m.state_dict()
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
loss = nn.functional.cross_entropy(m(x).flatten(0, 1), torch.tensor([2, 3, 4, 5, 6, 7]))
loss.backward()
names = [n for n, _ in m.named_parameters()]
n_all = len(list(m.named_parameters(remove_duplicate=False)))
m2 = LM()
m2.load_state_dict(sd)
report(keys=list(sd.keys()), names=names, n_all=n_all, loss=loss, g=m.emb.weight.grad[2], still_tied=m2.out.weight is m2.emb.weight, y=m2(x)[0, 0])
