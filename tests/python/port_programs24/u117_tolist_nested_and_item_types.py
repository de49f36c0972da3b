import torch

vals = {
    "f16": torch.tensor([0.1, 65504.0], dtype=torch.float16).tolist(),
    "bf16": torch.tensor([[1.1, 2.2]], dtype=torch.bfloat16).tolist(),
    "i8": torch.tensor([-1, 127], dtype=torch.int8).tolist(),
    "u8": torch.tensor([255], dtype=torch.uint8).tolist(),
    "b": torch.tensor([[True, False]]).tolist(),
    "c": [[z.real, z.imag] for z in torch.tensor([1 + 2j]).tolist()],
    "scalar": torch.tensor(2.5, dtype=torch.float64).tolist(),
    "empty": torch.zeros(0, 2).tolist(),
    "int_of": int(torch.tensor(-3.9)), "float_of": float(torch.tensor([7])), "bool_of": bool(torch.tensor([0.0])),
    "idx": [10, 20, 30][torch.tensor(1)], "range": list(range(torch.tensor(3))), "fmt": f"{torch.tensor(1.23456):.2f}",
    "round": round(torch.tensor(2.567).item(), 1), "hash_eq": torch.tensor(3).item() == 3, "types": [type(torch.tensor(1).item()).__name__, type(torch.tensor(1.0).item()).__name__],
}
report(**vals)
