import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

model = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 3)), seed=174)
ds = TensorDataset(data(13, 5, seed=175), ints(3, 13, seed=176))
loader = DataLoader(ds, batch_size=4)
crit = nn.CrossEntropyLoss()
losses, top1 = AverageMeter(), AverageMeter()
model.eval()
all_preds = []
with torch.no_grad():
    for x, y in loader:
        out = model(x)
        loss = crit(out, y)
        losses.update(loss.item(), x.size(0))
        pred = out.argmax(dim=1)
        top1.update(pred.eq(y).sum().item() * 100.0 / x.size(0), x.size(0))
        all_preds.append(pred)
preds = torch.cat(all_preds)
report(loss=losses.avg, top1=top1.avg, count=losses.count, preds=preds, last_val=losses.val,
       correct=(preds == ds.tensors[1]).sum().item())
