"""The human seat's controls without a window: clicks, pointer and commands to an action."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from kinghill.agents.human import COMMANDS, Controls, panel
from kinghill.agents.human.preview import preview
from kinghill.envs import ChoiceAction, FrameView, Game, ShotAction
from kinghill.envs.drawing.render import CALL_LINE, TableRenderer
from kinghill.envs.planning.aim import pocket_target
from kinghill.envs.rules import Call, Decision, ShotClock
from kinghill.physics import BREAK_BALL, COLOURED, Cushion, Pocket, Shot, TableState


def object_ball(state: TableState) -> int:
    """An object ball the break left on the table (the highest numbered; not 3, which the
    tests touch in combinations): which balls drop in the break is the physics' business."""
    return max(b for b in state.balls_on_table() if b not in (0, 1, 3))


def _after_break(seed: int = 0) -> Game:
    game = Game()
    game.reset(seed=seed, breaker=0)
    game.play(ShotAction(Shot(BREAK_BALL, 0.0, 7.0)))
    return game


def test_break_places_white_1_in_the_house_and_aims_by_clicking() -> None:
    game = Game()
    controls = Controls.start(game.view())
    assert controls.cue_ball == BREAK_BALL and controls.speed == 7.0
    controls.click((0.3, 1.2))  # in the house (4.1)
    assert controls.place == (0.3, 1.2)
    controls.click((-0.5, 1.2))  # beyond the front cushion: kept inside the house
    assert controls.place is not None and controls.place[0] > game.spec.radius
    controls.click((0.3, 1.2))
    apex = game.state.xy(2)
    controls.point(apex)
    assert controls.phi == pytest.approx(math.atan2(apex[1] - 1.2, apex[0] - 0.3))
    controls.click((2.0, 0.3))  # outside the house: fixes the aim there
    assert controls.aim_locked
    controls.point(apex)  # a locked aim does not follow the pointer
    assert controls.phi == pytest.approx(math.atan2(0.3 - 1.2, 2.0 - 0.3))
    controls.command("kind:plain")
    assert controls.kind == "whites" and "4.4" in controls.message  # no call on the break
    controls.command("shoot")
    assert controls.done == ShotAction(controls.shot(), None, (0.3, 1.2), False)
    game.play(controls.done)  # the referee takes it


def test_a_ball_clicked_becomes_the_cue_ball_and_the_menu_builds_the_call() -> None:
    game = _after_break()
    controls = Controls.start(game.view())
    ball = object_ball(game.state)
    controls.click(game.state.xy(ball))
    assert controls.cue_ball == ball
    for command in ("kind:double", "pocket:MIDDLE_LEFT", "touch:RIGHT_REAR", "touch:LEFT_REAR"):
        controls.command(command)
    expected = Call.double(ball, Pocket.MIDDLE_LEFT, [Cushion.RIGHT_REAR, Cushion.LEFT_REAR])
    assert controls.call() == expected
    controls.command("kind:abricol")  # a new kind starts a new route
    controls.command("touch:FRONT")
    assert controls.call() == Call.abricol(ball, Pocket.MIDDLE_LEFT, [Cushion.FRONT])
    controls.command("kind:combination")
    controls.command("touch:3")
    controls.command("touch:REAR")
    assert controls.call() == Call.combination(ball, [3], Pocket.MIDDLE_LEFT, [Cushion.REAR])
    controls.command("speed+")
    controls.command("tip-up")
    controls.command("shoot")
    action = controls.done
    assert isinstance(action, ShotAction) and action.call == controls.call()
    assert (action.shot.speed, action.shot.b, action.place) == (2.75, 0.05, None)


def test_carom_takes_the_coloured_ball_as_cue_ball() -> None:
    game = _after_break()
    controls = Controls.start(game.view())
    controls.command("kind:carom")
    assert controls.cue_ball == COLOURED
    controls.command("pocket:REAR_LEFT")
    controls.command("touch:4")
    assert controls.call() == Call.carom(Pocket.REAR_LEFT, [4])


def test_a_pocket_click_calls_it_and_a_wrong_call_is_refused_with_the_reason() -> None:
    game = _after_break()
    controls = Controls.start(game.view())
    controls.command("kind:plain")
    controls.command("shoot")
    assert controls.done is None and "pocket" in controls.message
    controls.click(pocket_target(Pocket.REAR_RIGHT, game.spec))
    assert controls.pocket is Pocket.REAR_RIGHT
    controls.cue_ball = 3
    controls.command("kind:combination")
    controls.command("touch:3")  # the cue ball in its own chain
    controls.command("shoot")
    assert controls.done is None and "twice" in controls.message


def test_the_10_4_choice_and_the_tip_limit() -> None:
    game = _after_break()
    view = FrameView(game.state, replace(game.frame, decision=Decision.CHOICE), 1)
    controls = Controls.start(view)
    controls.command("shoot")  # no shot during the choice
    assert controls.done is None
    controls.command("hand-back")
    assert controls.done == ChoiceAction(False)
    shot = Controls.start(game.view())
    shot.set_tip(1.0, 1.0)
    assert math.hypot(*shot.tip) == pytest.approx(0.5, abs=1e-3)  # the miscue disc
    shot.command("tip-centre")
    for _ in range(20):
        shot.command("tip-left")
    assert shot.tip[0] == pytest.approx(-0.5, abs=1e-3)


def test_extension_is_claimed_on_the_decision_clock() -> None:
    game = Game(clock=ShotClock(round=3))
    game.reset(seed=0, breaker=0)
    view = game.timed_view()
    controls = Controls.start(view)
    controls.command("extension")
    assert controls.claim and view.clock is not None and view.clock.claimed_at is not None
    controls.command("shoot")
    assert isinstance(controls.done, ShotAction) and controls.done.claim_extension


def test_every_command_is_accepted_and_acts() -> None:
    """At a shot decision every command changes the controls, but those with nothing to do:
    the tip already centred, no route to clear, no 10.4 choice to answer."""
    game = _after_break()
    idle = []
    for command in COMMANDS:
        controls = Controls.start(game.view())
        before = repr(controls)
        controls.command(command)
        if repr(controls) == before:
            idle.append(command)
    assert sorted(idle) == ["clear-route", "hand-back", "play-on", "tip-centre"]
    with pytest.raises(ValueError, match="unknown command"):
        Controls.start(game.view()).command("jump")


def test_preview_ends_at_the_first_ball_or_cushion() -> None:
    state = TableState.of(TableState.rack().spec, {1: (1.0, 0.8875), 0: (2.0, 0.8875)})
    aim = preview(state, 1, 0.0)
    assert aim.ball == COLOURED and aim.ghost[0] == pytest.approx(2.0 - state.spec.ball_diameter)
    wall = preview(state, 1, math.pi)
    assert wall.ball is None and wall.ghost[0] == pytest.approx(state.spec.radius)


def test_a_call_being_built_is_drawn_as_far_as_it_goes() -> None:
    """A pocket chosen and a route that cannot be meant yet: the picture rings the pocket, the
    strip says what is missing; nothing raises."""
    game = _after_break()
    controls = Controls.start(game.view())
    controls.command("kind:combination")
    controls.command("pocket:REAR_LEFT")
    controls.command(f"touch:{controls.cue_ball}")
    renderer = TableRenderer(game.spec, 800, 3)
    line = panel.status(controls, "human")
    assert "call incomplete" in line and "twice" in line
    picture = panel.picture(renderer, controls, ("", line, ""))
    assert picture.shape == (renderer.shape[0] + panel.PANEL_HEIGHT, 800, 3)
    centre = pocket_target(Pocket.REAR_LEFT, game.spec)
    column, row = np.round(renderer.to_pixel(centre)).astype(int)
    around = picture[row - 12 : row + 13, column - 12 : column + 13].astype(int)
    assert (np.abs(around - CALL_LINE).max(-1) <= 40).any()
