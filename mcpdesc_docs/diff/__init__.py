"""``mcpdesc-docs diff``: what changed between two descriptions, and what it means for a
client. ``load`` reads and validates each side (a file, or ``git:REF:PATH``), ``view``
turns a description into what a client sees (primitives by identity and protocol version,
component references followed), ``changes`` and ``schemas`` compare two views and classify
each change, ``report`` writes the result."""
