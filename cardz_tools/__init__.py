"""cardz-tools: write, check, try out and publish .cardz solitaire designs."""

__version__ = "0.1.0"
