"""One site for many servers (``descriptions:``): each server rendered as its own site
under ``<slug>/`` with a machine-readable entry beside it, then the catalogue, the
cross-server pages and the search assembled from those entries alone (so a sharded build
merged is the very site a single build writes)."""
