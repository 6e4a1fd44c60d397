"""Frames (numpy BGR arrays) in, dice readings out. Knows nothing of games."""
