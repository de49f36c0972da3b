import torch

N, D_in, H, D_out = 16, 50, 20, 5
x = data(N, D_in, seed=1)
y = data(N, D_out, seed=2)
w1 = (data(D_in, H, seed=3) * 0.1).requires_grad_()
w2 = (data(H, D_out, seed=4) * 0.1).requires_grad_()
learning_rate = 1e-3
log = []
for t in range(50):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 10 == 9:
        log.append(loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


relu = MyReLU.apply
y_pred = relu(x.mm(w1)).mm(w2)
loss = (y_pred - y).pow(2).sum()
loss.backward()
report(log=log, loss=loss, w1g=w1.grad.sum(), w2g=w2.grad[:3])
