"""meshflow.placement: a device type and an N-d array of ranks."""
from . import _C


def _flatten(ranks, depth=0):
    """(hierarchy, flat ranks) of a nested list; raises ValueError when it is ragged."""
    if isinstance(ranks, int) and not isinstance(ranks, bool):
        return [], [ranks]
    if not isinstance(ranks, (list, tuple)) or len(ranks) == 0:
        raise ValueError(f"placement: ranks must be a non-empty (nested) list of ints, got {ranks!r}")
    shapes, flat = [], []
    for item in ranks:
        shape, items = _flatten(item, depth + 1)
        shapes.append(shape)
        flat.extend(items)
    if any(s != shapes[0] for s in shapes):
        raise ValueError(f"placement: ranks {ranks!r} are ragged; every row must have the same length")
    return [len(ranks)] + shapes[0], flat


def _nest(flat, hierarchy):
    nested = list(flat)
    for size in reversed(hierarchy[1:]):
        nested = [nested[i:i + size] for i in range(0, len(nested), size)]
    return nested


# Whether the program made a placement since the default process group was last destroyed:
# then it runs on the job's ranks, as a torch program that called init_device_mesh (which
# initializes the default group), and meshflow.distributed's calls take the job's ranks as
# their default group without an init_process_group.
made = False

# The placements of the meshes the program made DTensors on (torch's distribute_tensor,
# from_local, parallelize_module, fully_shard): an op's result there is a DTensor, whose
# to_local is torch's (its gradient each rank's copy; meshflow's own to_local makes the ranks'
# local gradients parts of a sum). Forgotten with `made`, when the default group is destroyed.
dtensor_meshes = set()


def key(p):
    """A placement's identity (its device type and nested ranks), as a set's member."""
    return p.type, str(p.ranks)


class placement(_C.Placement):
    """placement("cpu", ranks=[[0, 1], [2, 3]]): hierarchy [2, 2] over ranks 0..3.

    `type` is a registered device type (meshflow.device_types()); `ranks` a flat or
    nested list (a nested list gives an N-d hierarchy).
    """

    def __init__(self, type="cpu", ranks=None):
        if ranks is None:
            raise ValueError("placement: ranks are required, e.g. placement(\"cpu\", ranks=[0, 1])")
        hierarchy, flat = _flatten(ranks)
        if not hierarchy:
            hierarchy = [1]
        super().__init__(type, hierarchy, flat)
        self._check_in_world(_C.world_size())
        global made
        made = True

    @classmethod
    def all(cls, type="cpu"):  # noqa: A002 (OneFlow's names)
        """Every rank of the job, in a line (OneFlow's placement.all)."""
        return cls(type, ranks=list(range(_C.world_size())))

    @classmethod
    def _wrap(cls, base):
        if isinstance(base, cls):
            return base
        return cls(base._type, _nest(base._flat_ranks, base._hierarchy))

    @property
    def type(self):
        return self._type

    @property
    def hierarchy(self):
        return list(self._hierarchy)

    @property
    def ranks(self):
        return _nest(self._flat_ranks, self._hierarchy)
