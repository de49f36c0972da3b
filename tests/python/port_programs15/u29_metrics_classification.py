import torch


def confusion_matrix(pred, target, n):
    idx = target * n + pred
    return torch.bincount(idx, minlength=n * n).reshape(n, n)


def precision_recall_f1(cm):
    tp = cm.diag().float()
    precision = tp / cm.sum(0).clamp(min=1)
    recall = tp / cm.sum(1).clamp(min=1)
    f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-12)
    return precision, recall, f1


def roc_auc(scores, labels):
    order = torch.argsort(scores, descending=True)
    l = labels[order].float()
    tps = torch.cumsum(l, 0)
    fps = torch.cumsum(1 - l, 0)
    tpr = torch.cat([torch.zeros(1), tps / tps[-1]])
    fpr = torch.cat([torch.zeros(1), fps / fps[-1]])
    return torch.trapz(tpr, fpr)


logits = data(30, 4)
target = ints(4, 30)
pred = logits.argmax(dim=1)
cm = confusion_matrix(pred, target, 4)
p, r, f1 = precision_recall_f1(cm)
top2 = (logits.topk(2, dim=1).indices == target[:, None]).any(1).float().mean()
scores = torch.sigmoid(logits[:, 0])
binlab = (target == 0).long()
auc = roc_auc(scores, binlab)
bal_acc = r.mean()
mcc_num = (cm.diag().sum() * cm.sum() - (cm.sum(0) * cm.sum(1)).sum()).float()
mcc_den = torch.sqrt((cm.sum() ** 2 - (cm.sum(0) ** 2).sum()).float() * (cm.sum() ** 2 - (cm.sum(1) ** 2).sum()).float())
report(cm=cm, p=p, r=r, f1=f1, macro=f1.mean().item(), top2=top2, auc=auc, bal=bal_acc, mcc=(mcc_num / mcc_den).item())
