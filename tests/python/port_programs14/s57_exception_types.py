import torch
import torch.nn as nn
# Written first with `except ValueError:` before `except RuntimeError:`, and with index errors
# in the values of gather / embedding / cross_entropy targets / tensor indices and numpy() of a
# tensor that requires grad: meshflow's op errors are RuntimeError and ValueError, its value
# errors raise at the next read, and numpy() there returns the values (docs/porting.md, "What
# differs"), so RuntimeError is caught first and those cases are left out.


def kind(fn):
    try:
        fn()
        return "ok"
    except IndexError:
        return "IndexError"
    except TypeError:
        return "TypeError"
    except RuntimeError:
        return "RuntimeError"
    except ValueError:
        return "ValueError"
    except Exception as e:
        return type(e).__name__


x = torch.ones(2, 3)
lin = nn.Linear(3, 4)
out = {
    "matmul_shape": kind(lambda: torch.ones(2, 3) @ torch.ones(2, 3)),
    "add_broadcast": kind(lambda: torch.ones(2, 3) + torch.ones(4)),
    "index_oob": kind(lambda: x[5]),
    "dim_oob": kind(lambda: x.sum(dim=3)),
    "view_bad": kind(lambda: x.view(4, 2)),
    "cat_mismatch": kind(lambda: torch.cat([x, torch.ones(2, 2)], dim=0)),
    "linear_in": kind(lambda: lin(torch.ones(2, 5))),
    "item_multi": kind(lambda: x.item()),
    "backward_nograd": kind(lambda: torch.ones(2).sum().backward()),
    "bad_type": kind(lambda: torch.ones(2) + "a"),
    "conv_in": kind(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5))),
    "reshape_neg": kind(lambda: x.reshape(-1, -1)),
    "squeeze_ok": kind(lambda: x.squeeze(0)),
    "select_oob": kind(lambda: x.select(1, 3)),
    "stack_mismatch": kind(lambda: torch.stack([torch.ones(2), torch.ones(3)])),
    "inplace_leaf": kind(lambda: torch.ones(2, requires_grad=True).add_(1)),
    "int_requires_grad": kind(lambda: torch.tensor([1, 2], requires_grad=True)),
    "bool_ambiguous": kind(lambda: bool(torch.ones(2))),
    "load_missing": kind(lambda: lin.load_state_dict({"weight": torch.ones(4, 3)})),
    "size_mismatch_sd": kind(lambda: lin.load_state_dict({"weight": torch.ones(3, 3), "bias": torch.ones(4)})),
}
report(**out)
