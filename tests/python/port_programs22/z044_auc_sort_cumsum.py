import torch

def roc_auc(scores, labels):
    order = torch.argsort(scores, descending=True)
    labels = labels[order].float()
    tps = torch.cumsum(labels, dim=0)
    fps = torch.cumsum(1 - labels, dim=0)
    tpr = torch.cat([torch.zeros(1), tps / tps[-1]])
    fpr = torch.cat([torch.zeros(1), fps / fps[-1]])
    return torch.trapz(tpr, fpr), tpr, fpr

def auc_rank(scores, labels):
    ranks = torch.empty_like(scores)
    ranks[scores.argsort()] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels.bool()
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)

def average_precision(scores, labels):
    order = torch.argsort(scores, descending=True)
    l = labels[order].float()
    prec = torch.cumsum(l, 0) / torch.arange(1, len(l) + 1)
    return (prec * l).sum() / l.sum()

s = data(40, seed=51)
lab = (s + data(40, seed=52) > 0.3).long()
auc, tpr, fpr = roc_auc(s, lab)
report(auc=auc, auc_rank=auc_rank(s, lab), ap=average_precision(s, lab), tpr=tpr[::8], fpr=fpr[::8],
       trapz=torch.trapezoid(torch.tensor([1.0, 2, 4]), torch.tensor([0.0, 1, 3])))
