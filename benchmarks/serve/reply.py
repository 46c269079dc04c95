"""How soon the page can animate the agent's reply to a person's shot: ``kinghill serve``
with the default ``search`` opponent, timed from the moment the person's shot is posted to the
moment the frame's state (as the page polls it) holds the agent's decision, through the HTTP
API in this process (Starlette's TestClient). Each person's decision is a random agent's (a
shot, or playing on after a foul), so the agent replies from many positions.

    python3 benchmarks/serve/reply.py [FRAMES] [OPPONENT]   # prints JSON; FRAMES 10, search

The page polls every 0.25 s, so it starts animating at most one poll interval after the time
measured here (``reply_seconds``); ``page_bound_seconds`` adds that interval. Run alone, on the
machine's cores as they are (2 here); nothing else is timed. Output committed in
``benchmarks/serve/reply.json``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from starlette.testclient import TestClient

from kinghill.agents import RandomAgent
from kinghill.envs import ChoiceAction
from kinghill.envs.planning import warm_up
from kinghill.experiments.serve.app import create_app
from kinghill.experiments.serve.tables import Tables

POLL = 0.25
"""The page's poll interval (serve.js POLL_MS)."""


def body(action: object) -> tuple[str, dict[str, object]]:
    """A random agent's decision as the page would post it."""
    if isinstance(action, ChoiceAction):
        return "choice", {"play_on": action.play_on}
    shot = action.shot  # type: ignore[attr-defined]
    data: dict[str, object] = {
        "cue_ball": shot.cue_ball,
        "phi": shot.phi,
        "speed": shot.speed,
        "tip": [shot.a, shot.b],
    }
    if action.place is not None:  # type: ignore[attr-defined]
        data["place"] = list(action.place)  # type: ignore[attr-defined]
    return "shot", data


def main(frames: int, opponent: str) -> dict[str, object]:
    warm_up()  # as kinghill serve does before it answers: the kernels compiled or loaded
    tables = Tables(Path(tempfile.mkdtemp()), (opponent,), max_games=1)
    client = TestClient(create_app(tables), base_url="http://127.0.0.1")
    person = RandomAgent(seed=0)
    replies: list[float] = []
    for frame in range(frames):
        state = client.post("/api/games", json={"opponent": opponent, "seed": frame}).json()
        key = state["game"]
        table = tables.tables[key]
        while state["result"] is None:
            path, data = body(person.act(table.game.view()))
            posted = time.perf_counter()
            state = client.post(f"/api/games/{key}/{path}", json=data).json()
            if "error" in state:
                raise SystemExit(f"the person's decision was refused: {state['error']}")
            count = state["count"]
            if not state["your_turn"] and state["result"] is None:  # the agent's turn
                while state["count"] == count:
                    time.sleep(0.002)
                    state = client.get(f"/api/games/{key}?since={count}").json()
                replies.append(time.perf_counter() - posted)
            while not state["your_turn"] and state["result"] is None:
                time.sleep(0.01)
                state = client.get(f"/api/games/{key}").json()
        client.delete(f"/api/games/{key}")
    values = np.array(replies)
    return {
        "command": f"python3 benchmarks/serve/reply.py {frames} {opponent}",
        "cores": os.cpu_count(),
        "frames": frames,
        "replies": len(replies),
        "reply_seconds": {
            "median": float(np.median(values)),
            "p90": float(np.quantile(values, 0.9)),
            "max": float(values.max()),
        },
        "page_bound_seconds": {"max": float(values.max()) + POLL},
        "within_half_a_second": float(np.mean(values + POLL <= 0.5)),
    }


if __name__ == "__main__":
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    opponent = sys.argv[2] if len(sys.argv) > 2 else "search"
    print(json.dumps(main(frames, opponent), indent=2))
