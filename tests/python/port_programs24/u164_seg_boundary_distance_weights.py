import torch
import torch.nn.functional as F

mask = torch.zeros(1, 1, 8, 8)
mask[..., 2:6, 3:7] = 1
kernel = torch.ones(1, 1, 3, 3)
dil = (F.conv2d(mask, kernel, padding=1) > 0).float()
ero = (F.conv2d(mask, kernel, padding=1) == 9).float()
boundary = dil - ero
pool_dil = F.max_pool2d(mask, 3, 1, 1)
pool_ero = -F.max_pool2d(-mask, 3, 1, 1)
weights = 1 + 4 * boundary
logits = data(1, 1, 8, 8)
wbce = F.binary_cross_entropy_with_logits(logits, mask, weight=weights)
report(boundary_sum=boundary.sum().item(), same_dil=torch.equal(dil, pool_dil), same_ero=torch.equal(ero, pool_ero), wbce=wbce.item(), row=boundary[0, 0, 2])
