"""torch.distributions.constraints: the sets a distribution's parameters and support live in,
as a program's own Distribution subclass names them (`arg_constraints = {"loc":
constraints.real}`, `support = constraints.positive`). Each constraint's check(value) is a
bool tensor of value's shape (less the constraint's event dims), composed of meshflow ops.
meshflow's families list theirs as torch's (`Normal.arg_constraints`, `d.support`); they check
their arguments as they are built, whatever validate_args says."""
from ._ops_elementwise import where

__all__ = ["Constraint", "boolean", "real", "real_vector", "positive", "nonnegative", "unit_interval",
           "nonnegative_integer", "positive_integer", "simplex", "lower_triangular", "lower_cholesky",
           "positive_definite", "greater_than", "greater_than_eq", "less_than", "interval", "half_open_interval",
           "integer_interval", "independent", "dependent", "is_dependent", "one_hot", "multinomial"]


class Constraint:
    """A set: check(value) -> bool tensor; is_discrete and event_dim as torch's."""

    is_discrete = False
    event_dim = 0

    def __init__(self, check=None, event_dim=0, is_discrete=False, name="Constraint"):
        self._check, self.event_dim, self.is_discrete, self._name = check, event_dim, is_discrete, name
        kind = _KINDS.get(name.split("(")[0])
        if type(self) is Constraint and kind is not None:
            self.__class__ = kind  # torch's class of the set (isinstance(d.support, constraints._Interval))

    def check(self, value):
        return self._check(value)

    def __repr__(self):
        return self._name


# torch's constraint classes, by the name their repr starts with (each a Constraint here).
_KINDS = {kind: type("_" + kind, (Constraint,), {"__slots__": ()}) for kind in (
    "Boolean", "Real", "GreaterThan", "GreaterThanEq", "LessThan", "Interval", "HalfOpenInterval", "IntegerInterval",
    "IntegerGreaterThan", "Simplex", "LowerTriangular", "LowerCholesky", "PositiveDefinite", "OneHot", "Multinomial",
    "IndependentConstraint")}
globals().update({cls.__name__: cls for cls in _KINDS.values()})


class _Dependent(Constraint):
    """A placeholder whose set depends on other parameters (torch's constraints.dependent):
    check raises, as torch's."""

    def __init__(self):
        super().__init__(name="Dependent()")

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")

    def __call__(self, *, is_discrete=False, event_dim=0):
        return self


def _whole(value):
    return value == value.round()


def _interval(low, high, high_closed=True, name="Interval"):
    return Constraint(lambda v: (v >= low) & ((v <= high) if high_closed else (v < high)),
                      name=f"{name}(lower_bound={low}, upper_bound={high})")


def greater_than(lower_bound):
    return Constraint(lambda v: v > lower_bound, name=f"GreaterThan(lower_bound={lower_bound})")


def greater_than_eq(lower_bound):
    return Constraint(lambda v: v >= lower_bound, name=f"GreaterThanEq(lower_bound={lower_bound})")


def less_than(upper_bound):
    return Constraint(lambda v: v < upper_bound, name=f"LessThan(upper_bound={upper_bound})")


def interval(lower_bound, upper_bound):
    return _interval(lower_bound, upper_bound)


def half_open_interval(lower_bound, upper_bound):
    return _interval(lower_bound, upper_bound, high_closed=False, name="HalfOpenInterval")


def integer_interval(lower_bound, upper_bound):
    return Constraint(lambda v: _whole(v) & (v >= lower_bound) & (v <= upper_bound), is_discrete=True,
                      name=f"IntegerInterval(lower_bound={lower_bound}, upper_bound={upper_bound})")


def independent(base_constraint, reinterpreted_batch_ndims):
    """base_constraint over the last reinterpreted_batch_ndims dims taken as one event."""
    def check(value):
        ok = base_constraint.check(value)
        for _ in range(reinterpreted_batch_ndims):
            ok = ok.all(-1)
        return ok
    return Constraint(check, base_constraint.event_dim + reinterpreted_batch_ndims, base_constraint.is_discrete,
                      f"IndependentConstraint({base_constraint!r}, {reinterpreted_batch_ndims})")


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


dependent = _Dependent()
boolean = Constraint(lambda v: (v == 0) | (v == 1), is_discrete=True, name="Boolean()")
real = Constraint(lambda v: v == v, name="Real()")  # not NaN
real_vector = independent(real, 1)
positive = greater_than(0.0)
nonnegative = greater_than_eq(0.0)
unit_interval = interval(0.0, 1.0)
nonnegative_integer = Constraint(lambda v: _whole(v) & (v >= 0), is_discrete=True, name="IntegerGreaterThan(lower_bound=0)")
positive_integer = Constraint(lambda v: _whole(v) & (v >= 1), is_discrete=True, name="IntegerGreaterThan(lower_bound=1)")
simplex = Constraint(lambda v: (v >= 0).all(-1) & ((v.sum(-1) - 1).abs() < 1e-6), event_dim=1, name="Simplex()")
lower_triangular = Constraint(lambda v: (v.tril() == v).flatten(-2).all(-1), event_dim=2, name="LowerTriangular()")
lower_cholesky = Constraint(
    lambda v: (v.tril() == v).flatten(-2).all(-1) & (v.diagonal(dim1=-2, dim2=-1) > 0).all(-1), event_dim=2,
    name="LowerCholesky()")


def _positive_definite(value):
    from . import linalg
    symmetric = ((value - value.transpose(-1, -2)).abs() < 1e-6).flatten(-2).all(-1)
    return symmetric & where(symmetric, linalg.eigvalsh(value).amin(-1) > 0, False)


positive_definite = Constraint(_positive_definite, event_dim=2, name="PositiveDefinite()")
one_hot = Constraint(lambda v: ((v == 0) | (v == 1)).all(-1) & (v.sum(-1) == 1), event_dim=1, is_discrete=True,
                     name="OneHot()")


def multinomial(upper_bound):
    """Counts (whole, nonnegative) over the last dim summing to at most upper_bound."""
    return Constraint(lambda v: (_whole(v) & (v >= 0)).all(-1) & (v.sum(-1) <= upper_bound), event_dim=1,
                      is_discrete=True, name="Multinomial()")
