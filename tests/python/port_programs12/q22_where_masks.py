import torch
x = data(4, 5); y = data(4, 5, seed=3)
res = {}
res["w1"] = torch.where(x > 0, x, torch.zeros_like(x))
res["w2"] = torch.where(x > 0.5, 1.0, torch.where(x < -0.5, -1.0, 0.0))
res["w3"] = torch.where((x > 0) & (y > 0), x * y, torch.where((x < 0) | (y < 0), x - y, x + y))
res["w_int"] = torch.where(x > 0, 1, 0)
res["w_scalar_t"] = torch.where(x > 0, 2, y)
res["nz"] = torch.where(x > 1)
res["mf"] = x.masked_fill(x < y, -1e9)
res["mf2"] = x.masked_fill((x > 0).logical_and(y > 0), float("nan")).isnan().sum()
m = x > 0
res["logic"] = [m.logical_not(), torch.logical_xor(m, y > 0), m ^ (y > 0), ~m | (y > 1), m.int().sum(dim=1), m.sum(), m.float().mean(), m.any(dim=1), m.all(dim=0), m.any(), m.all()]
res["count"] = [torch.count_nonzero(m, dim=0), torch.count_nonzero(x)]
res["nonzero"] = [m.nonzero(), torch.nonzero(m, as_tuple=True)[1], torch.argwhere(m).shape]
res["clamp_t"] = torch.clamp(x, min=y, max=y + 1)
res["clamp_mix"] = x.clamp(min=torch.zeros(5), max=torch.tensor(0.5))
res["sel"] = x[m]
res["sel2"] = x[m.any(1)]
res["ms"] = torch.masked_select(x, y > 0)
z = x.clone(); z[z < 0] = 0; z[(z > 1) & (z < 2)] *= 10
res["z"] = z
res["tril_mask"] = x[torch.tril(torch.ones(4, 5, dtype=torch.bool))]
res["inv_tril"] = x.masked_fill(~torch.tril(torch.ones(4, 5)).bool(), 0)
res["cmp_dtypes"] = [str((x > 0).dtype), str((x == y).dtype), str(torch.eq(x, 0).dtype), str(torch.isclose(x, x + 1e-9).dtype), str(m.float().dtype), str(torch.where(m, 1, 0).dtype)]
res["eq"] = [torch.equal(x, x.clone()), (x == x).all().item(), torch.allclose(x, x + 1e-7)]
res["maxmin"] = [torch.maximum(x, y), torch.fmax(x, torch.full_like(x, float("nan"))), torch.minimum(x, torch.tensor(0.0))]
res["sign"] = [torch.sign(x).int(), torch.signbit(x), torch.heaviside(x, torch.tensor(0.5)), torch.copysign(torch.ones(5), x[0])]
report(**res)
