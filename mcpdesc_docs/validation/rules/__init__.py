"""The semantic rules, one module per area of the specification."""
