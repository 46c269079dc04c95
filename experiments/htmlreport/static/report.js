// kinghill report page: replays the recorded frames inlined as JSON in #kinghill-data.
// Data is put on screen only through textContent (never as markup).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("kinghill-data").textContent);
  const frames = data.frames || [];
  // each path comes as its first sample then the steps between samples: summed once here
  frames.forEach((f) => f.decisions.forEach((d) => d.moves.forEach((move) => {
    for (let i = 2; i < move.xy.length; i += 1) move.xy[i] += move.xy[i - 2];
  })));
  const byId = (id) => document.getElementById(id);
  if (!frames.length || !data.table) {
    byId("replay-none").hidden = false;
    return;
  }
  byId("replay-player").hidden = false;
  const table = data.table;
  const fps = data.fps;
  const HOLD = 0.6; // seconds the end of a shot is held before the next decision plays
  const canvas = byId("replay-canvas");
  const pen = canvas.getContext("2d");
  const [x0, y0, x1, y1] = table.view;
  const scale = canvas.width / (x1 - x0);
  canvas.height = Math.round((y1 - y0) * scale);
  const colours = table.colours;
  const now = { frame: 0, decision: 0, time: 0, playing: false, held: 0, last: null };

  function toPixel(x, y) {
    return [(x - x0) * scale, (y1 - y) * scale];
  }

  function polygon(points) {
    pen.beginPath();
    points.forEach(([x, y], i) => {
      const [px, py] = toPixel(x, y);
      if (i === 0) pen.moveTo(px, py);
      else pen.lineTo(px, py);
    });
    pen.closePath();
  }

  function disc(x, y, radius, fill) {
    const [px, py] = toPixel(x, y);
    pen.beginPath();
    pen.arc(px, py, radius * scale, 0, 2 * Math.PI);
    pen.fillStyle = fill;
    pen.fill();
  }

  function drawTable() {
    pen.fillStyle = colours.wood;
    pen.fillRect(0, 0, canvas.width, canvas.height);
    polygon(table.slate);
    pen.fillStyle = colours.cloth;
    pen.fill();
    table.holes.forEach((hole) => disc(hole.centre[0], hole.centre[1], hole.radius, colours.pocket));
    pen.lineWidth = Math.max(1, scale * 0.004 * table.units_per_metre);
    table.cushions.forEach((outline) => {
      polygon(outline);
      pen.fillStyle = colours.cushion;
      pen.fill();
      pen.strokeStyle = colours.nose;
      pen.stroke();
    });
    pen.strokeStyle = colours.mark;
    table.lines.forEach((x) => {
      const [ax, ay] = toPixel(x, 0);
      const [bx, by] = toPixel(x, table.width);
      pen.beginPath();
      pen.moveTo(ax, ay);
      pen.lineTo(bx, by);
      pen.stroke();
    });
    table.spots.forEach(([x, y]) => disc(x, y, 0.008 * table.units_per_metre, colours.mark));
  }

  function drawBalls(balls, cueBall) {
    const r = table.ball_radius;
    pen.textAlign = "center";
    pen.textBaseline = "middle";
    pen.font = `bold ${Math.max(8, Math.round(r * scale * 1.1))}px sans-serif`;
    balls.forEach((xy, ball) => {
      if (xy === null) return;
      const coloured = ball === table.coloured_ball;
      disc(xy[0], xy[1], r, coloured ? colours.coloured_fill : colours.ivory);
      const [px, py] = toPixel(xy[0], xy[1]);
      if (coloured) {
        pen.beginPath();
        pen.arc(px, py, r * scale * 0.75, 0, 2 * Math.PI);
        pen.strokeStyle = colours.coloured_ring;
        pen.lineWidth = Math.max(1, r * scale * 0.2);
        pen.stroke();
      }
      if (ball === cueBall) {
        pen.beginPath();
        pen.arc(px, py, r * scale + 3, 0, 2 * Math.PI);
        pen.strokeStyle = colours.cue_ring;
        pen.lineWidth = 2;
        pen.stroke();
      }
      pen.fillStyle = colours.number;
      pen.fillText(String(ball), px, py + 0.5);
    });
  }

  // The balls of decision d at t seconds into its shot: interpolated between the samples.
  function ballsAt(d, t) {
    if (t >= d.duration) return d.final;
    const balls = d.start.slice();
    const i = t * fps;
    d.moves.forEach((move) => {
      if (move.gone !== null && i >= move.gone) {
        balls[move.ball] = null;
        return;
      }
      const last = move.xy.length / 2 - 1;
      const k = Math.min(Math.floor(i), last);
      const k1 = Math.min(k + 1, last);
      const f = Math.min(i - k, 1);
      const xy = move.xy;
      balls[move.ball] = [
        xy[2 * k] + (xy[2 * k1] - xy[2 * k]) * f,
        xy[2 * k + 1] + (xy[2 * k1 + 1] - xy[2 * k + 1]) * f,
      ];
    });
    return balls;
  }

  function frame() {
    return frames[now.frame];
  }

  function offsets() {
    const out = [];
    let total = 0;
    frame().decisions.forEach((d) => {
      out.push(total);
      total += d.duration;
    });
    return { starts: out, total };
  }

  function who(d) {
    const agents = frame().agents;
    return `${d.number}. P${d.player} (${agents[d.player]}), ${d.decision}: ${d.what}`;
  }

  function draw() {
    const d = frame().decisions[now.decision];
    drawTable();
    drawBalls(ballsAt(d, now.time), now.time < d.duration ? d.cue_ball : null);
    byId("replay-who").textContent = who(d);
    byId("replay-call").textContent = d.call || "–";
    byId("replay-ruling").textContent = d.ruling || "–";
    const { starts, total } = offsets();
    const at = starts[now.decision] + Math.min(now.time, d.duration);
    byId("replay-scrub").value = String(total ? Math.round((at / total) * 1000) : 0);
    byId("replay-clock").textContent = `${at.toFixed(1)} s / ${total.toFixed(1)} s`;
    Array.from(byId("replay-shots").children).forEach((li, i) => {
      li.classList.toggle("current", i === now.decision);
    });
  }

  function seek(decision, time) {
    const decisions = frame().decisions;
    now.decision = Math.max(0, Math.min(decision, decisions.length - 1));
    now.time = Math.max(0, Math.min(time, decisions[now.decision].duration));
    now.held = 0;
    draw();
  }

  function selectFrame(index) {
    now.frame = Math.max(0, Math.min(index, frames.length - 1));
    byId("replay-frame").value = String(now.frame);
    const f = frame();
    byId("replay-frame-info").textContent =
      `Frame ${f.frame} (seed ${f.seed}): P0 ${f.agents[0]} breaks, P1 ${f.agents[1]}; ${f.result}`;
    const list = byId("replay-shots");
    list.replaceChildren();
    f.decisions.forEach((d, i) => {
      const li = document.createElement("li");
      li.textContent = `P${d.player} ${d.what}${d.call ? ` · ${d.call}` : ""}` +
        (d.ruling ? ` — ${d.ruling}` : "");
      li.addEventListener("click", () => seek(i, 0));
      list.appendChild(li);
    });
    seek(0, 0);
  }

  function setPlaying(playing) {
    now.playing = playing;
    now.last = null;
    byId("replay-play").textContent = playing ? "Pause" : "Play";
    if (playing) requestAnimationFrame(tick);
  }

  function tick(stamp) {
    if (!now.playing) return;
    const step = now.last === null ? 0 : (stamp - now.last) / 1000;
    now.last = stamp;
    const decisions = frame().decisions;
    const d = decisions[now.decision];
    if (now.time < d.duration) {
      now.time = Math.min(d.duration, now.time + step);
    } else if (now.held < HOLD) {
      now.held += step;
    } else if (now.decision + 1 < decisions.length) {
      now.decision += 1;
      now.time = 0;
      now.held = 0;
    } else {
      setPlaying(false);
    }
    draw();
    if (now.playing) requestAnimationFrame(tick);
  }

  frames.forEach((f, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = `${f.frame}: ${f.agents[0]} v ${f.agents[1]}`;
    byId("replay-frame").appendChild(option);
  });
  byId("replay-frame").addEventListener("change", (event) => {
    setPlaying(false);
    selectFrame(Number(event.target.value));
  });
  byId("replay-play").addEventListener("click", () => setPlaying(!now.playing));
  byId("replay-scrub").addEventListener("input", (event) => {
    const { starts, total } = offsets();
    const at = (Number(event.target.value) / 1000) * total;
    const decisions = frame().decisions;
    let i = 0;
    while (i + 1 < decisions.length && at > starts[i] + decisions[i].duration) i += 1;
    seek(i, at - starts[i]);
  });
  selectFrame(0);

  // For scripts and tests: where the replay is and what it shows.
  window.kinghillReplay = {
    selectFrame,
    seek,
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    toPixel,
    state: () => {
      const d = frame().decisions[now.decision];
      return {
        frame: now.frame,
        decision: now.decision,
        time: now.time,
        duration: d.duration,
        playing: now.playing,
        balls: ballsAt(d, now.time),
      };
    },
  };
})();
