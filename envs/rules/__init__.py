"""The rules of King of the Hill as pure functions over event logs (no physics)."""
