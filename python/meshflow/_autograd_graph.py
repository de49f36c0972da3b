"""torch.autograd.graph's saved-tensor hooks: saved_tensors_hooks(pack_hook, unpack_hook),
save_on_cpu and disable_saved_tensors_hooks, as torch's. While hooks are installed (per
thread; the innermost act), each tensor an op's gradient reads, and each one an
autograd.Function saves, goes to pack_hook(tensor) when the call is recorded; what it returns
is kept instead, and backward reads unpack_hook(that) each time it needs the tensor. The C++
autograd calls them for built-in ops (SavedHooks in autograd/var.h); Function's saves are
packed here. The Python state is per thread, as the C++ one."""
import threading

from . import _C
from ._tensor import Tensor

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]

_state = threading.local()


def _stack():
    if not hasattr(_state, "hooks"):
        _state.hooks, _state.disabled = [], None
    return _state.hooks


class Packed:
    """What a Function keeps of a tensor it saved under hooks: pack_hook's result and the
    unpack_hook that gives the tensor back; for a saved output, also its SavedVar, which a
    create_graph backward reads (attached to the graph), as the C++ saves' (ops/saved_hooks.h)."""

    def __init__(self, packed, unpack_hook, saved_var=None):
        self.packed, self.unpack_hook, self.saved_var = packed, unpack_hook, saved_var

    def unpack(self):
        value = self.unpack_hook(self.packed)
        return Tensor(self.saved_var.unpack()) if self.saved_var is not None and _C.grad_enabled() else value


def packed(tensor, saved_var=None):
    """A tensor a Function saves, packed by the innermost hooks when some are installed (its
    SavedVar, for an output, otherwise)."""
    hooks = _stack()
    if not hooks or not isinstance(tensor, Tensor):
        return tensor if saved_var is None else saved_var
    pack_hook, unpack_hook = hooks[-1]
    return Packed(pack_hook(tensor), unpack_hook, saved_var)


class saved_tensors_hooks:
    """Context manager installing pack_hook(tensor) -> anything and unpack_hook(anything) ->
    tensor for the tensors saved for backward in its scope, as torch's."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        stack = _stack()
        if _state.disabled is not None:
            raise RuntimeError(_state.disabled)
        pack_hook, unpack_hook = self.pack_hook, self.unpack_hook

        def unpack(obj):
            out = unpack_hook(obj)
            if not isinstance(out, Tensor):
                raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                                f"{type(out).__name__}")
            return out._impl

        _C.push_saved_hooks(lambda v: pack_hook(Tensor(v)), unpack)
        stack.append((pack_hook, unpack_hook))
        return self

    def __exit__(self, *exc):
        _stack().pop()
        _C.pop_saved_hooks()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU (pin_memory: pinned there) and moved back to their
    device when backward reads them, as torch's."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            cpu = tensor.cpu()
            return tensor.device, cpu.pin_memory() if pin_memory and tensor.device.type != "cpu" else cpu

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager in whose scope installing saved-tensor hooks raises RuntimeError with
    `error_message`, as torch's."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        _stack()
        self._previous, _state.disabled = _state.disabled, self.error_message
        return self

    def __exit__(self, *exc):
        _state.disabled = self._previous
