import torch
g = torch.Generator().manual_seed(3)
res = {}
res["shapes"] = [torch.zeros(size=(2, 3)).shape, torch.ones((2, 3)).shape, torch.empty(2, 3).shape, torch.randn(2, 3, generator=g).shape, torch.rand((4,), generator=g).shape,
                 torch.randint(0, 5, (3, 2), generator=g).dtype, torch.randint(5, size=(2,)).shape, torch.randperm(6, generator=g).sort().values, torch.normal(torch.zeros(3), torch.ones(3)).shape,
                 torch.normal(0.0, 1.0, size=(2, 2)).shape, torch.rand_like(torch.zeros(2, dtype=torch.float64)).dtype, torch.randint_like(torch.zeros(3), 10).dtype, torch.randn_like(torch.zeros(1, 2)).shape]
res["vals"] = [torch.arange(start=1, end=7, step=2), torch.linspace(0, 1, steps=5), torch.eye(2, 3, dtype=torch.int64), torch.full_like(torch.zeros(2), 7, dtype=torch.int32), torch.empty_like(torch.zeros(2, 2)).fill_(3.5),
               torch.zeros(3).new_ones(2), torch.zeros(3, dtype=torch.float64).new_full((2,), 1.5), torch.zeros(1).new_tensor([1, 2]), torch.zeros(1, dtype=torch.float64).new_tensor([1.0]).dtype, torch.zeros(2).new_zeros((1, 2)),
               torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]), torch.stack([torch.tensor(1), torch.tensor(2)]), torch.tensor(5.0, requires_grad=True).requires_grad, torch.empty(0).numel(),
               torch.arange(10).reshape(2, 5)[:, ::2], torch.tensor([[1, 2], [3, 4]], dtype=torch.float16).dtype, torch.tensor(True).dtype, torch.tensor([1, 2], dtype=torch.bool), torch.as_tensor([1.5, 2.5], dtype=torch.float64),
               torch.scalar_tensor(3), torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)), torch.polar(torch.tensor(1.0), torch.tensor(0.0)).real if False else None, torch.tril(torch.ones(3, 3), diagonal=-1), torch.triu(torch.ones(2, 3, dtype=torch.int64), 1),
               torch.diag(torch.tensor([1, 2])), torch.diag(torch.arange(9).view(3, 3), 1), torch.diagflat(torch.tensor([1.0, 2.0]), offset=1), torch.vander(torch.tensor([1, 2, 3]), N=3), torch.logspace(0, 3, 4, base=2)]
g1 = torch.Generator().manual_seed(7); g2 = torch.Generator().manual_seed(7)
res["gen_same"] = torch.equal(torch.randn(5, generator=g1), torch.randn(5, generator=g2))
torch.manual_seed(11); a = torch.rand(3); torch.manual_seed(11); b = torch.rand(3)
state = torch.get_rng_state(); c = torch.rand(2); torch.set_rng_state(state); d = torch.rand(2)
res["seed_same"] = [torch.equal(a, b), torch.equal(c, d), torch.initial_seed()]
with torch.random.fork_rng():
    torch.manual_seed(0); torch.rand(1)
res["bern"] = [torch.bernoulli(torch.ones(3)).tolist(), torch.bernoulli(torch.zeros(2)).tolist(), torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2, replacement=True).tolist()]
res["dropout_eval"] = torch.nn.functional.dropout(torch.ones(3), p=0.5, training=False)
res["dropout_scale"] = set(torch.nn.functional.dropout(torch.ones(1000), p=0.5).unique().tolist()) <= {0.0, 2.0}
report(**res)
