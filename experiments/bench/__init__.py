"""Benchmarks: the physics engine's shots per second (:mod:`.physics`, against pooltool on the peer
suite) and the environments' steps per second against raw ``simulate`` (:mod:`.env`)."""
