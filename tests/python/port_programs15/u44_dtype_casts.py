import torch

r = {}
u = torch.tensor([250, 5, 128], dtype=torch.uint8)
r["u_add"] = u + torch.tensor([10, 3, 128], dtype=torch.uint8)
r["u_sub"] = u - 6
r["u_neg_promote"] = (u.to(torch.int16) - 300).dtype
i8 = torch.tensor([120, -128, 7], dtype=torch.int8)
r["i8_add"] = i8 + 10
r["i8_to_u8"] = i8.to(torch.uint8)
r["f_to_u8"] = torch.tensor([-1.7, 3.9, 255.5, 300.0]).to(torch.int32)
r["half"] = torch.tensor([1 / 3, 65504.0, 1e-8, 70000.0]).half()
r["bf16"] = torch.tensor([1 / 3, 3.14159, 1e30, 1.00390625]).bfloat16()
r["half_sum"] = torch.full((1000,), 0.1, dtype=torch.float16).sum()
r["bf16_mm"] = (torch.ones(4, 4, dtype=torch.bfloat16) * 0.1) @ torch.ones(4, 4, dtype=torch.bfloat16)
r["promote_int_float"] = (torch.tensor([1, 2]) * 1.5).dtype
r["promote_half_int"] = (torch.tensor([1.5], dtype=torch.half) + torch.tensor([2])).dtype
r["promote_scalar"] = (torch.tensor([1], dtype=torch.int8) + 1000).dtype
r["bool_sum"] = torch.tensor([True, True, False]).sum()
r["bool_sum_dtype"] = torch.tensor([True]).sum().dtype
r["int_div"] = torch.tensor([7, -7]) / 2
r["floor_div"] = torch.tensor([7, -7]) // 2
r["trunc_div"] = torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc")
r["remainder"] = torch.tensor([7, -7]) % 3
r["fmod"] = torch.fmod(torch.tensor([7., -7.]), 3)
r["double"] = torch.tensor([0.1], dtype=torch.float64) + torch.tensor([0.2])
r["result_type"] = str(torch.result_type(torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8)))
r["promote_types"] = str(torch.promote_types(torch.bfloat16, torch.float16))
r["can_cast"] = [torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32)]
r["finfo"] = [torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).eps, torch.iinfo(torch.int8).min]
r["is_fp"] = [torch.tensor([1]).is_floating_point(), torch.zeros(1, dtype=torch.half).is_floating_point()]
r["elem"] = [torch.zeros(1, dtype=d).element_size() for d in (torch.uint8, torch.float16, torch.int32, torch.float64)]
r["type_str"] = torch.zeros(2, dtype=torch.int16).type()
report(**r)
