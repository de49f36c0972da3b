import numpy as np
import torch
t = torch.tensor(2.5)
i = torch.tensor(3)
res = {"fmt": f"{t:.2f}", "fmt_i": f"{i:03d}" if hasattr(i, "__format__") else None, "float": float(t), "int": int(t), "bool": bool(torch.tensor([0.0])), "index": [10, 20, 30, 40][i],
       "range": list(range(i)), "np": np.array(torch.tensor([1, 2])).tolist(), "np_dt": str(np.asarray(torch.tensor([1.0])).dtype), "len": len(torch.zeros(4, 2)), "iter": [x.tolist() for x in torch.arange(4).view(2, 2)],
       "contains": 3 in torch.tensor([1, 2, 3]), "hash_eq": t.item() == 2.5, "round": round(t.item()), "math": abs(torch.tensor(-1.5)), "neg": -torch.tensor([1]), "complex": str(complex(torch.tensor(1.5))),
       "mul_list": (torch.tensor([1, 2]) * 2).tolist(), "rmatmul": (np.eye(2) @ np.ones(2)).tolist(), "bf16_list": torch.tensor([1.5, 2.25]).bfloat16().tolist(), "item_type": type(torch.tensor([1], dtype=torch.uint8).item()).__name__,
       "pow_rev": (2 ** torch.tensor([1, 2])).tolist(), "sorted": sorted(torch.tensor([3, 1, 2]).tolist()), "max_builtin": max(torch.tensor([1, 5, 2])).item(),
       "sum_builtin": sum(torch.tensor([1.0, 2.0])).item(), "zip": [(a.item(), b.item()) for a, b in zip(torch.tensor([1, 2]), torch.tensor([3, 4]))], "str_bool": str(torch.tensor(True))}
report(**res)
