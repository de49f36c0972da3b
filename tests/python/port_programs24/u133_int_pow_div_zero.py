import torch

i = torch.tensor([2, -3, 0])
res = {"pow_pos": i ** 2, "pow_t": torch.tensor([2, 3]) ** torch.tensor([3, 2]), "true_div0": (i / 0).tolist(), "float_fdiv0": (i.float() // 0).tolist(),
       "pow_float": i ** 0.5, "rpow": 2 ** i.clamp(min=0), "int_fmod_f": torch.fmod(i, 1.5), "remainder_f": torch.remainder(i, 2.5)}
try:
    torch.tensor([1, 2]) ** -1
    res["neg_pow"] = "ok"
except RuntimeError as e:
    res["neg_pow"] = "RuntimeError"
res["neg_pow_float"] = torch.tensor([1.0, 2.0]) ** -1
res["pow_0_0"] = torch.tensor([0.0]) ** 0
res["float_pow_int_t"] = torch.tensor([2.0]) ** torch.tensor([3])
report(**res)
