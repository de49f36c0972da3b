import torch

logits = data(10, 4, seed=172, scale=2.0)
targets = (data(10, 4, seed=173) > 0.2).long()
probs = torch.sigmoid(logits)
preds = (probs > 0.5).long()
tp = (preds * targets).sum(0)
fp = (preds * (1 - targets)).sum(0)
fn = ((1 - preds) * targets).sum(0)
precision = tp / (tp + fp).clamp(min=1)
recall = tp / (tp + fn).clamp(min=1)
micro_p = tp.sum() / (tp.sum() + fp.sum())
exact = (preds == targets).all(1).float().mean()
hamming = (preds != targets).float().mean()
cm = torch.zeros(2, 2, dtype=torch.long)
cm.index_put_((targets[:, 0], preds[:, 0]), torch.ones(10, dtype=torch.long), accumulate=True)
thr = torch.linspace(0.1, 0.9, 5)
f1s = []
for th in thr:
    p = (probs > th).float()
    f1s.append((2 * (p * targets).sum() / (p.sum() + targets.sum())).item())
report(precision=precision, recall=recall, micro_p=micro_p, exact=exact, hamming=hamming, cm=cm, f1s=f1s, dtype=precision.dtype,
       best=thr[torch.tensor(f1s).argmax()])
