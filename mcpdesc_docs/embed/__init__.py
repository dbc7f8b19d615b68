"""MCP reference pages inside other documentation sites: a Python-Markdown extension
(``extension.py``, the ``mcpdesc`` entry point of ``markdown.extensions``) whose fenced
``mcpdesc`` blocks (``directive.py``) show a primitive, a kind or the whole reference of a
description, rendered by the site's own templates (``reference.py``), with ids, links and
headings fitted to the host page (``fitting.py``) and a small stylesheet of their own
(``stylesheet.py``)."""
