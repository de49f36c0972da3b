"""torch.jit's names as model code meets them (timm's `@torch.jit.ignore def
no_weight_decay`, `if torch.jit.is_scripting():` branches, `torch.jit.Final` annotations):
meshflow has no TorchScript, so nothing is ever scripted or traced. `script` and `trace`
return what they are given, which then runs eagerly with eager's results (as torch.compile
does here); a ScriptModule's own file format (`torch.jit.save`) is not there.

Thread-safety: stateless."""
import typing

__all__ = ["ignore", "unused", "export", "is_scripting", "is_tracing", "script", "trace", "Final",
           "Attribute", "annotate", "interface"]

Final = typing.Final


def is_scripting():
    """False: code never runs under the TorchScript compiler here."""
    return False


def is_tracing():
    return False


def ignore(drop=False, **kwargs):
    """torch's decorator (with or without arguments) that leaves a function to Python: all are."""
    return drop if callable(drop) else (lambda fn: fn)


def unused(fn):
    return fn


def export(fn):
    return fn


def interface(obj):
    return obj


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """The module or function itself, run eagerly."""
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    """The module or function itself, run eagerly (not a recording of one call's path)."""
    return func


def Attribute(value, type=None):  # noqa: N802 (torch's name)
    return value


def annotate(the_type, the_value):
    return the_value
