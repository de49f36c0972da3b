"""torch.compiler's names, as programs that call torch.compile meet them: meshflow runs every
compiled module and function eagerly (mf.compile; mf.nn.Graph compiles a training step), so
nothing is ever being compiled, and the decorators return what they are given.

Thread-safety: stateless."""
from ._ops_port import compile  # noqa: F401  (torch.compiler.compile is torch.compile)

__all__ = ["compile", "is_compiling", "is_dynamo_compiling", "reset", "disable", "allow_in_graph",
           "assume_constant_result"]


def is_compiling():
    """False: a model's code never runs under a tracer here (Hugging Face's branches on it)."""
    return False


def is_dynamo_compiling():
    return False


def reset():
    """torch's: drops compiled code; there is none."""


def disable(fn=None, recursive=True):
    """torch's decorator that keeps `fn` eager; it is eager already."""
    return (lambda f: f) if fn is None else fn


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn
