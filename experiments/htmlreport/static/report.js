// kinghill report page: replays the recorded frames inlined as JSON in #kinghill-data,
// drawn by table.js (the painter the live page of kinghill serve draws with too).
// Data is put on screen only through textContent (never as markup).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("kinghill-data").textContent);
  const frames = data.frames || [];
  frames.forEach((f) => window.kinghillTable.unpack(f.decisions));
  const byId = (id) => document.getElementById(id);
  if (!frames.length || !data.table) {
    byId("replay-none").hidden = false;
    return;
  }
  byId("replay-player").hidden = false;
  const table = data.table;
  const fps = data.fps;
  const HOLD = 0.6; // seconds the end of a shot is held before the next decision plays
  const { toPixel, drawTable, drawBalls, ballsAt } =
    window.kinghillTable.painter(byId("replay-canvas"), table, fps);
  const now = { frame: 0, decision: 0, time: 0, playing: false, held: 0, last: null };

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
