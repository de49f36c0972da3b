import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class TinyBert(nn.Module):
    def __init__(self, vocab=40, d=16, maxlen=12):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(maxlen, d)
        self.typ = nn.Embedding(2, d)
        self.layer = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.cls = nn.Linear(d, 2)
        self.register_buffer("position_ids", mf.arange(maxlen).expand((1, -1)), persistent=False)

    def forward(self, input_ids, token_type_ids=None):
        seq = input_ids.size(1)
        if token_type_ids is None:
            token_type_ids = mf.zeros_like(input_ids)
        pos = self.position_ids[:, :seq]
        h = self.tok(input_ids) + self.pos(pos) + self.typ(token_type_ids)
        pad = input_ids == 0
        h = self.layer(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.cls(pooled)

mf.manual_seed(26)
model = TinyBert().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.AdamW(model.parameters(), lr=1e-3)
rng = np.random.default_rng(26)
ids = rng.integers(1, 40, (4, 10)); ids[0, 7:] = 0; ids[3, 5:] = 0
labels = rng.integers(0, 2, 4)
x = mf.tensor(ids, placement=mesh, sbp=mf.sbp.split(0)); y = mf.tensor(labels, placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
