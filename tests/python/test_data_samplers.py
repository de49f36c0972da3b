"""meshflow.utils.data's samplers and DataLoader options as torch's (issue 37): the orders,
lengths, paddings and errors torch's documentation and code give, written out by hand."""
import pytest

import meshflow as mf
from meshflow.utils.data import (BatchSampler, ChainDataset, ConcatDataset, DataLoader, DistributedSampler,
                                 IterableDataset, RandomSampler, SequentialSampler, Subset, SubsetRandomSampler,
                                 TensorDataset, WeightedRandomSampler, random_split)


def seeded(seed):
    return mf.Generator().manual_seed(seed)


def test_sequential_and_batch_samplers():
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(BatchSampler(range(7), 3, drop_last=True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(BatchSampler(range(7), 3, False)) == 3 and len(BatchSampler(range(7), 3, True)) == 2
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        BatchSampler(range(3), 0, False)


def test_random_sampler():
    order = list(RandomSampler(range(6), generator=seeded(1)))
    assert sorted(order) == list(range(6)) and len(RandomSampler(range(6))) == 6
    assert list(RandomSampler(range(6), generator=seeded(1))) == order  # the generator decides
    longer = list(RandomSampler(range(4), num_samples=10, generator=seeded(2)))
    # two whole permutations, then part of a third
    assert len(longer) == 10 and sorted(longer[:4]) == sorted(longer[4:8]) == [0, 1, 2, 3]
    assert len(set(longer[8:])) == 2
    drawn = list(RandomSampler(range(3), replacement=True, num_samples=50, generator=seeded(3)))
    assert len(drawn) == 50 and set(drawn) == {0, 1, 2}  # repeats
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        RandomSampler(range(3), num_samples=0)


def test_subset_and_weighted_samplers():
    assert sorted(SubsetRandomSampler([10, 20, 30], generator=seeded(0))) == [10, 20, 30]
    drawn = list(WeightedRandomSampler([0.0, 1.0, 0.0, 2.0], 40, generator=seeded(4)))
    assert len(drawn) == 40 and set(drawn) == {1, 3}  # zero weights are never drawn
    once = list(WeightedRandomSampler(mf.tensor([1.0, 0.0, 1.0, 1.0]), 3, replacement=False, generator=seeded(5)))
    assert sorted(once) == [0, 2, 3]
    with pytest.raises(RuntimeError, match="without replacement"):
        WeightedRandomSampler([1.0, 0.0], 2, replacement=False)


def test_distributed_sampler_pads_and_splits_as_torch():
    # 10 samples on 4 ranks: padded to 12 with the first two, rank r takes r, r + 4, r + 8
    parts = [list(DistributedSampler(range(10), num_replicas=4, rank=r, shuffle=False)) for r in range(4)]
    assert parts == [[0, 4, 8], [1, 5, 9], [2, 6, 0], [3, 7, 1]]
    dropped = [list(DistributedSampler(range(10), 4, r, shuffle=False, drop_last=True)) for r in range(4)]
    assert dropped == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert len(DistributedSampler(range(10), 4, 0, drop_last=True)) == 2
    assert list(DistributedSampler(range(2), 5, 4, shuffle=False)) == [0]  # padding longer than the data
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"):
        DistributedSampler(range(4), num_replicas=2, rank=2)


def test_distributed_sampler_shuffles_by_seed_and_epoch():
    def shares(epoch, seed=0):
        samplers = [DistributedSampler(range(9), num_replicas=3, rank=r, seed=seed) for r in range(3)]
        for s in samplers:
            s.set_epoch(epoch)
        return [list(s) for s in samplers]
    first = shares(0)
    assert sorted(i for share in first for i in share) == list(range(9))  # the ranks share one order
    assert shares(0) == first and shares(1) != first and shares(0, seed=5) != first
    mf.manual_seed(123)  # the global seed plays no part
    assert shares(0) == first


def test_distributed_sampler_shuffles_into_torchs_order():
    # torch 2's DistributedSampler(range(10), num_replicas=3, rank=r, seed=7) and its
    # randperm(n, generator=Generator().manual_seed(s)): the ranks read torch's samples
    assert [list(DistributedSampler(range(10), num_replicas=3, rank=r, seed=7)) for r in range(3)] == \
        [[5, 4, 9, 2], [0, 1, 6, 5], [3, 7, 8, 0]]
    for n, seed, order in [(10, 0, [4, 1, 7, 5, 3, 9, 0, 8, 6, 2]), (11, 123, [3, 10, 5, 2, 7, 4, 0, 8, 1, 9, 6]),
                           (7, 2**40 + 5, [1, 0, 4, 2, 6, 5, 3]), (1, 3, [0]), (0, 1, [])]:
        assert list(DistributedSampler(range(n), num_replicas=1, rank=0, seed=seed)) == order


def test_a_seeded_generator_only_permutations_drew_from_gives_torchs_orders():
    # torch 2's values for a Generator().manual_seed(5) per line: successive randperms; a
    # RandomSampler's epochs (each draws one more, empty permutation at its end); a shuffled
    # DataLoader's (each epoch first draws its workers' base seed); random_split
    g = seeded(5)
    assert mf.randperm(6, generator=g).tolist() == [5, 0, 1, 3, 4, 2]
    assert mf.randperm(6, generator=g).tolist() == [4, 3, 1, 2, 0, 5]
    sampler = RandomSampler(range(6), generator=seeded(5))
    assert list(sampler) == [5, 0, 1, 3, 4, 2] and list(sampler) == [1, 0, 5, 2, 4, 3]
    loader = DataLoader(range(6), batch_size=6, shuffle=True, generator=seeded(5))
    assert [b.tolist() for b in loader] == [[1, 0, 4, 2, 3, 5]] and [b.tolist() for b in loader] == [[0, 4, 5, 3, 2, 1]]
    assert [s.indices for s in random_split(range(6), [4, 2], generator=seeded(5))] == [[5, 0, 1, 3], [4, 2]]
    assert mf.randperm(6, generator=mf.Generator()).tolist() == [0, 5, 3, 4, 1, 2]  # torch's default seed
    used = seeded(5)
    mf.rand(2, generator=used)  # another draw: meshflow's numbers from here on, still a permutation
    assert sorted(list(RandomSampler(range(6), generator=used))) == list(range(6))


def test_data_loader_samplers_and_their_errors():
    data = TensorDataset(mf.arange(6))
    batches = [b[0].tolist() for b in DataLoader(data, batch_size=4, sampler=[5, 3, 1, 0, 2])]
    assert batches == [[5, 3, 1, 0], [2]]
    loader = DataLoader(data, batch_sampler=[[0, 1], [5]])
    assert [b[0].tolist() for b in loader] == [[0, 1], [5]] and len(loader) == 2
    loader = DataLoader(data, batch_size=4, shuffle=True, generator=seeded(7), drop_last=True)
    assert isinstance(loader.sampler, RandomSampler) and isinstance(loader.batch_sampler, BatchSampler)
    once = [b[0].tolist() for b in loader]
    assert len(once) == 1 == len(loader) and len(set(once[0])) == 4
    assert [b[0].tolist() for b in DataLoader(data, batch_size=4, shuffle=True, generator=seeded(7),
                                              drop_last=True)] == once
    assert [b.tolist() for b in DataLoader(range(5), batch_size=2, collate_fn=lambda b: mf.tensor(b) * 10)] == \
        [[0, 10], [20, 30], [40]]
    assert list(DataLoader(range(3), batch_size=None)) == [0, 1, 2]
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(data, sampler=[0], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(data, batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="mutually exclusive with drop_last"):
        DataLoader(data, batch_size=None, drop_last=True)


class Counting(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def test_iterable_datasets():
    assert [b.tolist() for b in DataLoader(Counting(7), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in DataLoader(Counting(7), batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    assert len(DataLoader(Counting(7), batch_size=3)) == 3
    assert list(ChainDataset([Counting(2), Counting(3)])) == [0, 1, 0, 1, 2]
    assert list(Counting(1) + Counting(2)) == [0, 0, 1]
    with pytest.raises(ValueError, match="IterableDataset: expected unspecified shuffle option"):
        DataLoader(Counting(3), shuffle=True)


def test_splits_subsets_and_concatenation():
    parts = random_split(range(10), [0.3, 0.7], generator=seeded(0))
    assert [len(p) for p in parts] == [3, 7] and sorted(parts[0].indices + parts[1].indices) == list(range(10))
    assert [len(p) for p in random_split(range(10), [1 / 3, 1 / 3, 1 / 3])] == [4, 3, 3]
    assert Subset(range(10, 20), [3, 1])[1] == 11
    both = ConcatDataset([range(3), range(10, 14)])
    assert len(both) == 7 and both[4] == 11 and both[-1] == 13
