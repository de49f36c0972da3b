import torch
import torch.nn as nn
import torch.nn.functional as F


class GRU4Rec(nn.Module):
    def __init__(self, n_items, d):
        super().__init__()
        self.emb = nn.Embedding(n_items + 1, d, padding_idx=0)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, n_items + 1)

    def forward(self, seq, lengths):
        h, _ = self.gru(self.emb(seq))
        last = h[torch.arange(seq.size(0)), lengths - 1]
        return self.out(last)


seqs = [[3, 1, 4], [2, 5], [1, 2, 3, 4], [5]]
lengths = torch.tensor([len(s) for s in seqs])
padded = nn.utils.rnn.pad_sequence([torch.tensor(s) for s in seqs], batch_first=True)
targets = torch.tensor([1, 3, 5, 2])
model = det(GRU4Rec(5, 6))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(4):
    logits = model(padded, lengths)
    logits[:, 0] = float("-inf")
    loss = F.cross_entropy(logits, targets)
    opt.zero_grad(); loss.backward(); opt.step()
with torch.no_grad():
    scores = model(padded, lengths)[:, 1:]
ranks = (scores > scores.gather(1, (targets - 1).unsqueeze(1))).sum(1) + 1
hit3 = (ranks <= 3).float().mean()
mrr = (1.0 / ranks.float()).mean()
report(padded=padded, loss=loss.item(), ranks=ranks, hit3=hit3.item(), mrr=mrr.item(), pad_grad=model.emb.weight.grad[0])
