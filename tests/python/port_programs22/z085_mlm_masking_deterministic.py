import torch

inputs = ints(30, 4, 10, seed=112) + 5
special = torch.zeros_like(inputs, dtype=torch.bool)
special[:, 0] = True
special[:, -1] = True
labels = inputs.clone()
u1 = torch.from_numpy(__import__("numpy").random.RandomState(113).rand(4, 10).astype("float32"))
u2 = torch.from_numpy(__import__("numpy").random.RandomState(114).rand(4, 10).astype("float32"))
u3 = torch.from_numpy(__import__("numpy").random.RandomState(115).rand(4, 10).astype("float32"))
probability_matrix = torch.full(labels.shape, 0.15)
probability_matrix.masked_fill_(special, value=0.0)
masked_indices = u1 < probability_matrix
labels[~masked_indices] = -100
indices_replaced = (u2 < 0.8) & masked_indices
inputs[indices_replaced] = 3
indices_random = (u3 < 0.5) & masked_indices & ~indices_replaced
random_words = ints(35, 4, 10, seed=116)
inputs[indices_random] = random_words[indices_random]
report(inputs=inputs, labels=labels, n_masked=masked_indices.sum(), n_rep=indices_replaced.sum(), n_rand=indices_random.sum(),
       dtype=masked_indices.dtype)
