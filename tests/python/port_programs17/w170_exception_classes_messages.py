import torch
import torch.nn as nn

caught = []


def attempt(name, fn):
    try:
        fn()
        caught.append((name, None))
    except IndexError:
        caught.append((name, "IndexError"))
    except TypeError:
        caught.append((name, "TypeError"))
    except NotImplementedError:
        caught.append((name, "NotImplementedError"))
    except RuntimeError:
        caught.append((name, "RuntimeError"))
    except ValueError:
        caught.append((name, "ValueError"))


x = torch.ones(2, 3)
attempt("mm", lambda: x @ x)
attempt("idx", lambda: x[5])
attempt("dim", lambda: x.sum(3))
attempt("view", lambda: x.view(4))
attempt("cat", lambda: torch.cat([x, torch.ones(3, 2)]))
attempt("linear", lambda: nn.Linear(4, 2)(x))
attempt("no_grad_backward", lambda: x.sum().backward())
attempt("item", lambda: x.item())
attempt("bool", lambda: bool(x))
attempt("add_str", lambda: x + "a")
attempt("stack", lambda: torch.stack([x, torch.ones(3)]))
attempt("reshape", lambda: x.reshape(5, -1))
attempt("int_mean", lambda: torch.tensor([1, 2]).mean())
attempt("expand", lambda: x.expand(3, 3))
attempt("leaf_inplace", lambda: torch.ones(2, requires_grad=True).add_(1))
attempt("permute", lambda: x.permute(0))
attempt("unknown_kw", lambda: torch.zeros(2, foo=1))
attempt("conv_ch", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
attempt("emb_oob", lambda: nn.Embedding(3, 2)(torch.tensor([5])).sum().item())
report(caught=caught)
