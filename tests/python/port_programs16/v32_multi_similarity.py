import torch
import torch.nn.functional as F


def multi_similarity_loss(feats, labels, thresh=0.5, margin=0.1, scale_pos=2.0, scale_neg=40.0):
    sim = feats @ feats.t()
    losses = []
    for i in range(feats.size(0)):
        pos = sim[i][labels == labels[i]]
        pos = pos[pos < 1 - 1e-5]
        neg = sim[i][labels != labels[i]]
        if len(pos) == 0 or len(neg) == 0:
            continue
        neg_ = neg[neg + margin > torch.min(pos)]
        pos_ = pos[pos - margin < torch.max(neg)]
        if len(neg_) < 1 or len(pos_) < 1:
            continue
        pl = 1.0 / scale_pos * torch.log(1 + torch.sum(torch.exp(-scale_pos * (pos_ - thresh))))
        nl = 1.0 / scale_neg * torch.log(1 + torch.sum(torch.exp(scale_neg * (neg_ - thresh))))
        losses.append(pl + nl)
    if not losses:
        return torch.zeros([], requires_grad=True)
    return sum(losses) / feats.size(0)


raw = data(8, 5).requires_grad_()
labels = torch.tensor([0, 0, 1, 1, 2, 2, 3, 0])
loss = multi_similarity_loss(F.normalize(raw, dim=1), labels)
loss.backward()
circle_sp = torch.tensor([0.8, 0.6])
circle_sn = torch.tensor([0.3, 0.5, 0.1])
ap = torch.clamp_min(-circle_sp.detach() + 1 + 0.25, 0.0)
an = torch.clamp_min(circle_sn.detach() + 0.25, 0.0)
circle = F.softplus(torch.logsumexp(an * (circle_sn - 0.25) * 32, 0) + torch.logsumexp(-ap * (circle_sp - 0.75) * 32, 0))
report(loss=loss.item(), grad=raw.grad[:2], circle=circle.item())
