import torch
import torch.nn as nn
class LM(nn.Module):
    def __init__(self, vocab=12, d=6):
        super().__init__()
        self.encoder = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.decoder = nn.Linear(d, vocab)
        self.decoder.weight = self.encoder.weight
    def forward(self, x):
        h, _ = self.rnn(self.encoder(x))
        return self.decoder(h)
m = det(LM())
params = list(m.parameters()); named = [n for n, _ in m.named_parameters()]
x = ints(12, 2, 4)
out = m(x)
loss = nn.functional.cross_entropy(out.reshape(-1, 12), x.reshape(-1))
loss.backward()
g = m.encoder.weight.grad.clone()
opt = torch.optim.SGD(m.parameters(), lr=0.5)
opt.step()
sd = m.state_dict()
m2 = det(LM(), 5)
m2.load_state_dict(sd)
report(n=len(params), named=named, sd=sorted(sd.keys()), tied=m.decoder.weight is m.encoder.weight, g=g[:3], loss=loss.item(),
       after=m.decoder.weight[:2], m2tied=m2.decoder.weight is m2.encoder.weight, eq=torch.equal(m2.decoder.weight, m.encoder.weight))
