"""Players: agents that map a view of the frame to an action."""
