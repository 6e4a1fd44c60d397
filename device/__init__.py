"""The composition root: configuration, storage, the table session and the CLI."""
