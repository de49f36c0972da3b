# TOL 1e-3
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR

def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, last_epoch=-1):
    def lr_lambda(current_step: int):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))
    return LambdaLR(optimizer, lr_lambda, last_epoch)

class TinyBert(nn.Module):
    def __init__(self, vocab=30, d=8, n_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 2, 16, dropout=0.1, activation="gelu", batch_first=True), 2,
                                         enable_nested_tensor=False)
        self.pooler = nn.Sequential(nn.Linear(d, d), nn.Tanh())
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(d, n_labels)

    def forward(self, ids, mask):
        h = self.emb(ids) + self.pos(torch.arange(ids.size(1)))[None]
        h = self.enc(h, src_key_padding_mask=mask == 0)
        return self.classifier(self.dropout(self.pooler(h[:, 0])))

model = det(TinyBert(), seed=153)
ids = ints(29, 6, 7, seed=154) + 1
mask = torch.ones_like(ids)
mask[0, 5:] = 0
mask[3, 3:] = 0
ids = ids * mask
labels = torch.tensor([0, 1, 2, 0, 1, 2])
no_decay = ["bias", "norm"]
groups = [{"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
          {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0}]
opt = torch.optim.AdamW(groups, lr=5e-3)
sched = get_linear_schedule_with_warmup(opt, 2, 6)
model.eval()
ls, lrs = [], []
for step in range(6):
    loss = nn.functional.cross_entropy(model(ids, mask), labels)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    ls.append(loss.item())
    lrs.append(sched.get_last_lr()[0])
with torch.no_grad():
    pred = model(ids, mask).argmax(-1)
report(ls=ls, lrs=lrs, pred_shape=pred.shape, n_groups=[len(g["params"]) for g in opt.param_groups])
