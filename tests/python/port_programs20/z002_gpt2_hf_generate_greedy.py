import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class Attention(nn.Module):
    def __init__(self, d, n_head, n_ctx):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx), persistent=False)
        self.n_head = n_head
        self.c_attn = Conv1D(3 * d, d)
        self.c_proj = Conv1D(d, d)

    def split_heads(self, x):
        new_shape = x.size()[:-1] + (self.n_head, x.size(-1) // self.n_head)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, x, layer_past=None):
        q, k, v = self.c_attn(x).split(x.size(-1), dim=2)
        q, k, v = self.split_heads(q), self.split_heads(k), self.split_heads(v)
        if layer_past is not None:
            pk, pv = layer_past
            k = torch.cat((pk, k), dim=-2)
            v = torch.cat((pv, v), dim=-2)
        present = (k, v)
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(v.size(-1))
        nd, ns = w.size(-2), w.size(-1)
        mask = self.bias[:, :, ns - nd:ns, :ns]
        w = w * mask - 1e4 * (1 - mask)
        w = nn.functional.softmax(w, dim=-1)
        a = torch.matmul(w, v)
        a = a.permute(0, 2, 1, 3).contiguous()
        a = a.view(*a.size()[:-2], a.size(-2) * a.size(-1))
        return self.c_proj(a), present


class Block(nn.Module):
    def __init__(self, d, h, n_ctx):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = Attention(d, h, n_ctx)
        self.ln_2 = nn.LayerNorm(d, eps=1e-5)
        self.mlp = nn.Sequential(Conv1D(4 * d, d), nn.GELU(approximate="tanh"), Conv1D(d, 4 * d))

    def forward(self, x, layer_past=None):
        a, present = self.attn(self.ln_1(x), layer_past)
        x = x + a
        x = x + self.mlp(self.ln_2(x))
        return x, present


class GPT2(nn.Module):
    def __init__(self, vocab=17, d=16, h=2, n_layer=2, n_ctx=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(n_ctx, d)
        self.h = nn.ModuleList([Block(d, h, n_ctx) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, input_ids, past=None):
        if past is None:
            past_length = 0
            past = [None] * len(self.h)
        else:
            past_length = past[0][0].size(-2)
        position_ids = torch.arange(past_length, input_ids.size(-1) + past_length, dtype=torch.long)
        position_ids = position_ids.unsqueeze(0).expand_as(input_ids)
        hidden = self.wte(input_ids) + self.wpe(position_ids)
        presents = []
        for block, lp in zip(self.h, past):
            hidden, present = block(hidden, lp)
            presents.append(present)
        return self.lm_head(self.ln_f(hidden)), presents


model = det(GPT2(), scale=0.3).eval()
ids = torch.tensor([[1, 5, 7], [2, 2, 9]])
generated = ids
past = None
with torch.no_grad():
    logits, past = model(ids)
    for _ in range(5):
        nxt = logits[:, -1, :].argmax(dim=-1, keepdim=True)
        generated = torch.cat((generated, nxt), dim=1)
        logits, past = model(nxt, past=past)
    full, _ = model(generated)
report(generated=generated, last=logits[:, -1], same=torch.allclose(full[:, -1], logits[:, -1], atol=1e-5),
       past_shape=past[0][0].shape, n=sum(p.numel() for p in model.parameters()),
       keys=sorted(model.state_dict().keys())[:6], nkeys=len(model.state_dict()))
