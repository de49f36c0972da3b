import numpy as np
import torch

a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
r = {"shared": t[0, 0].item()}
t.add_(1)
r["back"] = a[1].tolist()
r["as_tensor_f64"] = str(torch.as_tensor(np.ones(2)).dtype)
r["tensor_copy"] = (lambda arr: (torch.tensor(arr), arr.__setitem__(0, 9))[0])(np.zeros(2)).tolist()
r["int32"] = str(torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype)
r["bool"] = str(torch.from_numpy(np.array([True, False])).dtype)
r["uint8"] = torch.from_numpy(np.array([255], dtype=np.uint8)).item()
r["numpy_back_dtype"] = str(torch.ones(2, dtype=torch.int16).numpy().dtype)
r["np_scalar_mul"] = (torch.ones(2) * np.float32(2.5)).tolist()
r["np_int_index"] = torch.arange(5)[np.int64(3)].item()
r["np_array_index"] = torch.arange(10)[np.array([1, 3, 5])].tolist()
r["np_bool_index"] = torch.arange(4)[np.array([True, False, True, False])].tolist()
r["np_of_tensor"] = np.asarray(torch.tensor([1.5, 2.5])).tolist()
r["np_mean"] = float(np.mean(torch.tensor([1.0, 2.0, 6.0]).numpy()))
r["transposed"] = torch.from_numpy(np.ascontiguousarray(a.T)).shape
r["noncontig"] = torch.from_numpy(a[:, ::2].copy()).tolist()
r["tolist_types"] = [type(v).__name__ for v in torch.tensor([1, 2]).tolist()] + [type(torch.tensor(1.5).item()).__name__]
r["item_bool"] = type(torch.tensor(True).item()).__name__
r["float_cast"] = [float(torch.tensor([2.5])), int(torch.tensor(7.9)), str(complex(torch.tensor(1.0)))]
r["np_func_on_tensor"] = float(np.sum(torch.arange(4.0).numpy() ** 2))
r["array_interface"] = np.array(torch.arange(3)).dtype.name
r["from_np_half"] = str(torch.from_numpy(np.ones(2, dtype=np.float16)).dtype)
r["index_with_list_bool"] = torch.arange(3)[[True, False, True]].tolist()
report(**r)
