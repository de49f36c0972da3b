"""torch.distributed.device_mesh: a DeviceMesh is a meshflow placement (CONCEPTS.md section 1).

`init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))` is the placement with ranks
[[0, 1], [2, 3]]. A mesh sliced by name (`mesh["tp"]`) is, as torch's, the ranks along those
dimensions that share this rank's coordinate on the others. meshflow's global tensors are
SPMD (every rank's tensor has the same placement), so a tensor on a slice lives on the whole
mesh (`_root`) and the slice records which of its dimensions it covers (`_dims`); on the
others the tensor is broadcast (distribute_tensor, parameters) or split along dimension 0
(from_local: each row of the mesh holds its own batch). meshflow.distributed.tensor reads this.
Making a mesh is collective only as making a placement is; any thread.
"""
import numpy as _np

from .. import env as _env
from .._placement import placement as _placement


class DeviceMesh:
    """torch's DeviceMesh(device_type, mesh, mesh_dim_names=None): `mesh` an N-d array of ranks."""

    def __init__(self, device_type, mesh, *, mesh_dim_names=None, _root=None, _dims=None):
        ranks = _np.asarray(mesh.numpy() if hasattr(mesh, "numpy") else mesh, dtype=_np.int64)
        if ranks.ndim == 0:
            ranks = ranks.reshape(1)
        self.device_type = device_type
        self._ranks = ranks
        names = tuple(mesh_dim_names) if mesh_dim_names is not None else None
        if names is not None and len(names) != ranks.ndim:
            raise ValueError(f"DeviceMesh: mesh_dim_names {names} name {len(names)} dimensions; the mesh has "
                             f"{ranks.ndim}")
        self.mesh_dim_names = names
        self._root = _root if _root is not None else self
        self._dims = tuple(_dims) if _dims is not None else tuple(range(ranks.ndim))
        if _root is None:
            self._placement = _placement(device_type, ranks.tolist())

    @property
    def mesh(self):
        from .._tensor import tensor
        return tensor(self._ranks)

    @property
    def ndim(self):
        return self._ranks.ndim

    @property
    def shape(self):
        return tuple(self._ranks.shape)

    def size(self, mesh_dim=None):
        return int(self._ranks.size) if mesh_dim is None else int(self._ranks.shape[self._dim(mesh_dim)])

    def get_rank(self):
        return _env.get_rank()

    def get_coordinate(self):
        """This rank's index in the mesh (None when it is not in it), as torch's."""
        where = _np.argwhere(self._ranks == _env.get_rank())
        return [int(c) for c in where[0]] if len(where) else None

    def get_local_rank(self, mesh_dim=None):
        if mesh_dim is None and self.ndim != 1:
            raise RuntimeError(f"get_local_rank: this mesh has {self.ndim} dimensions; name one (mesh_dim=)")
        return self.get_coordinate()[self._dim(mesh_dim or 0)]

    def get_group(self, mesh_dim=None):
        """The ProcessGroup of the ranks along `mesh_dim` that share this rank's other coordinates."""
        from . import ProcessGroup
        if mesh_dim is None and self.ndim != 1:
            raise RuntimeError(f"get_group: this mesh has {self.ndim} dimensions; name one (mesh_dim=)")
        return ProcessGroup(sorted(self[self.mesh_dim_names[self._dim(mesh_dim or 0)]]._ranks.tolist())
                            if self.ndim > 1 else self._ranks.tolist())

    def get_all_groups(self):
        return [self.get_group(d) for d in range(self.ndim)]

    def _dim(self, mesh_dim):
        if isinstance(mesh_dim, str):
            if not self.mesh_dim_names or mesh_dim not in self.mesh_dim_names:
                raise KeyError(f"DeviceMesh: no dimension named {mesh_dim!r}; its names are {self.mesh_dim_names}")
            return self.mesh_dim_names.index(mesh_dim)
        return int(mesh_dim)

    def __getitem__(self, names):
        """The mesh over the named dimensions, through this rank (torch's mesh["tp"], mesh["dp", "tp"])."""
        names = (names,) if isinstance(names, str) else tuple(names)
        dims = [self._dim(n) for n in names]
        if dims == list(range(self.ndim)):
            return self
        coordinate = self.get_coordinate()
        if coordinate is None:
            raise RuntimeError(f"DeviceMesh[{names}]: rank {_env.get_rank()} is not in this mesh")
        index = tuple(slice(None) if d in dims else coordinate[d] for d in range(self.ndim))
        ranks = self._ranks[index].transpose([sorted(dims).index(d) for d in dims])
        return DeviceMesh(self.device_type, ranks, mesh_dim_names=names, _root=self._root,
                          _dims=[self._dims[d] for d in dims])

    def __eq__(self, other):
        return isinstance(other, DeviceMesh) and self._root is other._root and self._dims == other._dims

    def __hash__(self):
        return hash((id(self._root), self._dims))

    def __repr__(self):
        names = f", mesh_dim_names={self.mesh_dim_names}" if self.mesh_dim_names else ""
        return f"DeviceMesh('{self.device_type}', {self._ranks.tolist()}{names})"


def init_device_mesh(device_type, mesh_shape, *, mesh_dim_names=None):
    """The mesh of every rank of the job, row-major in `mesh_shape` (torch's init_device_mesh)."""
    shape = tuple(int(s) for s in mesh_shape)
    world = _env.get_world_size()
    if int(_np.prod(shape)) != world:
        raise RuntimeError(f"init_device_mesh: mesh_shape {shape} holds {int(_np.prod(shape))} ranks; this job "
                           f"has {world}")
    return DeviceMesh(device_type, _np.arange(world).reshape(shape), mesh_dim_names=mesh_dim_names)
