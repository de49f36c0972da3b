import io
import torch

x = torch.arange(10.0)
view = x[2:5]
obj = {"x": x, "view": view, "list": [torch.tensor([1, 2]), 3.5], "i8": torch.tensor([1, -1], dtype=torch.int8), "b": torch.tensor([True]),
       "bf": torch.tensor([1.5], dtype=torch.bfloat16), "nested": {"t": torch.ones(2, 2).t()}}
buf = io.BytesIO()
torch.save(obj, buf)
buf.seek(0)
o = torch.load(buf, weights_only=True)
torch.save(x, "x.pt")
y = torch.load("x.pt", map_location="cpu")
report(view=o["view"], l=o["list"], i8=o["i8"], b=o["b"], bf=o["bf"], bfd=o["bf"].dtype, nt=o["nested"]["t"], y=y)
