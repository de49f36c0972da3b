import torch

logits = data(60, 4, seed=134, scale=2.0)
labels = ints(4, 60, seed=135)
probs = logits.softmax(1)
conf, pred = probs.max(1)
acc = pred.eq(labels)
n_bins = 5
boundaries = torch.linspace(0, 1, n_bins + 1)
ece = torch.zeros(1)
per_bin = []
for lo, hi in zip(boundaries[:-1], boundaries[1:]):
    in_bin = conf.gt(lo.item()) * conf.le(hi.item())
    prop = in_bin.float().mean()
    if prop.item() > 0:
        a = acc[in_bin].float().mean()
        c = conf[in_bin].mean()
        ece += torch.abs(c - a) * prop
    per_bin.append(int(in_bin.sum()))
bins = torch.bucketize(conf, boundaries[1:-1], right=False)
report(ece=ece, per_bin=per_bin, bins=torch.bincount(bins, minlength=n_bins), conf=conf[:6], brier=((probs - torch.nn.functional.one_hot(labels, 4)) ** 2).sum(1).mean(),
       nll=torch.nn.functional.nll_loss(probs.log(), labels))
