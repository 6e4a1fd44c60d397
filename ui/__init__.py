"""Kivy screens: render the session's state and prompt, turn touches into Inputs."""
