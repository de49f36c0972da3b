import json, math
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd=16, n_head=2, block_size=8):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.register_buffer("bias", mf.tril(mf.ones(block_size, block_size)).view(1, 1, block_size, block_size))
    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)

mf.manual_seed(43)
emb = nn.Embedding(20, 16)
attn = CausalSelfAttention()
head = nn.Linear(16, 20)
model = nn.ModuleDict({"emb": emb, "attn": attn, "head": head}).to_global(mesh, mf.sbp.broadcast)
params = list(model.parameters())
opt = mf.optim.AdamW(params, lr=1e-2)
ema = [p.detach().clone() for p in params]
rng = np.random.default_rng(43)
seq = rng.integers(0, 20, (4, 7))
x = mf.tensor(seq[:, :-1], placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(seq[:, 1:], placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    logits = model["head"](model["attn"](model["emb"](x)))
    loss = F.cross_entropy(logits.view(-1, 20), y.view(-1), label_smoothing=0.1)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    with mf.no_grad():
        for e, p in zip(ema, params):
            e.mul_(0.9).add_(p.detach(), alpha=0.1)
    losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "ema": sum(e.sum().item() for e in ema)}))
