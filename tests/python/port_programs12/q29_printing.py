import torch
import torch.nn as nn
res = {}
res["ints"] = str(torch.tensor([[1, -20, 300], [4, 5, 6]]))
res["bool"] = str(torch.tensor([True, False]))
res["float"] = str(torch.tensor([1.0, 2.5, -3.25]))
res["sci"] = str(torch.tensor([1e-8, 1.0, 1e8]))
res["big"] = str(torch.tensor([123456.789, 1.5]))
res["scalar"] = [str(torch.tensor(3.5)), str(torch.tensor(7)), repr(torch.tensor(2.0, requires_grad=True))]
res["empty"] = str(torch.zeros(0, 3))
res["nan"] = str(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]))
res["f64"] = str(torch.tensor([1.0, 2.0], dtype=torch.float64))
res["i32"] = str(torch.tensor([1, 2], dtype=torch.int32))
res["u8"] = str(torch.tensor([1, 2], dtype=torch.uint8))
res["half"] = str(torch.tensor([1.5, 2.0], dtype=torch.float16))
res["grad"] = str(torch.ones(2, requires_grad=True) * 2)
res["param"] = str(nn.Parameter(torch.tensor([1.0, 2.0])))
res["size"] = [str(torch.zeros(2, 3).shape), repr(torch.zeros(2, 3).size()), str(torch.zeros(2, 3).size(1))]
res["long"] = str(torch.arange(2000.0))
res["3d"] = str(torch.arange(12).view(2, 2, 3))
torch.set_printoptions(precision=2)
res["prec"] = str(torch.tensor([1.23456, 2.34567]))
torch.set_printoptions(sci_mode=True)
res["scimode"] = str(torch.tensor([1.5, 200.0]))
torch.set_printoptions(profile="default")
torch.set_printoptions(threshold=5, edgeitems=2)
res["thresh"] = str(torch.arange(10))
torch.set_printoptions(profile="default")
res["linewidth"] = str(torch.arange(30.0) / 7)
res["module"] = str(nn.Sequential(nn.Conv2d(1, 2, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(2, momentum=0.2), nn.ReLU(inplace=True), nn.Dropout(0.1), nn.Linear(3, 4)))
res["lstm"] = [str(nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True)), str(nn.Embedding(10, 3, padding_idx=0)), str(nn.LayerNorm((4,), eps=1e-6)), str(nn.MultiheadAttention(4, 2, batch_first=True))]
res["misc"] = [str(nn.MaxPool2d(2)), str(nn.AdaptiveAvgPool2d((1, 1))), str(nn.GELU(approximate="tanh")), str(nn.LeakyReLU(0.2)), str(nn.Upsample(scale_factor=2, mode="nearest")), str(nn.Flatten()), str(nn.Identity()), str(nn.ConvTranspose2d(2, 3, 4, stride=2, padding=1))]
class M(nn.Module):
    def __init__(self):
        super().__init__(); self.a = nn.Linear(2, 2); self.blocks = nn.ModuleList([nn.ReLU(), nn.Tanh()]); self.d = nn.ModuleDict({"x": nn.Sigmoid()})
    def extra_repr(self):
        return "custom=1"
res["custom"] = str(M())
res["fmt"] = [f"{torch.tensor(3.14159).item():.3f}", "{:.2f}".format(torch.tensor(2.5)), f"{torch.tensor(1.5):.1f}", format(torch.tensor(4), "d") if False else None]
res["dev"] = [str(torch.zeros(1).device), str(torch.device("cpu")), repr(torch.float32)]
report(**res)
