import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, V, d):
        super().__init__()
        self.embed_tokens = nn.Embedding(V, d)
        self.lm_head = nn.Linear(d, V, bias=False)
        self.tie()

    def tie(self):
        self.lm_head.weight = self.embed_tokens.weight

    def resize_token_embeddings(self, n):
        old = self.embed_tokens
        new = nn.Embedding(n, old.embedding_dim)
        new.weight.data.normal_(0.0, 0.02)
        k = min(n, old.num_embeddings)
        new.weight.data[:k, :] = old.weight.data[:k, :]
        mean = old.weight.data.mean(0)
        new.weight.data[k:] = mean
        self.embed_tokens = new
        self.lm_head = nn.Linear(old.embedding_dim, n, bias=False)
        self.tie()
        return new


m = det(Model(6, 4))
before = m.embed_tokens.weight.clone()
m.resize_token_embeddings(8)
out = m.lm_head(m.embed_tokens(torch.tensor([0, 6, 7])))
sd = m.state_dict()
report(shape=list(m.embed_tokens.weight.shape), same=torch.equal(m.embed_tokens.weight[:6], before),
       new_rows=m.embed_tokens.weight[6:], out=out, keys=sorted(sd.keys()), tied=m.lm_head.weight is m.embed_tokens.weight)
