"""Stand-ins for what bentrevett/pytorch-seq2seq's notebooks (f22-f27) import and is not
installed here: Hugging Face datasets' Multi30k, spaCy's tokenizers, torchtext's vocabulary and
torchtext.legacy's Field and BucketIterator. The sentences are seeded NumPy draws over small
vocabularies, the English a word-by-word image of the German (something to learn). Each
factory takes the program's `torch` (PyTorch's or meshflow's), as its tensors are made."""
from collections import Counter

import numpy as np

_DE = "ein eine mann frau hund sitzt läuft auf der bank straße im park mit einem ball".split()
_EN = "a a man woman dog sits runs on the bench street in park with a ball".split()


def _sentences(n, rs):
    """n (German, English) pairs."""
    pairs = []
    for _ in range(n):
        words = rs.randint(0, len(_DE), rs.randint(3, 7))
        pairs.append((" ".join(_DE[w] for w in words).capitalize() + ".",
                      " ".join(_EN[w] for w in words).capitalize() + "."))
    return pairs


def _by_frequency(counter, min_freq, specials):
    """torchtext's order: the specials, then tokens by frequency (ties alphabetical)."""
    ordered = sorted(sorted(counter.items()), key=lambda kv: kv[1], reverse=True)
    return list(specials) + [t for t, n in ordered if n >= min_freq and t not in specials]


class Token:
    def __init__(self, text):
        self.text = text


class NLP:
    """spaCy's tokenizer for these sentences: words and the full stop."""
    def tokenizer(self, s):
        return [Token(w) for w in s.replace(".", " .").split()]
    __call__ = tokenizer


class Vocab:
    """torchtext's Vocab (and the legacy one's stoi / itos)."""
    def __init__(self, itos):
        self.itos, self.stoi, self.default = itos, {t: i for i, t in enumerate(itos)}, None

    def __len__(self):
        return len(self.itos)

    def __contains__(self, token):
        return token in self.stoi

    def __getitem__(self, token):
        return self.stoi.get(token, self.default) if self.default is not None else self.stoi[token]

    def set_default_index(self, index):
        self.default = index

    def get_itos(self):
        return self.itos

    def get_stoi(self):
        return self.stoi

    def lookup_indices(self, tokens):
        return [self[t] for t in tokens]

    def lookup_tokens(self, indices):
        return [self.itos[i] for i in indices]


def build_vocab_from_iterator(iterator, min_freq, specials):
    return Vocab(_by_frequency(Counter(t for tokens in iterator for t in tokens), min_freq, specials))


def multi30k(torch):
    """datasets.load_dataset("bentrevett/multi30k")'s stand-in: a dict of splits with the few
    datasets.Dataset methods the notebooks use (map, column access, with_format)."""
    class Split(list):
        def map(self, fn, fn_kwargs):
            return Split({**e, **fn(e, **fn_kwargs)} for e in self)

        def __getitem__(self, k):
            return [e[k] for e in self] if isinstance(k, str) else list.__getitem__(self, k)

        def with_format(self, type, columns, output_all_columns):
            return Split({**e, **{c: torch.tensor(e[c]) for c in columns}} for e in self)

    def load_dataset(seed=5):
        rs = np.random.RandomState(seed)
        return {name: Split({"de": de, "en": en} for de, en in _sentences(n, rs))
                for name, n in (("train", 40), ("validation", 16), ("test", 16))}
    return load_dataset


def torchtext_legacy(torch):
    """torchtext.legacy's Field, Multi30k and BucketIterator (batches in order: the legacy
    iterator shuffles)."""
    class Field:
        def __init__(self, tokenize, init_token=None, eos_token=None, lower=False, batch_first=False,
                     include_lengths=False):
            self.tokenize, self.init_token, self.eos_token, self.lower = tokenize, init_token, eos_token, lower
            self.batch_first, self.include_lengths, self.pad_token = batch_first, include_lengths, "<pad>"

        def preprocess(self, text):
            tokens = self.tokenize(text)
            return [t.lower() for t in tokens] if self.lower else tokens

        def build_vocab(self, data, min_freq):
            name = "src" if self is data.fields[0] else "trg"
            counter = Counter(t for e in data.examples for t in getattr(e, name))
            specials = ["<unk>", "<pad>"] + [t for t in (self.init_token, self.eos_token) if t]
            self.vocab = Vocab(_by_frequency(counter, min_freq, specials))

        def process(self, batch, device):
            rows = [[self.init_token] + list(b) + [self.eos_token] for b in batch]
            longest = max(len(r) for r in rows)
            pad = self.vocab.stoi["<pad>"]
            ids = [[self.vocab.stoi.get(t, 0) for t in r] + [pad] * (longest - len(r)) for r in rows]
            tensor = torch.tensor(ids, dtype=torch.long, device=device)
            tensor = tensor if self.batch_first else tensor.t().contiguous()
            return (tensor, torch.tensor([len(r) for r in rows])) if self.include_lengths else tensor

    class Example:
        pass

    class Dataset:
        def __init__(self, pairs, fields):
            self.fields, self.examples = fields, []
            for de, en in pairs:
                e = Example()
                e.src, e.trg = fields[0].preprocess(de), fields[1].preprocess(en)
                self.examples.append(e)

    class Multi30k:
        @staticmethod
        def splits(exts, fields, seed=5):
            rs = np.random.RandomState(seed)
            return tuple(Dataset(_sentences(n, rs), fields) for n in (40, 20, 20))

    class Batch:
        pass

    class BucketIterator:
        def __init__(self, data, batch_size, device, sort_within_batch=False, sort_key=None):
            self.data, self.batch_size, self.device = data, batch_size, device
            self.sort_within_batch, self.sort_key = sort_within_batch, sort_key

        def __len__(self):
            return (len(self.data.examples) + self.batch_size - 1) // self.batch_size

        def __iter__(self):
            for i in range(0, len(self.data.examples), self.batch_size):
                chunk = self.data.examples[i:i + self.batch_size]
                if self.sort_within_batch:
                    chunk = sorted(chunk, key=self.sort_key, reverse=True)
                batch = Batch()
                batch.src = self.data.fields[0].process([e.src for e in chunk], self.device)
                batch.trg = self.data.fields[1].process([e.trg for e in chunk], self.device)
                yield batch

        @classmethod
        def splits(cls, datasets, batch_size, device, sort_within_batch=False, sort_key=None):
            return tuple(cls(d, batch_size, device, sort_within_batch, sort_key) for d in datasets)
    return Field, Multi30k, BucketIterator
