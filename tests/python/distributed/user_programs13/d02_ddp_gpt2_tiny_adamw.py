import json, math, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class CausalSelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.h = h
    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = meshflow.tril(meshflow.ones(T, T)).view(1, 1, T, T)
        att = att.masked_fill(mask == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)

class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, h)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))
    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))

class GPT(nn.Module):
    def __init__(self, vocab=31, block=8, d=16, h=4, n=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(block, d)
        self.h = nn.ModuleList([Block(d, h) for _ in range(n)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight
    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = meshflow.arange(0, t, dtype=meshflow.long, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = GPT()
g = np.random.default_rng(3)
with meshflow.no_grad():
    for name, p in model.named_parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.02 if p.dim() > 1 else
                                  np.ones(p.shape) if name.endswith("weight") else np.zeros(p.shape)).astype(np.float32)))
model = DDP(model)
raw = model.module
decay = [p for n, p in raw.named_parameters() if p.dim() >= 2]
no_decay = [p for n, p in raw.named_parameters() if p.dim() < 2]
opt = meshflow.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                        lr=3e-3, betas=(0.9, 0.95))
data = np.random.default_rng(5).integers(0, 31, 400)
rng = np.random.default_rng(40 + rank)
losses = []
for it in range(5):
    ix = rng.integers(0, len(data) - 9, 4)
    x = meshflow.from_numpy(np.stack([data[i:i + 8] for i in ix]))
    y = meshflow.from_numpy(np.stack([data[i + 1:i + 9] for i in ix]))
    _, loss = model(x, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = meshflow.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    lt = loss.detach().clone()
    dist.all_reduce(lt, op=dist.ReduceOp.SUM)
    losses.append(round(lt.item() / world, 4))
if rank == 0:
    print("RESULT", rank, json.dumps({"losses": losses, "norm": round(norm.item(), 4),
                                      "tied": raw.lm_head.weight is raw.wte.weight,
                                      "w": round(raw.h[1].mlp[0].weight.sum().item(), 4)}))
else:
    print("RESULT", rank, json.dumps({"losses": losses}))
dist.destroy_process_group()
