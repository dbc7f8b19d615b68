"""``python -m mcpdesc_docs``."""

import sys

from .cli import main

sys.exit(main())
