import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(6, 10)))
x = data(4, 6)
with torch.inference_mode():
    logits = model(x)
    probs = torch.softmax(logits / 2.0, dim=-1)
    top5 = torch.topk(probs, 5, dim=1)
    conf, pred = probs.max(dim=1)
    entropy = -(probs * probs.clamp_min(1e-12).log()).sum(1)
    ranks = probs.argsort(dim=1, descending=True).argsort(dim=1)
report(v=top5.values, i=top5.indices, conf=conf, pred=pred, entropy=entropy, ranks=ranks[:, 0])
