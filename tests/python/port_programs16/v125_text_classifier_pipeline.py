import collections
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

texts = ["good movie great acting", "bad plot terrible acting", "great fun", "terrible boring bad", "good good fun", "boring plot"]
labels = [1, 0, 1, 0, 1, 0]
counter = collections.Counter(w for t in texts for w in t.split())
itos = ["<pad>", "<unk>"] + [w for w, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
stoi = {w: i for i, w in enumerate(itos)}


def collate(batch):
    ids = [torch.tensor([stoi.get(w, 1) for w in t.split()]) for t, _ in batch]
    lengths = torch.tensor([len(i) for i in ids])
    return nn.utils.rnn.pad_sequence(ids, batch_first=True), lengths, torch.tensor([l for _, l in batch], dtype=torch.float)


class BoW(nn.Module):
    def __init__(self, V, D):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.fc = nn.Linear(D, 1)

    def forward(self, ids, lengths):
        e = self.emb(ids).sum(1) / lengths.unsqueeze(1)
        return self.fc(e).squeeze(1)


model = det(BoW(len(itos), 4))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
dl = DataLoader(list(zip(texts, labels)), batch_size=3, shuffle=False, collate_fn=collate)
for epoch in range(5):
    for ids, lengths, y in dl:
        loss = F.binary_cross_entropy_with_logits(model(ids, lengths), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    ids, lengths, _ = collate([("great acting unknownword", 1)])
    p = torch.sigmoid(model(ids, lengths))
report(itos=itos, loss=loss.item(), p=p, pad_row=model.emb.weight[0], ids=ids)
