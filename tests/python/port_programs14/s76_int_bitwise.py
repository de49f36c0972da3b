import torch

a = torch.tensor([12, 10, 7, -3])
u = torch.tensor([0b1100, 0b1010, 255, 1], dtype=torch.uint8)
out = {
    "and": a & 6, "or": a | 1, "xor": a ^ a.flip(0), "not": ~a, "not_bool": ~torch.tensor([True, False]), "not_u8": ~u,
    "lshift": a << 2, "rshift": a >> 1, "u8_shift": u << 1, "gcd": torch.gcd(a, torch.tensor([8, 15, 14, 6])), "lcm": torch.lcm(a[:3], torch.tensor([8, 15, 14])),
    "floor_div_neg": a // 5, "mod_neg": a % 5, "true_div": a / 4, "int_pow": a ** 2, "abs": a.abs(), "clamp_int": a.clamp(0, 10),
    "int_mean_via_float": a.float().mean(), "max_int": a.max(), "argmax": a.argmax(), "sum_dtype": a.sum(dtype=torch.int32), "bool_sum": (a > 0).sum(),
    "u8_sub_wrap": u - 20, "i8_overflow": torch.tensor([100], dtype=torch.int8) + torch.tensor([100], dtype=torch.int8),
    "logical": torch.logical_xor(a > 0, u > 5), "cast_neg_u8": torch.tensor([-1.0, 300.5]).to(torch.int32), "float_to_int_trunc": torch.tensor([-1.7, 2.9]).long(),
    "bool_to_int": torch.tensor([True, False]).int(), "int_to_bool": a.bool(), "bitwise_and_bool": torch.tensor([True, True]) & torch.tensor([True, False]),
    "mul_bool": torch.tensor([True, False]) * torch.tensor([3, 4]), "where_scalar": torch.where(a > 0, a, 0),
}
report(**out)
