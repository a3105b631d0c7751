"""``python -m cardz_tools``: the same as the ``cardz`` command."""

from .cli import main

main()
