import torch
import torch.nn as nn


class Rec(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.EmbeddingBag(20, 4, mode="mean")
        self.users = nn.Embedding(5, 4)
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, user, flat, offsets):
        return (self.users(user) * self.items(flat, offsets)).sum(-1) + self.bias


m = det(Rec(), seed=1)
opt = torch.optim.Adagrad(m.parameters(), lr=0.1)
flat = torch.tensor([1, 2, 3, 4, 5, 6, 7, 8, 9])
offsets = torch.tensor([0, 2, 5, 6])
user = torch.tensor([0, 1, 2, 4])
target = torch.tensor([1.0, 0.0, 1.0, 0.0])
losses = []
for _ in range(4):
    loss = nn.functional.binary_cross_entropy_with_logits(m(user, flat, offsets), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
bag_sum = nn.EmbeddingBag.from_pretrained(m.items.weight.detach(), mode="sum")
bag_max = nn.EmbeddingBag.from_pretrained(m.items.weight.detach(), mode="max")
w = torch.tensor([1.0, 0.5, 2.0, 1.0, 1.0, 1.0, 0.1, 1.0, 1.0])
report(losses=losses, s=bag_sum(flat, offsets), mx=bag_max(flat, offsets),
       ws=bag_sum(flat, offsets, per_sample_weights=w), two_d=bag_sum(torch.tensor([[1, 2], [3, 4]])),
       inc=nn.functional.embedding_bag(flat, m.items.weight.detach(), torch.tensor([0, 4, 9]), mode="sum",
                                       include_last_offset=True))
