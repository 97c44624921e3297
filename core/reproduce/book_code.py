"""The book's chapter 3 classes as the scripts print them, read from :mod:`core.reproduce.book_classes`.

The classes exist once, as code, in ``book_classes.py`` (it imports torch, so nothing here imports
it): each constant below is one class's source, cut from that file's text with :mod:`ast`, so a
script prints exactly the class the oracle tests run.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).with_name("book_classes.py")


@cache
def class_source(name: str) -> str:
    """The source of the class ``name`` in ``book_classes.py``, as a script block (a leading newline)."""
    text = SOURCE.read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return "\n" + (ast.get_source_segment(text, node) or "") + "\n"
    raise KeyError(f"book_classes.py has no class {name}")


SELF_ATTENTION_V1 = class_source("SelfAttention_v1")
SELF_ATTENTION_V2 = class_source("SelfAttention_v2")
CAUSAL_ATTENTION = class_source("CausalAttention")
MULTI_HEAD_ATTENTION_WRAPPER = class_source("MultiHeadAttentionWrapper")
MULTI_HEAD_ATTENTION = class_source("MultiHeadAttention")


def self_attention_class(init: str) -> tuple[str, str]:
    """The class a weight set's initialisation comes from, and its name: v1 for ``torch.rand``
    (section 3.4), v2 for ``nn.Linear`` (section 3.5)."""
    if init == "rand":
        return "SelfAttention_v1", SELF_ATTENTION_V1
    if init == "linear":
        return "SelfAttention_v2", SELF_ATTENTION_V2
    raise ValueError(f"init must be 'rand' or 'linear', got {init!r}")
