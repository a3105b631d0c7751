"""Authoring: start a design from a template (``cardz new``) or from a rules text (``cardz from-rules``).

Whatever a template or ``from-rules`` leaves undecided is a ``TODO:`` marker that
``cardz lint`` reports as CZ601; :func:`find_todos` finds them.
"""

from ..todos import TODO_MARKER, find_todos, todo

__all__ = ["TODO_MARKER", "find_todos", "todo"]
