"""What ported programs met (issue 37, fourth programs round), against NumPy and torch's
documented rules: a list index that stands for a tuple of indices."""
import numpy as np

import meshflow as mf


# ---- a list of index sequences is a tuple of indices (torch's and old NumPy's rule)

def test_list_of_index_sequences_is_a_tuple():
    a = np.arange(12).reshape(3, 4)
    x = mf.tensor(a)
    rows, cols = [0, 1], [2, 2]
    assert np.array_equal(x[[rows, cols]].numpy(), a[rows, cols])
    assert np.array_equal(x[[mf.tensor(rows), mf.tensor(cols)]].numpy(), a[rows, cols])
    assert np.array_equal(x[[0, slice(None)]].numpy(), a[0, :])
    assert np.array_equal(x[[[0, 2]]].numpy(), a[[0, 2]])
    # a list of ints and an array stay one index along dim 0
    assert np.array_equal(x[[0, 2]].numpy(), a[[0, 2]])
    assert np.array_equal(x[np.array([[0, 1], [2, 2]])].numpy(), a[np.array([[0, 1], [2, 2]])])
    y = x.clone()
    y[[rows, cols]] = -1
    b = a.copy()
    b[rows, cols] = -1
    assert np.array_equal(y.numpy(), b)
