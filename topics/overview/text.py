"""The Overview's fixed prose: what to do first, the four tools, and the sources, introduced once.

The other pages name the sources by what they are ("the book's section 3.5.2", "the exercise
solutions", "the post") and never by a figure number, so this is the one place that says what each
is and where to find it.
"""

from __future__ import annotations

from dataclasses import dataclass

LEAD = (
    "Chapter 3 of *Build a Large Language Model (From Scratch)* turns a parameter-free average into "
    "the attention a GPT layer runs. Each page here is one step of that turn, computed live from the "
    "book's six tokens and its own seeded weights, or from a sentence you type: move a control and "
    "every number on the page is recomputed, and the address bar becomes a link to exactly that view."
)

START = (
    "**Where to start:** *Read along* walks through the chapter in order and asks you to predict "
    "before each answer; or pick any page from the list below."
)


@dataclass(frozen=True)
class Tool:
    name: str
    what: str


TOOLS: tuple[Tool, ...] = (
    Tool(
        "The sentence box",
        "In the sidebar, under *Sentence*: type your own sentence (up to 32 tokens), widen its "
        "embeddings past the book's 3, or edit any number. Every token page uses it, it follows you "
        "from page to page and into any link you share, and *Back to the book's sentence* restores "
        "the six tokens.",
    ),
    Tool(
        "Focus",
        "On a page with token heatmaps, pick a query in the sidebar or click any cell, and the page "
        "works that cell out step by step: the dot product, the division by √d_k, the softmax, the "
        "context vector. Try it on Three matrices, linked under the figure.",
    ),
    Tool(
        "Reproduce in PyTorch",
        "An expander near the foot of each page holds a PyTorch script that prints what the page "
        "shows, at your settings. Run it to check the app against the book's own code.",
    ),
    Tool(
        "Checks against the sources",
        "The last expander lists every number a source quotes beside the value computed here, with "
        "one of four verdicts: **exact**; **within rounding** (the same digits at the quote's "
        "precision); **within noise** (a quote from random draws, inside the spread of such draws); "
        "or **differs**, always with the reason.",
    ),
)

REPO = "https://github.com/rasbt/LLMs-from-scratch"
NOTEBOOK = f"{REPO}/blob/main/ch03/01_main-chapter-code/ch03.ipynb"
SOLUTIONS = f"{REPO}/blob/main/ch03/01_main-chapter-code/exercise-solutions.ipynb"

SOURCES = (
    "- **The book**: Sebastian Raschka's *Build a Large Language Model (From Scratch)*, chapter 3, "
    "*Coding attention mechanisms*, sections 3.3 to 3.6. Section numbers on every page are the "
    "book's.\n"
    f"- **The book's code**: the chapter's [notebook]({NOTEBOOK}) in the book's repository, "
    f"rasbt/LLMs-from-scratch: the tensors it prints are the checks' quotes.\n"
    f"- **The exercise solutions**: the chapter's [solutions notebook]({SOLUTIONS}), for "
    "exercises 3.1 to 3.3.\n"
    "- **The post**: a blog post, *Three matrices, and a triangle of minus infinity*, that works "
    "through the chapter with small interactive figures. This app grew from it: each of its "
    "figures is a page here, and each number it quotes is checked.\n\n"
    "After this page, the pages name things by what they are (the book's section 3.5.2, the "
    "Dropout page), and the checks name the source of every quoted number. Where a source is loose, "
    "a page says what is true beside it, as a note you can skip."
)
