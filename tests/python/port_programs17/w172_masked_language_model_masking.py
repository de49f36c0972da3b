import torch

torch.manual_seed(0)
inputs = torch.tensor([[101, 7, 8, 9, 10, 102, 0, 0], [101, 11, 12, 13, 14, 15, 16, 102]])
special = (inputs == 101) | (inputs == 102) | (inputs == 0)
labels = inputs.clone()
prob = torch.full(labels.shape, 0.15)
prob.masked_fill_(special, value=0.0)
masked = torch.bernoulli(prob).bool()
labels[~masked] = -100
replaced = torch.bernoulli(torch.full(labels.shape, 0.8)).bool() & masked
inputs2 = inputs.clone()
inputs2[replaced] = 103
rnd = torch.bernoulli(torch.full(labels.shape, 0.5)).bool() & masked & ~replaced
words = torch.randint(200, labels.shape, dtype=torch.long)
inputs2[rnd] = words[rnd]
report(special_never=bool((masked & special).sum() == 0), lab_ok=bool(((labels == -100) | masked).all()), kept=bool((inputs2[~masked] == inputs[~masked]).all()),
       dt=labels.dtype, wdt=words.dtype, pm=prob)
