import torch

labels = ["cat", "dog", "cat", "bird", "dog", "dog"]
classes = sorted(set(labels))
idx = torch.tensor([classes.index(l) for l in labels])
freq = torch.bincount(idx).float()
weights = freq.sum() / (len(classes) * freq)
sample_w = weights[idx]
inv = [classes[i] for i in idx.tolist()]
loss = torch.nn.CrossEntropyLoss(weight=weights)(data(6, 3, seed=3), idx)
report(idx=idx, freq=freq, weights=weights, sw=sample_w, ok=inv == labels, loss=loss, mode=torch.mode(idx).values)
