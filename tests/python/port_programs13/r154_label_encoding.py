import torch
labels = ["cat", "dog", "bird", "dog", "cat", "fish"]
classes = sorted(set(labels))
idx = torch.tensor([classes.index(l) for l in labels])
counts = torch.bincount(idx, minlength=len(classes))
weights = 1.0 / counts.float()
sample_w = weights[idx]
norm_w = sample_w / sample_w.sum()
class_w = len(labels) / (len(classes) * counts.float())
multi = torch.zeros(3, len(classes))
multi[torch.tensor([0, 0, 1, 2]), torch.tensor([0, 2, 1, 3])] = 1
ordinal = (torch.arange(4).unsqueeze(0) < torch.tensor([[1], [3], [0]])).float()
report(idx=idx, counts=counts, norm_w=norm_w, class_w=class_w, multi=multi, ordinal=ordinal, argmax=multi.argmax(1))
