import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return grad_out * result


def cube_forward(x):
    return x ** 3


def cube_backward(grad_out, x):
    return grad_out * 3 * x ** 2


def cube_backward_backward(grad_out, sav_grad_out, x):
    return grad_out * sav_grad_out * 6 * x


def cube_backward_backward_grad_out(grad_out, x):
    return grad_out * 3 * x ** 2


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return cube_forward(x)

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)


class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return cube_backward(grad_out, x)

    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dx = cube_backward_backward(grad_out, sav_grad_out, x)
        dgrad_out = cube_backward_backward_grad_out(grad_out, x)
        return dgrad_out, dx


x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.double, requires_grad=True)
g1 = torch.autograd.gradcheck(Square.apply, x)
g2 = torch.autograd.gradgradcheck(Square.apply, x)
g3 = torch.autograd.gradcheck(Exp.apply, x)
g4 = torch.autograd.gradgradcheck(Exp.apply, x)
g5 = torch.autograd.gradcheck(Cube.apply, x)
g6 = torch.autograd.gradgradcheck(Cube.apply, x)
y = Cube.apply(x)
gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
ggx, = torch.autograd.grad(gx.sum(), x)
e = Exp.apply(x)
ge, = torch.autograd.grad(e.sum(), x, create_graph=True)
gge, = torch.autograd.grad(ge.sum(), x)
report(checks=[g1, g2, g3, g4, g5, g6], gx=gx, ggx=ggx, gge=gge, fn=type(gx.grad_fn).__name__.endswith("Backward"))
