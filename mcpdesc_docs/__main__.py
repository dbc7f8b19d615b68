"""``python -m mcpdesc_docs``."""

from .cli import run

run()
