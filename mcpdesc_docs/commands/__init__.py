"""One module per CLI verb; each takes parsed options and returns an exit code."""
