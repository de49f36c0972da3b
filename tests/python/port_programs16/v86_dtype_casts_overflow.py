import torch

f = torch.tensor([-2.7, -0.5, 0.5, 2.7, 300.0])
res = {
    "to_int": f.to(torch.int32), "to_long": f.long(), "to_bool": f.bool(), "neg_u8": torch.tensor([-1, 256, 255]).to(torch.uint8),
    "i8_wrap": torch.tensor([127], dtype=torch.int8) + torch.tensor([1], dtype=torch.int8), "u8_sub": torch.tensor([3], dtype=torch.uint8) - 5,
    "half_round": torch.tensor([0.1, 65519.0, 1e-8]).half(), "bf16": torch.tensor([1.00390625, 3.14159]).bfloat16(),
    "iinfo": [torch.iinfo(torch.int16).max, torch.iinfo(torch.uint8).min, torch.iinfo(torch.int64).bits],
    "finfo": [torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).eps, torch.finfo(torch.float32).tiny, torch.finfo().resolution],
    "is_fp": [torch.ones(1).is_floating_point(), torch.ones(1, dtype=torch.int64).is_floating_point(), torch.float16.is_floating_point],
    "itemsize": [torch.ones(1, dtype=torch.float64).element_size(), torch.bfloat16.itemsize, torch.ones(2, dtype=torch.int16).nbytes],
    "type_str": [torch.ones(1).type(), torch.ones(1, dtype=torch.int64).type(), torch.ones(1, dtype=torch.bool).type()],
    "bool_sum": torch.tensor([True, True, True]).sum().dtype, "int_mean_err": None, "type_as": torch.ones(2).type_as(torch.tensor([1])),
    "double": torch.tensor([1 / 3]).double(), "py_list_mixed": torch.tensor([1, 2.5, True]), "py_bool_list": torch.tensor([True, False]).dtype,
    "is_signed": [torch.int8.is_signed, torch.uint8.is_signed], "view_dtype": torch.tensor([1.0, -2.0]).view(torch.int32),
}
try:
    torch.tensor([1, 2]).mean()
except RuntimeError:
    res["int_mean_err"] = "RuntimeError"
report(**res)
