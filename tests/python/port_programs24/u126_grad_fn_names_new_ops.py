import torch

x = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
names = {
    "cholesky": type(torch.linalg.cholesky(x).grad_fn).__name__,
    "inv": type(torch.linalg.inv(x).grad_fn).__name__,
    "det": type(torch.linalg.det(x).grad_fn).__name__,
    "solve": type(torch.linalg.solve(x, torch.ones(2)).grad_fn).__name__,
    "cummax": type(torch.cummax(x, 0).values.grad_fn).__name__,
    "unfold": type(torch.nn.functional.unfold(x.view(1, 1, 2, 2), 1).grad_fn).__name__,
    "fold": type(torch.nn.functional.fold(x.view(1, 2, 2), (1, 2), 1).grad_fn).__name__,
    "stft": type(torch.stft(torch.arange(16.0, requires_grad=True), 8, window=torch.hann_window(8), return_complex=True).grad_fn).__name__,
    "conv_t": type(torch.nn.functional.conv_transpose1d(x.view(1, 2, 2), torch.ones(2, 1, 2)).grad_fn).__name__,
    "logsumexp": type(x.logsumexp(0).grad_fn).__name__,
    "norm": type(torch.linalg.vector_norm(x).grad_fn).__name__,
    "cdist": type(torch.cdist(x, x).grad_fn).__name__,
}
report(names=names)
