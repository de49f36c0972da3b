import torch
from torch import nn
import torch.nn.utils.prune as prune

model = det(nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 20), nn.ReLU(), nn.Linear(20, 5)), seed=2)
parameters_to_prune = (
    (model[0], 'weight'),
    (model[3], 'weight'),
    (model[5], 'weight'),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
lines = []
for m, n in [(model[0], 'conv'), (model[3], 'fc1'), (model[5], 'fc2')]:
    lines.append("Sparsity in {}.weight: {:.2f}%".format(n, 100. * float(torch.sum(m.weight == 0)) / float(m.weight.nelement())))
total_zero = sum(float(torch.sum(m.weight == 0)) for m, _ in parameters_to_prune)
total = sum(float(m.weight.nelement()) for m, _ in parameters_to_prune)
lines.append("Global sparsity: {:.2f}%".format(100. * total_zero / total))
out = model(data(2, 1, 8, 8, seed=3))
for m, n in parameters_to_prune:
    prune.remove(m, n)
report(lines=lines, out=out, is_pruned=[prune.is_pruned(model[0]), prune.is_pruned(model)], sd=sorted(model.state_dict().keys()))
