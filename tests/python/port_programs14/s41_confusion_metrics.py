import torch

pred_logits = data(20, 4)
target = ints(4, 20)
pred = pred_logits.argmax(dim=1)
K = 4
cm = torch.bincount(target * K + pred, minlength=K * K).reshape(K, K)
cm2 = torch.zeros(K, K, dtype=torch.long)
cm2.index_put_((target, pred), torch.ones_like(target), accumulate=True)
cm3 = torch.zeros(K * K).scatter_add_(0, target * K + pred, torch.ones(20)).view(K, K)
tp = cm.diag()
precision = tp.float() / cm.sum(0).clamp(min=1)
recall = tp.float() / cm.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall + 1e-12)
top2 = pred_logits.topk(2, dim=1).indices
top2_acc = (top2 == target.unsqueeze(1)).any(dim=1).float().mean()
acc = (pred == target).sum().item() / len(target)
balanced = recall.mean()
report(cm=cm, same=torch.equal(cm, cm2), cm3=cm3, cm3dt=cm3.dtype, precision=precision, recall=recall, f1=f1, top2=top2_acc,
       acc=acc, bal=balanced, macro=f1.mean().item())
