import torch
img = torch.tensor([[0, 128, 255], [10, 20, 30]], dtype=torch.uint8)
f = img.float() / 255
back = (f * 255).round().to(torch.uint8)
over = torch.tensor([250], dtype=torch.uint8) + 10
neg = torch.tensor([3], dtype=torch.uint8) - 5
clip = (torch.tensor([-3.7, 300.2, 12.9]).clamp(0, 255)).to(torch.uint8)
trunc = torch.tensor([-3.7, 2.9]).to(torch.int64)
labels = torch.tensor([0, 2, 1])
mask = torch.tensor([True, False, True])
res = {
    "sum_mask": mask.sum(), "mean_img": img.float().mean(), "img_sum": img.sum(), "img_sum_dtype": str(img.sum().dtype),
    "div": torch.tensor([5, -5]) / 2, "fdiv": torch.div(torch.tensor([5, -5]), 2, rounding_mode="floor"),
    "trunc_div": torch.div(torch.tensor([5, -5]), 2, rounding_mode="trunc"), "floordiv": torch.tensor([5, -5]) // 2,
    "mod": torch.tensor([5, -5]) % 3, "fmod": torch.fmod(torch.tensor([5, -5]), 3), "rem": torch.remainder(torch.tensor([-5.5]), 2),
    "bool_add": (mask + mask), "bool_mul": mask * 2, "bool_float": mask.float(), "int_mean": labels.float().mean(),
    "lt": labels < 1.5, "prom": (labels + 0.5).dtype, "prom2": (img + torch.tensor(1)).dtype, "prom3": (img + 1.5).dtype,
    "i32_i64": (torch.tensor([1], dtype=torch.int32) + torch.tensor([1])).dtype, "u8_i8": (img[:1, :1] + torch.tensor([[1]], dtype=torch.int8)).dtype,
    "eq_float": labels == torch.tensor([0.0, 2.0, 1.5]), "any": mask.any(), "all": mask.all(), "nz": mask.nonzero().squeeze(1),
    "argmax_bool": torch.tensor([False, True, True]).int().argmax(), "cumsum_bool": mask.cumsum(0), "cumsum_dtype": str(mask.cumsum(0).dtype),
    "pow_int": torch.tensor([2, 3]) ** 2, "pow_neg": torch.tensor([2.0]) ** -1, "sqrt_int": torch.sqrt(torch.tensor([4])), "abs_u8": img.abs().dtype,
    "max_u8": img.max(), "idx_bool": labels[mask], "not": ~mask, "xor": mask ^ torch.tensor([True, True, False]), "bitand": torch.tensor([6]) & 3,
    "shift": torch.tensor([1]) << 3, "half": torch.tensor([65504.0], dtype=torch.float16) * 2, "bf16": torch.tensor([1.00390625]).bfloat16().float(),
    "over": over, "neg": neg, "clip": clip, "trunc": trunc, "back": back, "i64max": torch.iinfo(torch.int64).max, "finfo": torch.finfo(torch.float16).eps,
}
report(**res)
