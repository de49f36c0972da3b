"""torch.nn.modules.utils (meshflow.nn.modules.utils): the state-dict prefix helper DDP
checkpoints need, and the argument expanders some modules' code imports."""
import collections
import itertools


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Strips `prefix` ("module." of a DDP model's state_dict) from the keys that start with
    it, in place (and from the "_metadata" keys), as torch's."""
    for key in list(state_dict.keys()):
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is not None:
        for key in list(metadata.keys()):
            if len(key) == 0:
                continue
            if key == prefix.replace(".", "") or key.startswith(prefix):
                metadata[key[len(prefix):]] = metadata.pop(key)


def _ntuple(n, name):
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(itertools.repeat(x, n))
    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")
