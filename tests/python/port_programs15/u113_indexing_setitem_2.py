import torch

r = {}
x = torch.zeros(4, 5)
x[1:3, ::2] = torch.tensor([1.0, 2.0, 3.0])
x[..., -1] = 7
x[torch.tensor([0, 3]), 1] = torch.tensor([8.0, 9.0])
x[x == 0] = -1
r["x"] = x
y = torch.arange(10)
y[y % 3 == 0] *= -1
r["y"] = y
z = torch.zeros(2, 3, 4)
z[:, [0, 2], 1:3] = 5
z[0, :, torch.tensor([True, False, False, True])] = 2
r["z"] = z
w = torch.arange(12).view(3, 4)
r["w_idx_neg"] = w[[-1, 0], [-1, 0]]
r["w_bool_2d"] = w[torch.tensor([[True, False, True, False]] * 3)]
r["w_ellipsis_list"] = w[..., [1, 3]]
r["w_none_mid"] = w[:, None, 1].shape
r["w_long_scalar"] = w[torch.tensor(2)]
r["w_int_tensor_slice"] = w[torch.tensor(1):]
r["w_tuple_of_lists"] = w[([0, 1], [2, 3])]
idx = torch.tensor([[0, 1], [2, 2]])
r["w_2d_idx"] = w[idx]
r["w_adv_sep"] = torch.arange(24).view(2, 3, 4)[[0, 1], :, [1, 2]].shape
v = torch.zeros(5)
v[[1, 1, 3]] += 1
r["v_dup"] = v
u = torch.zeros(5)
u.index_put_((torch.tensor([1, 1, 3]),), torch.tensor(1.0), accumulate=True)
r["u_acc"] = u
t = torch.arange(6.).view(2, 3)
t[:, 1:] = t[:, :-1].clone()
r["t_shift"] = t
s = torch.zeros(3, 3)
s.fill_diagonal_(4)
s[range(3), [2, 1, 0]] = 1
r["s"] = s
q = torch.arange(5)
q[torch.tensor([], dtype=torch.long)] = 10
r["empty_idx"] = q
report(**r)
