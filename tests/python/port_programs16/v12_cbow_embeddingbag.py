import torch
import torch.nn as nn

text = "the quick brown fox jumps over the lazy dog the fox".split()
vocab = {w: i for i, w in enumerate(dict.fromkeys(text))}
ids = torch.tensor([vocab[w] for w in text])
ctx, tgt = [], []
for i in range(2, len(ids) - 2):
    ctx.append(torch.cat([ids[i - 2:i], ids[i + 1:i + 3]]))
    tgt.append(ids[i])
ctx, tgt = torch.stack(ctx), torch.stack(tgt)


class CBOW(nn.Module):
    def __init__(self, V, D):
        super().__init__()
        self.bag = nn.EmbeddingBag(V, D, mode="mean")
        self.proj = nn.Linear(D, V, bias=False)

    def forward(self, c):
        flat = c.reshape(-1)
        offsets = torch.arange(0, flat.numel(), c.size(1))
        return self.proj(self.bag(flat, offsets))


model = det(CBOW(len(vocab), 6), scale=0.3)
opt = torch.optim.Adagrad(model.parameters(), lr=0.3, lr_decay=0.01)
for epoch in range(6):
    logp = torch.log_softmax(model(ctx), dim=1)
    loss = nn.NLLLoss()(logp, tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
emb = model.bag.weight.detach()
sims = torch.nn.functional.cosine_similarity(emb[vocab["fox"]].unsqueeze(0), emb, dim=1)
report(loss=loss.item(), sims=sims, nearest=sims.argsort(descending=True)[:3], ctx0=ctx[0])
