import torch
from torch import nn
import torch.nn.utils.prune as prune


class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


model = det(nn.Linear(3, 4), seed=1)
foobar_unstructured(model, name='bias')
bm = model.bias_mask
prune.random_unstructured(model, name='weight', amount=0.5)
n_zero = int((model.weight_mask == 0).sum())
sd_keys = sorted(model.state_dict().keys())
torch.save(model.state_dict(), 'pruned.pt')
loaded = torch.load('pruned.pt', weights_only=True)
report(bm=bm, bias=model.bias, n_zero=n_zero, sd_keys=sd_keys, loaded_keys=sorted(loaded.keys()),
       frac=float(model.weight_mask.mean()))
