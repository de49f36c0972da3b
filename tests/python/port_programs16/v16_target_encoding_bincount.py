import torch

cats = torch.tensor([0, 2, 1, 2, 2, 0, 3, 1, 2, 0])
y = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0])
counts = torch.bincount(cats, minlength=5)
sums = torch.zeros(5).scatter_add_(0, cats, y)
prior = y.mean()
m = 2.0
enc = (sums + m * prior) / (counts + m)
encoded = enc[cats]
wcounts = torch.bincount(cats, weights=y)
freq = counts.float() / counts.sum()
onehot = torch.nn.functional.one_hot(cats, num_classes=5)
idx_sum = torch.zeros(5, dtype=torch.float64).index_add_(0, cats, y.double(), alpha=0.5)
report(counts=counts, sums=sums, enc=enc, encoded=encoded, wcounts=wcounts, freq=freq,
       onehot_dtype=onehot.dtype, colsum=onehot.sum(0), idx_sum=idx_sum)
