import torch
import torch.nn.functional as F

logits = data(2, 3, 4, 4)
target = ints(3, 2, 4, 4, seed=5)
target[1, 0] = -1
valid = (target >= 0).unsqueeze(1).float()
probs = logits.softmax(1) * valid
oh = F.one_hot(target.clamp(min=0), 3).permute(0, 3, 1, 2).float() * valid
dims = (0, 2, 3)
inter = (probs * oh).sum(dims)
card = probs.sum(dims) + oh.sum(dims)
dice = (2 * inter + 1e-5) / (card + 1e-5)
present = oh.sum(dims) > 0
loss = 1 - dice[present].mean()
tversky = (inter + 1) / (inter + 0.3 * (probs * (1 - oh)).sum(dims) + 0.7 * ((1 - probs) * oh).sum(dims) + 1)
report(dice=dice, loss=loss.item(), tversky=tversky, present=present)
