import torch
import torch.nn as nn
import torch.nn.functional as F


class BagModel(nn.Module):
    def __init__(self, n_tokens, d):
        super().__init__()
        self.bag = nn.EmbeddingBag(n_tokens, d, mode="sum")
        self.fc = nn.Linear(d, 1)

    def forward(self, flat, offsets, weights):
        return self.fc(self.bag(flat, offsets, per_sample_weights=weights)).squeeze(-1)


histories = [[1, 4, 4, 7], [2], [3, 5], [], [6, 1, 2]]
flat = torch.tensor([i for h in histories for i in h])
lengths = torch.tensor([len(h) for h in histories])
offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
recency = torch.cat([0.5 ** torch.arange(len(h), 0, -1).float() for h in histories if h])
y = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0])
model = det(BagModel(8, 4))
opt = torch.optim.Adagrad(model.parameters(), lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)
hist = []
for _ in range(5):
    loss = F.binary_cross_entropy_with_logits(model(flat, offsets, recency), y)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
report(offsets=offsets, recency=recency, hist=hist, empty_bag=model.bag(flat, offsets, per_sample_weights=recency)[3], rows_touched=(model.bag.weight.grad.abs().sum(1) > 0))
