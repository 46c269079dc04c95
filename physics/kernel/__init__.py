"""The compiled, event-driven engine, in rooms (evolve / detect / resolve, as pooltool's):

- :mod:`.layout`: the arrays a run works on and what their columns mean (read it first);
- :mod:`.table`: the table arrays built from a spec (the one place Pymunk is read);
- :mod:`.cloth`: the cloth phases (sliding, rolling, spinning) in closed form;
- :mod:`.evolve`: a ball's state carried along its phase, a run's start;
- :mod:`.detect`: exact first-contact times of quadratic paths;
- :mod:`.plan`: each ball's and pair's next event, with the broad phase;
- :mod:`.responses`: collide, bounce, lean, drop (applying :mod:`kinghill.physics.resolve`);
- :mod:`.loop`: the event loop; :mod:`.batch`: the loop over a batch of shots;
  :mod:`.fixed_step`: the fixed-step reference mode (for the benchmark);
- :mod:`.workspace`: the per-thread buffers and what a run returns.

The public face is :func:`kinghill.physics.simulate` and its batch forms.
"""
