"""``serve``: the preview server (``server``), its HTTP side (``handler``), what it adds to
pages (``overlay``), watching (``watch``), and the builder seam (``builder``, ``project``)."""
