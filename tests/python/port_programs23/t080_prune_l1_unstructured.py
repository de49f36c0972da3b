import torch
from torch import nn
import torch.nn.utils.prune as prune
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


model = det(LeNet(), scale=0.2)
module = model.conv1
before = [n for n, _ in module.named_parameters()]
prune.l1_unstructured(module, name="weight", amount=0.3)
after_params = [n for n, _ in module.named_parameters()]
after_buffers = [n for n, _ in module.named_buffers()]
w = module.weight
mask = module.weight_mask
equal = torch.equal(w, module.weight_orig * mask)
hooks = [type(h).__name__ for h in module._forward_pre_hooks.values()]
prune.l1_unstructured(module, name="bias", amount=3)
bias_mask = module.bias_mask
out = model(data(2, 1, 28, 28, seed=3))
prune.remove(module, 'weight')
final_params = [n for n, _ in module.named_parameters()]
final_buffers = [n for n, _ in module.named_buffers()]
report(before=before, after_params=after_params, after_buffers=after_buffers, mask_zeros=int((mask == 0).sum()),
       equal=equal, hooks=hooks, bias_mask=bias_mask, out=out, final_params=final_params, final_buffers=final_buffers,
       w_is_param=isinstance(module.weight, nn.Parameter), zeros=int((module.weight == 0).sum()), mask_dtype=mask.dtype)
