import copy
import pickle
import torch
# Written first comparing t.data_ptr() with a view's: meshflow's tensors have no storage
# identity (docs/porting.md, "Storage identity"), so that is left out.

t = torch.tensor([3.0, 1.0, 2.0])
r = {}
r["len"] = len(t)
r["iter"] = [x.item() for x in t]
r["in"] = [2.0 in t, 5 in t]
r["format"] = f"{t[0]:.2f} {t.sum():>8.3f} {torch.tensor(7):d}"
r["sorted"] = [x.item() for x in sorted(t)]
r["max_builtin"] = max(t).item()
r["sum_builtin"] = sum(t).item()
r["bool"] = [bool(torch.tensor([0.0])), bool(torch.tensor(2))]
r["eq_hash"] = len({t, t.clone()}) == 2
r["cmp"] = (t > 1.5).tolist()
r["index_op"] = [10, 20, 30, 40][torch.tensor(2)]
r["range"] = list(range(torch.tensor(3)))
r["deepcopy"] = (lambda c: (c.add_(1), t.tolist())[1])(copy.deepcopy(t))
r["pickle"] = pickle.loads(pickle.dumps(torch.tensor([[1, 2]], dtype=torch.int16))).dtype == torch.int16
r["unpack"] = (lambda a, b, c: [a.item(), c.item()])(*t)
r["neg_pos"] = [(-t).tolist(), (+t).tolist(), abs(torch.tensor([-1.5])).tolist()]
r["pow_r"] = (2 ** torch.tensor([1.0, 3.0])).tolist()
r["rsub"] = (10 - t).tolist()
r["rdiv"] = (1 / torch.tensor([2.0, 4.0])).tolist()
r["floordiv_r"] = (7 // torch.tensor([2, 3])).tolist()
r["matmul_r"] = (torch.eye(2) @ torch.tensor([1.0, 2.0])).tolist()
r["invert"] = (~torch.tensor([True, False])).tolist()
r["bitwise"] = [(torch.tensor([12]) & 10).item(), (torch.tensor([12]) | 3).item(), (torch.tensor([12]) ^ 5).item(),
                (torch.tensor([1]) << 3).item(), (torch.tensor([-16]) >> 2).item()]
r["iadd_id"] = (lambda x: (id(x), x.__iadd__(1))[0] == id(x))(torch.ones(1))
r["size_tuple"] = [isinstance(t.shape, tuple), t.shape == (3,), t.size() == torch.Size([3])]
r["size_numel"] = torch.Size([2, 3, 4]).numel()
r["dtype_is"] = [t.dtype is torch.float32, t.dtype == torch.float]
r["device_str"] = [str(t.device), t.device.type, t.is_cuda]
report(**r)
