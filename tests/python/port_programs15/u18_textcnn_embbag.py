import torch
import torch.nn as nn
import torch.nn.functional as F


class TextCNN(nn.Module):
    def __init__(self, vocab, dim, nf, sizes, ncls):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.convs = nn.ModuleList([nn.Conv1d(dim, nf, k) for k in sizes])
        self.fc = nn.Linear(nf * len(sizes), ncls)

    def forward(self, x):
        e = self.emb(x).transpose(1, 2)
        pooled = [F.max_pool1d(F.relu(c(e)), c(e).shape[2]).squeeze(2) for c in self.convs]
        return self.fc(torch.cat(pooled, 1))


class BagModel(nn.Module):
    def __init__(self, vocab, dim, ncls):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, ncls)

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


cnn = det(TextCNN(25, 6, 4, [2, 3, 4], 3))
x = ints(25, 4, 9)
logits = cnn(x)
bag = det(BagModel(25, 6, 3), seed=1)
text = torch.tensor([1, 4, 7, 2, 2, 9, 11, 3, 5, 24])
offsets = torch.tensor([0, 3, 4, 8])
bl = bag(text, offsets)
opt = torch.optim.SGD(bag.parameters(), lr=4.0)
for _ in range(2):
    opt.zero_grad()
    loss = F.cross_entropy(bag(text, offsets), torch.tensor([0, 1, 2, 1]))
    loss.backward()
    opt.step()
eb_sum = nn.EmbeddingBag.from_pretrained(torch.arange(12.).view(6, 2), mode="sum")
eb_max = nn.EmbeddingBag.from_pretrained(torch.arange(12.).view(6, 2), mode="max")
psw = torch.tensor([0.5, 1.0, 2.0, 1.0])
report(logits=logits, bl=bl, loss=loss, sum2d=eb_sum(torch.tensor([[0, 1], [2, 5]])),
       mx=eb_max(torch.tensor([0, 5, 3, 1]), torch.tensor([0, 2])),
       psw=eb_sum(torch.tensor([0, 1, 2, 3]), torch.tensor([0, 2]), per_sample_weights=psw))
