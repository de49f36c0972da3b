import torch
import torch.nn as nn


class SelfAttn(nn.Module):
    def __init__(self, d=8, h=2):
        super().__init__()
        self.h, self.dk = h, d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = [t.view(B, T, self.h, self.dk).transpose(1, 2) for t in (q, k, v)]
        ext = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        att = (q @ k.transpose(-2, -1)) / self.dk ** 0.5 + ext
        att = att.softmax(-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.o(y), att


m = det(SelfAttn())
tokens = [[5, 3, 9], [2, 7, 1, 4, 6]]
maxlen = max(len(t) for t in tokens)
input_ids = torch.tensor([t + [0] * (maxlen - len(t)) for t in tokens])
attention_mask = (input_ids != 0).long()
emb = nn.Embedding(10, 8, padding_idx=0)
det(emb, seed=3)
with torch.no_grad():
    emb.weight[0].zero_()
x = emb(input_ids)
y, att = m(x, attention_mask)
pooled = (y * attention_mask.unsqueeze(-1)).sum(1) / attention_mask.sum(1, keepdim=True)
report(mask=attention_mask, y=y, att_pad=att[0, :, :, 3:], pooled=pooled, lens=attention_mask.sum(-1).tolist())
