import torch
import torch.nn.functional as F

x = torch.randn(2, 3, requires_grad=True)
w = torch.randn(3, 3, requires_grad=True)
names = []
for y in [x + 1, x * 2, x - x, x / 2, x @ w, x.mean(), x.sum(1), x.exp(), x.relu(), F.softmax(x, -1), F.log_softmax(x, 1), x.t(), x.view(6),
          x.reshape(3, 2), x[0], x[:, 1:], x.unsqueeze(0), x.transpose(0, 1), torch.cat([x, x]), torch.stack([x, x]), x.pow(2), x.sqrt(),
          x.abs(), x.clamp(0, 1), x.max(), x.max(1).values, torch.tanh(x), torch.sigmoid(x), F.linear(x, w), F.gelu(x), x.expand(2, 2, 3), x.permute(1, 0),
          x.squeeze(), x.norm(), x.var(), x.flatten(), x.repeat(2, 1), x.index_select(0, torch.tensor([1])), x.gather(1, torch.tensor([[0], [1]])), x.neg(),
          F.mse_loss(x, torch.zeros(2, 3)), F.cross_entropy(x, torch.tensor([0, 2])), F.layer_norm(x, (3,)), F.dropout(x, 0.0), x.masked_fill(x > 0, 0.0),
          torch.where(x > 0, x, 0.0), x.cumsum(1), x.log(), x.sin(), x.mm(w), x.matmul(w), x.bmm(x.view(1, 2, 3).transpose(1, 2)[None][0].transpose(1, 2).expand(1, 2, 3).transpose(1, 2)) if False else x.contiguous(), x.to(torch.float64), x.float(), x.clone()]:
    names.append(None if y.grad_fn is None else y.grad_fn.name())
report(names=names, rep=repr(x.sum()).split("grad_fn=")[1])
