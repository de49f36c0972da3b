import torch
import torch.nn.functional as F


def focal_heatmap_loss(pred, gt, alpha=2, beta=4):
    pos = gt.eq(1).float()
    neg = gt.lt(1).float()
    neg_w = torch.pow(1 - gt, beta)
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos_loss = (torch.log(pred) * torch.pow(1 - pred, alpha) * pos).sum()
    neg_loss = (torch.log(1 - pred) * torch.pow(pred, alpha) * neg_w * neg).sum()
    num_pos = pos.sum()
    return -neg_loss if num_pos == 0 else -(pos_loss + neg_loss) / num_pos


def nms_peaks(heat, k=5):
    hmax = F.max_pool2d(heat, 3, stride=1, padding=1)
    keep = (hmax == heat).float()
    heat = heat * keep
    b, c, h, w = heat.shape
    scores, inds = torch.topk(heat.view(b, -1), k)
    clses = inds // (h * w)
    inds = inds % (h * w)
    return scores, clses, inds // w, inds % w


yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
gt = torch.exp(-((xx - 3) ** 2 + (yy - 2) ** 2) / 2.0).unsqueeze(0).unsqueeze(0)
gt = torch.cat([gt, torch.exp(-((xx - 6) ** 2 + (yy - 5) ** 2) / 3.0)[None, None]], 1)
logits = data(1, 2, 8, 8).requires_grad_()
loss = focal_heatmap_loss(torch.sigmoid(logits), gt)
loss.backward()
s, c, y, x = nms_peaks(torch.sigmoid(logits.detach() + 3 * gt))
report(loss=loss.item(), g=logits.grad[0, 0, 2], scores=s, cls=c, ys=y, xs=x, npos=int(gt.eq(1).sum()))
