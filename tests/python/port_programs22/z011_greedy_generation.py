import torch
import torch.nn as nn

class TinyLM(nn.Module):
    def __init__(self, v=11, d=8):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, v)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)

model = det(TinyLM(), seed=3, scale=0.6).eval()
input_ids = torch.tensor([[1, 2], [4, 7]])
eos = 3
unfinished = torch.ones(2, dtype=torch.long)
with torch.no_grad():
    for _ in range(6):
        logits = model(input_ids)[:, -1, :]
        next_tokens = torch.argmax(logits, dim=-1)
        next_tokens = next_tokens * unfinished + 0 * (1 - unfinished)
        input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
        unfinished = unfinished & (next_tokens != eos).long()
        if unfinished.max() == 0:
            break
report(ids=input_ids, unfinished=unfinished, scores=torch.log_softmax(logits, -1).max(-1).values)
