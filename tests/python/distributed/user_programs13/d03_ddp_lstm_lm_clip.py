import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class LM(nn.Module):
    def __init__(self, vocab=20, emb=8, hid=12, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid, num_layers=layers, batch_first=True)
        self.out = nn.Linear(hid, vocab)
    def forward(self, x, state=None):
        h, state = self.rnn(self.emb(x), state)
        return self.out(h), state

dist.init_process_group("gloo")
rank = dist.get_rank()
meshflow.manual_seed(0)
model = LM()
g = np.random.default_rng(11)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy(g.uniform(-0.3, 0.3, tuple(p.shape)).astype(np.float32)))
model = DDP(model)
opt = meshflow.optim.SGD(model.parameters(), lr=0.5)
stream = np.random.default_rng(12 + rank).integers(0, 20, (3, 31))
state = None
losses = []
for i in range(0, 30, 6):
    x = meshflow.from_numpy(stream[:, i:i + 6]); y = meshflow.from_numpy(stream[:, i + 1:i + 7])
    if state is not None:
        state = tuple(s.detach() for s in state)
    logits, state = model(x, state)
    loss = F.cross_entropy(logits.reshape(-1, 20), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    losses.append(round(loss.item(), 4))
ppl = meshflow.tensor([sum(losses) / len(losses)])
dist.all_reduce(ppl)
print("RESULT", rank, json.dumps({"losses": losses, "mean_loss": round(ppl.item() / 2, 4),
                                  "h": [round(v, 4) for v in state[0][-1].sum(1).tolist()],
                                  "w_ih": round(model.module.rnn.weight_ih_l1.sum().item(), 4)}))
dist.destroy_process_group()
