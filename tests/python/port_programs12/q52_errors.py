import torch
import torch.nn as nn
res = {}
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
t = torch.zeros(3, 4)
leaf = torch.ones(2, requires_grad=True)
res["idx"] = kind(lambda: t[5])
res["idx2"] = kind(lambda: t[:, 7])
res["shape"] = kind(lambda: t @ torch.zeros(3, 4))
res["view"] = kind(lambda: t.view(5, -1))
res["cat"] = kind(lambda: torch.cat([t, torch.zeros(2, 3)]))
res["leaf"] = kind(lambda: leaf.add_(1))
res["nograd"] = kind(lambda: torch.zeros(2).sum().backward())
res["twice"] = kind(lambda: [(l := (leaf * 2).sum()).backward(), l.backward()] if False else None)
y = (leaf * leaf).sum(); y.backward()
res["twice2"] = kind(lambda: y.backward())
res["item"] = kind(lambda: t.item())
res["lin"] = kind(lambda: nn.Linear(3, 2)(torch.zeros(2, 4)))
res["dtype"] = kind(lambda: torch.zeros(2, dtype=torch.long).mean())
res["bad_dim"] = kind(lambda: t.sum(dim=3))
res["emb"] = kind(lambda: nn.Embedding(3, 2)(torch.tensor([5])).tolist())
res["ce"] = kind(lambda: nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 7])).item())
res["stack"] = kind(lambda: torch.stack([torch.zeros(2), torch.zeros(3)]))
res["reshape"] = kind(lambda: t.reshape(7))
res["args"] = kind(lambda: torch.zeros(2).sum(dim="a"))
res["expand"] = kind(lambda: torch.zeros(3).expand(2, 4))
res["conv"] = kind(lambda: nn.Conv2d(3, 4, 3)(torch.zeros(1, 2, 5, 5)))
res["load"] = kind(lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.zeros(2, 2)}))
try:
    t[10]
except IndexError as e:
    res["msg"] = "out of range" in str(e) or "out of bounds" in str(e)
with torch.no_grad():
    z = leaf * 2
res["z_rg"] = z.requires_grad
res["detect"] = kind(lambda: torch.sqrt(torch.tensor([-1.0], requires_grad=True)).sum().backward())
report(**res)
