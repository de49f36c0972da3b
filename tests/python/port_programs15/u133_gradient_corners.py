import torch
import torch.nn.functional as F


def g(f, x):
    x = x.clone().requires_grad_(True)
    f(x).sum().backward()
    return x.grad


t = torch.tensor([0.0, 1.0, 1.0, -2.0])
r = {}
r["abs0"] = g(torch.abs, t)
r["relu0"] = g(F.relu, t)
r["amax_ties"] = g(lambda x: x.amax(), t)
r["max_ties"] = g(lambda x: x.max(), t)
r["max_dim_ties"] = g(lambda x: x.view(2, 2).max(1).values, t)
r["amax_dim_ties"] = g(lambda x: x.view(2, 2).amax(0), torch.tensor([1.0, 2.0, 1.0, 2.0]))
r["min_pair"] = g(lambda x: torch.minimum(x, torch.ones(4)), t)
r["clamp_edge"] = g(lambda x: x.clamp(0.0, 1.0), t)
r["sort_grad"] = g(lambda x: x.sort().values * torch.arange(4.0), t)
r["topk_grad"] = g(lambda x: x.topk(2).values, t)
r["median_grad"] = g(lambda x: x.median(), torch.tensor([3.0, 1.0, 2.0, 5.0]))
r["norm_zero"] = g(lambda x: x.norm(), torch.zeros(3))
r["pow00"] = g(lambda x: x ** 0.0, torch.tensor([0.0, 2.0]))
r["pow_int0"] = g(lambda x: x ** 2, torch.tensor([0.0]))
r["where_nan_trick"] = g(lambda x: torch.where(x > 0, torch.sqrt(x.clamp(min=1e-12)), torch.zeros_like(x)), t)
r["where_nan_naive"] = g(lambda x: torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x)), t)
r["softmax_all_inf"] = torch.softmax(torch.tensor([[-float("inf"), -float("inf")], [0.0, 1.0]]), -1)
r["logsumexp_inf_grad"] = g(lambda x: torch.logsumexp(x, 0), torch.tensor([-float("inf"), 0.0]))
r["log_softmax_inf"] = F.log_softmax(torch.tensor([-float("inf"), 0.0, 1.0]), 0)
r["bce_extreme"] = F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0]))
r["bcel_extreme"] = F.binary_cross_entropy_with_logits(torch.tensor([100.0, -100.0]), torch.tensor([0.0, 1.0]))
r["sign_grad"] = g(torch.sign, t)
r["round_grad"] = g(torch.round, t)
r["hardtanh_edge"] = g(lambda x: F.hardtanh(x, -2.0, 1.0), t)
r["leaky_edge"] = g(lambda x: F.leaky_relu(x, 0.1), t)
r["elu0"] = g(F.elu, t)
r["cumprod_zero"] = g(lambda x: x.cumprod(0), torch.tensor([2.0, 0.0, 3.0]))
r["prod_zero"] = g(lambda x: x.prod(), torch.tensor([2.0, 0.0, 3.0]))
r["prod_two_zero"] = g(lambda x: x.prod(), torch.tensor([0.0, 0.0, 3.0]))
r["std_single"] = torch.tensor([1.0]).std()
r["div_zero_grad"] = g(lambda x: 1.0 / x, torch.tensor([0.0, 2.0]))
r["atan2_origin"] = g(lambda x: torch.atan2(x, torch.zeros(2)), torch.tensor([0.0, 1.0]))
r["dist_zero"] = g(lambda x: F.pairwise_distance(x.view(1, 2), torch.zeros(1, 2)), torch.zeros(2))
r["cosine_zero"] = F.cosine_similarity(torch.zeros(1, 3), torch.ones(1, 3))
r["normalize_zero"] = F.normalize(torch.zeros(2, 3), dim=1)
report(**r)
