"""Class: an instructor's live view of how the class guessed; its entry and the URL keys it reads."""

from ui.pages import CLASS_KEY, PageInfo

PAGE = PageInfo(
    "topics/classroom/page.py",
    "Class",
    ":material/groups:",
    "class",
    "For an instructor: start a class, share its link, and watch how the class guesses, live.",
    keys=(CLASS_KEY, "key", "show", "class_step"),  # the step in view, once a class is open
    written=(CLASS_KEY, "key", "show"),  # read from the link, never bound to a control
)
