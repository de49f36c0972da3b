import torch
import torch.nn.functional as F

lab = torch.tensor([[0, 2], [1, 3]])
oh = F.one_hot(lab)
oh5 = F.one_hot(lab, num_classes=5)
sc = torch.zeros(2, 2, 4, dtype=torch.long).scatter_(-1, lab.unsqueeze(-1), 1)
multi = torch.zeros(3, 5).scatter_(1, torch.tensor([[0, 1], [2, 2], [4, 0]]), 1.0)
multi_add = torch.zeros(3, 5).scatter_add_(1, torch.tensor([[0, 1], [2, 2], [4, 0]]), torch.ones(3, 2))
red = torch.zeros(3, 5).scatter_(1, torch.tensor([[0, 1], [2, 2], [4, 0]]), torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]), reduce="multiply")
eye = torch.eye(4)[lab]
back = oh.argmax(-1)
smooth = oh5.float() * 0.9 + 0.1 / 5
idx_put = torch.zeros(4, dtype=torch.int64).index_put_((torch.tensor([1, 1, 3]),), torch.tensor([5, 6, 7]), accumulate=True)
masked = torch.zeros(6).masked_scatter_(torch.tensor([True, False, True, True, False, False]), torch.tensor([1.0, 2.0, 3.0, 4.0]))
report(oh=oh, oh_dtype=oh.dtype, oh5=oh5.shape, sc_eq=torch.equal(sc, oh), multi=multi, multi_add=multi_add, red=red, eye=eye[1], back=back,
       smooth=smooth[0, 1], idx_put=idx_put, masked=masked)
