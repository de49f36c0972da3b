import math
import torch
import torch.nn as nn

def bucket(rel, num_buckets=8, max_distance=16):
    num_buckets //= 2
    ret = (rel > 0).long() * num_buckets
    n = rel.abs()
    max_exact = num_buckets // 2
    large = max_exact + (torch.log(n.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)).long()
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return ret + torch.where(n < max_exact, n, large)

class T5Attention(nn.Module):
    def __init__(self, d=8, h=2):
        super().__init__()
        self.h, self.dh = h, d // h
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.relative_attention_bias = nn.Embedding(8, h)

    def compute_bias(self, ql, kl):
        ctx = torch.arange(ql, dtype=torch.long)[:, None]
        mem = torch.arange(kl, dtype=torch.long)[None, :]
        values = self.relative_attention_bias(bucket(mem - ctx))
        return values.permute([2, 0, 1]).unsqueeze(0)

    def forward(self, x):
        b, t, _ = x.shape
        sh = lambda s: s.view(b, -1, self.h, self.dh).transpose(1, 2)
        q, k, v = sh(self.q(x)), sh(self.k(x)), sh(self.v(x))
        scores = torch.matmul(q, k.transpose(3, 2)) + self.compute_bias(t, t)
        w = nn.functional.softmax(scores.float(), dim=-1).type_as(scores)
        return self.o(torch.matmul(w, v).transpose(1, 2).contiguous().view(b, -1, self.h * self.dh))

m = det(T5Attention(), seed=11)
x = data(2, 7, 8, seed=12)
y = m(x)
y.pow(2).sum().backward()
report(y=y[0, 3], bias_grad=m.relative_attention_bias.weight.grad, bias=m.compute_bias(3, 4)[0, 1])
