import json, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Tagger(nn.Module):
    def __init__(self, vocab=15, d=8, hidden=6, tags=4, max_len=12):
        super().__init__()
        self.emb, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_len, d)
        self.att = nn.Linear(d, d)
        self.gru = nn.GRU(d, hidden, batch_first=True)
        self.out = nn.Linear(hidden, tags)
    def forward(self, ids, lengths):
        b, t = ids.shape
        pos = mf.arange(t).unsqueeze(0).expand(b, -1)          # local, made here
        h = self.emb(ids) + self.pos(pos)
        mask = mf.full((t, t), float("-inf")).triu(1)           # local causal mask
        pad = mf.arange(t).unsqueeze(0) >= lengths.unsqueeze(1)  # from the (global) lengths
        scores = self.att(h) @ h.transpose(1, 2) / math.sqrt(h.shape[-1]) + mask
        scores = scores.masked_fill(pad.unsqueeze(1), -1e4)
        h = h + F.softmax(scores, -1) @ h
        h0 = mf.zeros(1, b, self.gru.hidden_size)               # zero state, local
        y, _ = self.gru(h, h0)
        return self.out(y)

mf.manual_seed(100)
net = Tagger(); net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(100)
losses = []
for _ in range(3):
    ids = rng.integers(1, 15, (4, 6)); lengths = rng.integers(3, 7, 4); tags = rng.integers(0, 4, (4, 6))
    ids_g = mf.tensor(ids, placement=P, sbp=S(0)); len_g = mf.tensor(lengths, placement=P, sbp=S(0))
    logits = net(ids_g, len_g)
    keep = (mf.arange(6).unsqueeze(0) < len_g.unsqueeze(1)).float()
    ce = F.cross_entropy(logits.flatten(0, 1), mf.tensor(tags, placement=P, sbp=S(0)).flatten(), reduction="none")
    loss = (ce * keep.flatten()).sum() / keep.sum()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "out_b": net.out.bias.tolist()}))
