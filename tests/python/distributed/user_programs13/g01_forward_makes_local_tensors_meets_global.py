import json, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class TinyDecoder(nn.Module):
    def __init__(self, vocab=13, d=8, T=6):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(mf.zeros(T, d))
        self.qkv = nn.Linear(d, 3 * d)
        self.norm = nn.LayerNorm(d)
        self.out = nn.Linear(d, vocab)
    def forward(self, idx, lengths):
        b, t = idx.shape
        pos_ids = mf.arange(t)                                        # local, made here
        causal = mf.ones(t, t).tril().bool()                          # local
        pad = mf.arange(t).unsqueeze(0) < lengths.unsqueeze(1)        # local arange meets global lengths
        x = self.tok(idx) + self.pos[pos_ids]
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        att = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        att = att.masked_fill(~causal, float("-inf"))
        att = att.masked_fill(~pad.unsqueeze(1), -1e9)
        h = x + F.softmax(att, -1) @ v
        scale = mf.tensor([1.0, 0.5]).repeat(h.shape[-1] // 2)       # local weights per feature
        h = h * scale + mf.full((1,), 0.1)
        return self.out(h), pad

mf.manual_seed(131)
net = TinyDecoder()
net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(131)
losses = []
for _ in range(3):
    idx = mf.tensor(rng.integers(0, 13, (4, 6)), placement=P, sbp=S(0))
    lengths = mf.tensor(rng.integers(2, 7, 4), placement=P, sbp=S(0))
    logits, pad = net(idx, lengths)
    tgt = idx.roll(-1, 1)
    loss = (F.cross_entropy(logits.flatten(0, 1), tgt.flatten(), reduction="none") * pad.flatten().float()).sum() / pad.float().sum()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "pos": net.pos.sum().item(), "out": net.out.weight.sum().item(),
                                  "pad_sbp": str(pad.sbp[0]) if pad.is_global else "local"}))
