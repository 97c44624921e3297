"""What every page's Reproduce script is made of: the shared pieces, not the scripts themselves.

Each topic builds its own script in ``topics/<topic>/script.py``, from the page's settings and
view. The torch scripts start with ``import torch``, hold the book's chapter 3 classes inline
(cut from the real module :mod:`core.reproduce.book_classes` by :mod:`core.reproduce.book_code`),
rebuild the weights from ``torch.manual_seed`` as the book does (:mod:`core.reproduce.weights`),
and compute in the dtype the page computes in (float64 from the float32 draw), so what they print
equals what the page shows at that precision. Where PyTorch cannot reproduce a view (NumPy's
generator), the script is NumPy; the cost page's is plain Python. :mod:`core.reproduce.source`
writes the literals, the file names and the layout.

Nothing here imports torch (``book_classes.py`` does, and is only ever read as text here): a
script is only text until the reader, or a topic's oracle test, runs it.
"""

from core.reproduce.source import Script

__all__ = ["Script"]
