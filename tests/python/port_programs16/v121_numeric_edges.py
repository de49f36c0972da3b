import torch

h = torch.full((5000,), 0.1, dtype=torch.float16)
i32 = torch.full((3,), 2 ** 30, dtype=torch.int32)
x = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 3.5])
big = torch.tensor([1000.0, 1001.0, 999.0])
res = {
    "h_sum": h.sum(), "h_mean": h.mean(), "h_sum_dtype": h.sum().dtype, "h_cumsum_last": h.cumsum(0)[-1],
    "i32_sum": i32.sum(), "i32_sum_dtype": i32.sum().dtype, "i32_add": i32 + i32, "i32_mul": i32 * 4, "i32_prod": i32[:2].prod(),
    "round": torch.round(x), "round_h": torch.round(x.half()), "floor_div_neg": torch.tensor([-7.5]) // 2,
    "softmax_big": torch.softmax(big, 0), "lse_inf": torch.logsumexp(torch.tensor([float("-inf"), float("-inf")]), 0),
    "lse_mix": torch.logsumexp(torch.tensor([float("-inf"), 0.0]), 0), "std_const": torch.full((4,), 3.0).std(),
    "sort_zeros": torch.sort(torch.tensor([0.0, -0.0, 1.0, -1.0])).values, "log0": torch.log(torch.tensor([0.0])),
    "sqrt_neg": torch.sqrt(torch.tensor([-1.0])), "pow_int_neg": torch.tensor([2, 4]) ** 0, "int_pow": torch.tensor([3]) ** torch.tensor([2]),
    "f_pow_int": torch.tensor([2.0]) ** 3, "sigmoid_ext": torch.sigmoid(torch.tensor([-100.0, 100.0])), "tanh_ext": torch.tanh(torch.tensor([50.0])),
    "exp_over": torch.exp(torch.tensor([100.0])), "h_over": torch.tensor([70000.0]).half(), "bf16_add": torch.tensor([256.0], dtype=torch.bfloat16) + 1,
    "div0": torch.tensor([1.0, -1.0, 0.0]) / 0, "clamp_nan": torch.clamp(torch.tensor([float("nan")]), 0, 1),
    "atan2": torch.atan2(torch.tensor([0.0, -0.0]), torch.tensor([-1.0, -1.0])), "fmod_neg0": torch.fmod(torch.tensor([-4.0]), 2.0),
    "cumprod_h": torch.tensor([2.0] * 20, dtype=torch.float16).cumprod(0)[-1], "matmul_h": (torch.ones(1, 300, dtype=torch.float16) * 0.1) @ torch.ones(300, 1, dtype=torch.float16),
    "bf16_matmul": (torch.ones(1, 300, dtype=torch.bfloat16) * 0.1) @ torch.ones(300, 1, dtype=torch.bfloat16),
    "var_h": torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16).var(), "norm_h": torch.tensor([300.0, 400.0], dtype=torch.float16).norm(),
}
report(**res)
