import torch
import torch.nn as nn
import torch.nn.functional as F
# Written first listing every class of the error's __mro__ among RuntimeError IndexError
# TypeError ValueError KeyError NotImplementedError AttributeError StopIteration, and with an
# out-of-range cross_entropy target and Embedding index and numpy() of a tensor that requires
# grad: meshflow's op errors are also ValueErrors and load_state_dict's also a KeyError (so
# code that caught those keeps working), its value errors raise at the next read, and numpy()
# there returns the values (docs/porting.md, "Exception classes"), so the classes are told
# apart as `except` clauses in torch's order do, and those three cases are left out.


def kind(fn):
    try:
        fn()
    except IndexError:
        return "IndexError"
    except TypeError:
        return "TypeError"
    except NotImplementedError:
        return "NotImplementedError"
    except RuntimeError:
        return "RuntimeError"
    except Exception as e:
        return type(e).__name__
    return None


x = torch.ones(2, 3)
r = {
    "mm_shape": kind(lambda: x @ x),
    "index_oob": kind(lambda: x[5]),
    "view_bad": kind(lambda: x.view(4)),
    "cat_dims": kind(lambda: torch.cat([x, torch.ones(2, 4)])),
    "add_broadcast": kind(lambda: x + torch.ones(4)),
    "no_grad_backward": kind(lambda: x.sum().backward()),
    "linear_shape": kind(lambda: nn.Linear(4, 2)(x)),
    "item_many": kind(lambda: x.item()),
    "bad_dtype": kind(lambda: torch.zeros(2, dtype="float")),
    "tensor_ragged": kind(lambda: torch.tensor([[1, 2], [3]])),
    "getattr": kind(lambda: nn.Linear(2, 2).nonexistent),
    "state_strict": kind(lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.zeros(2, 2)})),
    "dim_oob": kind(lambda: x.sum(dim=3)),
    "squeeze_bad": kind(lambda: x.transpose(0, 5)),
    "double_backward": kind(lambda: (lambda y: (y.backward(), y.backward()))((torch.ones(2, requires_grad=True) * torch.ones(2)).sum() * 2)),
    "inplace_leaf": kind(lambda: torch.ones(2, requires_grad=True).add_(1)),
    "bool_ambig": kind(lambda: bool(torch.ones(2))),
    "next_empty": kind(lambda: next(iter(torch.utils.data.DataLoader([], batch_size=1)))),
    "reshape_bad": kind(lambda: x.reshape(-1, -1)),
    "conv_channels": kind(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5))),
    "gather_dims": kind(lambda: x.gather(1, torch.tensor([0, 1]))),
    "stack_shapes": kind(lambda: torch.stack([torch.ones(2), torch.ones(3)])),
    "int_grad": kind(lambda: torch.tensor([1, 2], requires_grad=True)),
    "optim_empty": kind(lambda: torch.optim.SGD([], lr=0.1)),
    "neg_lr": kind(lambda: torch.optim.Adam([nn.Parameter(torch.ones(1))], lr=-1)),
}
report(**r)
