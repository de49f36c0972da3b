import numpy as np
import torch
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
t2 = torch.as_tensor(a)
t3 = torch.tensor(a)
res = {}
res["dtypes"] = [str(torch.from_numpy(np.zeros(2)).dtype), str(torch.tensor(np.zeros(2, dtype=np.int32)).dtype), str(torch.as_tensor([1, 2]).dtype), str(torch.tensor(np.bool_(True)).dtype), str(torch.tensor([np.float32(1.5)]).dtype)]
res["vals"] = [t.sum(), t2.mean(), t3.max()]
b = t3.numpy(); res["np"] = [b.dtype.name, b.shape, float(b.sum())]
res["list"] = [t3.tolist(), t3[0, 1].item(), type(t3[0, 1].item()).__name__, torch.tensor(3).item().__class__.__name__, torch.tensor([True]).tolist()]
res["scalar_ops"] = [float(t3[1, 2]), int(t3[1, 2]), bool(t3[0, 0]), t3[1].numpy().tolist()]
res["np_ops"] = [np.asarray(t3).sum().item() if hasattr(np.asarray(t3).sum(), "item") else None, torch.tensor(np.array([[1, 2], [3, 4]])).T.contiguous().tolist(), torch.from_numpy(np.ascontiguousarray(np.arange(4)[::-1])).tolist()]
x = torch.tensor([1.5, 2.5]); arr = x.detach().cpu().numpy()
res["mix"] = [(torch.tensor(np.float64(2.0)) * x).dtype, (x * np.float64(2.0)).dtype, torch.tensor(np.array(2.0, dtype=np.float32)).shape]
res["from_list_np"] = torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])])
res["stack_np"] = torch.stack([torch.from_numpy(np.ones(2, dtype=np.float32)) for _ in range(3)]).shape
res["idx_np"] = t3[np.array([1, 0])]
res["idx_np_bool"] = t3[np.array([True, False])]
res["idx_int"] = t3[np.int64(1), 2]
res["shape_np"] = torch.zeros(np.int64(2), int(np.int32(3))).shape
res["reshape_np"] = t3.reshape(np.array([3, 2]).tolist()).shape
res["clone_np"] = torch.from_numpy(a.copy()).add_(1)
res["u8"] = torch.from_numpy(np.array([[250, 3]], dtype=np.uint8)).float().div(255)
res["len"] = [len(t3), t3.numel(), t3.nelement(), t3.element_size(), t3.dim(), t3.ndim, t3.nbytes]
report(**res)
