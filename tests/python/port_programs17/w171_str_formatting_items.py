import torch

loss = torch.tensor(0.123456789)
acc = torch.tensor(0.875)
lst = torch.tensor([1.5, 2.25])
lines = [
    f"loss: {loss.item():.4f}", f"acc: {acc * 100:.1f}%" if False else f"acc: {acc.item() * 100:.1f}%", "loss %.3f" % loss, "{:.2e}".format(loss.item()),
    f"{loss:.3f}", f"{torch.tensor(3):d}" if False else f"{torch.tensor(3).item():d}", str(lst.tolist()), str(torch.Size([2, 3])), str(lst.shape), str(lst.dtype),
    str(tuple(lst.shape)), f"{lst.numel()} elems", repr(lst.size(0)), str(torch.tensor([1, 2]).dtype), f"{torch.tensor(2.5)}", f"{torch.tensor([1.0, 2.0])}",
    "%s" % torch.tensor([True]), "{}".format(torch.tensor(7)), str(float(torch.tensor(1e-3))), str(int(torch.tensor(9.9))),
]
report(lines=lines)
