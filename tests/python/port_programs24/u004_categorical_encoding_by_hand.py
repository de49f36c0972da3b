import torch

cities = ["paris", "tokyo", "lima", "paris", "oslo", "tokyo", "paris", "lima"]
vocab = {c: i for i, c in enumerate(sorted(set(cities)))}
codes = torch.tensor([vocab[c] for c in cities])
onehot = torch.zeros(len(codes), len(vocab)).scatter_(1, codes.unsqueeze(1), 1.0)
counts = torch.bincount(codes, minlength=len(vocab))
freq = counts.float() / counts.sum()
freq_enc = freq[codes]
target = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0])
sums = torch.zeros(len(vocab)).index_add_(0, codes, target)
prior, m = target.mean(), 2.0
smoothed = (sums + m * prior) / (counts + m)
target_enc = smoothed[codes]
# ordinal from ranking
sizes = torch.tensor([3.0, 1.0, 2.0, 3.0, 5.0, 1.0])
uniq, inverse = torch.unique(sizes, sorted=True, return_inverse=True)
# hashing trick
ids = torch.tensor([12345, 987654, 42, 7, 12345])
hashed = (ids * 2654435761) % 8
report(codes=codes, onehot=onehot, counts=counts, freq_enc=freq_enc, smoothed=smoothed, target_enc=target_enc,
       uniq=uniq, inverse=inverse, hashed=hashed, vocab=vocab)
