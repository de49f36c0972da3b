import torch


class Accuracy:
    def __init__(self, num_classes):
        self.cm = torch.zeros(num_classes, num_classes, dtype=torch.int64)

    def update(self, logits, target):
        pred = logits.argmax(-1)
        idx = target * self.cm.size(0) + pred
        self.cm += torch.bincount(idx, minlength=self.cm.numel()).view_as(self.cm)

    def compute(self):
        tp = self.cm.diag().float()
        prec = tp / self.cm.sum(0).float().clamp(min=1)
        rec = tp / self.cm.sum(1).float().clamp(min=1)
        f1 = 2 * prec * rec / (prec + rec).clamp(min=1e-12)
        return {"acc": (tp.sum() / self.cm.sum()).item(), "macro_f1": f1.mean().item(), "prec": prec, "rec": rec}


acc = Accuracy(3)
for s in range(3):
    acc.update(data(5, 3, seed=s), ints(3, 5, seed=10 + s))
res = acc.compute()
scores = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.2])
truth = torch.tensor([1, 1, 0, 1, 0, 0, 1, 0])
order = scores.argsort(descending=True)
tps = truth[order].cumsum(0)
fps = (1 - truth[order]).cumsum(0)
tpr = tps / truth.sum()
fpr = fps / (1 - truth).sum()
auc = torch.trapz(torch.cat([torch.zeros(1), tpr]), torch.cat([torch.zeros(1), fpr]))
report(cm=acc.cm, res=res, tpr=tpr, auc=auc.item(), trapz_dtype=auc.dtype, tps_dtype=tps.dtype)
