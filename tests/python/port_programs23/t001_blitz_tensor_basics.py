import torch
import numpy as np

data_list = [[1, 2], [3, 4]]
x_data = torch.tensor(data_list)
np_array = np.array(data_list)
x_np = torch.from_numpy(np_array)
x_ones = torch.ones_like(x_data)
x_rand = torch.rand_like(x_data, dtype=torch.float)
shape = (2, 3,)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
tensor = torch.ones(4, 4)
tensor[:, 1] = 0
t1 = torch.cat([tensor, tensor, tensor], dim=1)
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
agg = tensor.sum()
agg_item = agg.item()
tensor.add_(5)
t = torch.ones(5)
n = t.numpy()
t.add_(1)
n2 = np.ones(5)
t2 = torch.from_numpy(n2)
np.add(n2, 1, out=n2)
report(x_data=x_data, x_np=x_np, x_ones=x_ones, rand_shape=x_rand.shape, rand_dtype=x_rand.dtype,
       ones=ones_tensor, zeros=zeros_tensor, first_row=tensor[0], first_col=tensor[:, 0], last_col=tensor[..., -1],
       t1_shape=t1.shape, y1=y1, y2=y2, y3=y3, z1=z1, z3=z3, agg=agg_item, agg_type=type(agg_item).__name__,
       added=tensor, n=n.tolist(), t2=t2, t2_dtype=t2.dtype, device=tensor.device, x_np_dtype=x_np.dtype)
