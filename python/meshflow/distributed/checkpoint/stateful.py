"""torch.distributed.checkpoint.stateful: the protocol dcp.save / dcp.load call on a value with
state_dict() and load_state_dict() (any such object is one; subclassing Stateful says so)."""
import abc


class Stateful(abc.ABC):
    """An object dcp saves through state_dict() and loads through load_state_dict()."""

    @abc.abstractmethod
    def state_dict(self):
        """The object's state, as a dict dcp can save."""

    @abc.abstractmethod
    def load_state_dict(self, state_dict):
        """Takes back a state that state_dict() gave (loaded in place by dcp)."""

    @classmethod
    def __subclasshook__(cls, other):
        if cls is Stateful and all(callable(getattr(other, m, None)) for m in ("state_dict", "load_state_dict")):
            return True
        return NotImplemented


__all__ = ["Stateful"]
