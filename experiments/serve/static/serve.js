// kinghill serve: a person's seat at the table, and frames between agents to watch, over the
// server's JSON API. Drawn by table.js (the report's painter). Data is put on screen only through
// textContent (never as markup); the page talks to its own server and nothing else.
"use strict";
(function () {
  const setup = JSON.parse(document.getElementById("kinghill-data").textContent);
  const byId = (id) => document.getElementById(id);
  const table = setup.table;
  const unit = table.units_per_metre;
  const R = table.ball_radius;
  const HOLD = 0.6; // seconds the end of a shot is held (the server's clock counts it too)
  const POLL_MS = 250;
  const AIM_STEP = (0.1 * Math.PI) / 180;
  const KEPT = "kinghill-game"; // sessionStorage: the key of the frame this tab plays
  const paint = window.kinghillTable.painter(byId("table"), table, setup.fps);
  const houseX = table.lines[0];

  // the frame as the server last told it, and what the page has shown of it
  const game = { key: null, state: null, decisions: [], shown: 0, time: 0, held: 0, last: null,
    review: null, polling: false, clockAt: 0 };
  // the person's decision being built
  const seat = { cue: null, phi: 0, speed: 2.5, tip: [0, 0], kind: "whites", pocket: null,
    route: [], place: null, dragging: false, decisionKey: "", sending: false };
  // the previews of the call asked for, one after another: a decision is sent after the last of
  // them, so that none reaches the server once the turn has passed (it would be refused, 409)
  let previews = Promise.resolve();

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  function agentLabel(agent) {
    return agent.rating ? `${agent.name} (rating ${agent.rating})` : agent.name;
  }

  setup.agents.forEach((agent) => {
    ["opponent", "watch-a", "watch-b"].forEach((id) => option(byId(id), agent.name, agentLabel(agent)));
  });
  if (setup.agents.length > 1) byId("watch-b").selectedIndex = 1;
  for (let n = 1; n <= 7; n += 1) {
    option(byId("required-person"), String(n), String(n));
    option(byId("required-agent"), String(n), String(n));
  }
  byId("required-person").value = "3";
  byId("required-agent").value = "3";
  option(byId("round"), "", "none");
  for (let n = 1; n <= setup.max_round; n += 1) option(byId("round"), String(n), `round ${n}`);

  function button(parent, label, onClick, data) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    Object.entries(data || {}).forEach(([k, v]) => { b.dataset[k] = v; });
    b.addEventListener("click", onClick);
    parent.appendChild(b);
    return b;
  }

  setup.kinds.forEach((k) => button(byId("kinds"), k.kind, () => setKind(k.kind), { kind: k.kind, help: k.help }));
  setup.pockets.forEach((p) => button(byId("pockets"), p.name, () => setPocket(p.name), { pocket: p.name }));
  setup.cushions.forEach((c) => button(byId("route"), c, () => addTouch(c), { touch: c }));
  for (let ball = 0; ball <= 7; ball += 1) {
    button(byId("route"), `ball ${ball}`, () => addTouch(ball), { touch: String(ball) });
  }
  button(byId("route"), "clear", () => { seat.route = []; changed(); }, { touch: "clear" });

  // ---- talking to the server --------------------------------------------------------------
  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    const data = text ? JSON.parse(text) : {};
    if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
    return data;
  }

  function notice(text) {
    byId("notice").textContent = text;
  }

  function playback() {
    return Number(byId("playback").value) || 1;
  }

  async function start(path, body) {
    try {
      if (game.key) { // leave the frame on the table (its record stays): it frees its seat
        const old = game.key;
        game.key = null;
        await api("DELETE", `/api/games/${old}`).catch(() => null);
      }
      show(await api("POST", path, body));
    } catch (error) {
      notice(error.message);
    }
  }

  // The page shows the frame of ``state`` from its first decision and follows it; the frame's
  // key is kept for this tab, so that a reload comes back to it (``rejoin``).
  function show(state) {
    game.key = state.game;
    sessionStorage.setItem(KEPT, state.game);
    game.decisions = [];
    game.shown = 0;
    game.time = 0;
    game.held = 0;
    game.review = null;
    byId("shots").replaceChildren();
    byId("result").textContent = "";
    notice("");
    byId("play").hidden = false;
    take(state);
    poll();
  }

  // After a reload: the frame this tab was playing, if the server still holds it.
  async function rejoin() {
    const key = sessionStorage.getItem(KEPT);
    if (!key || game.key) return;
    try {
      show(await api("GET", `/api/games/${key}?since=0`));
    } catch (error) { // let go meanwhile (idle, or the server restarted): start afresh
      sessionStorage.removeItem(KEPT);
    }
  }

  byId("new-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const round = byId("round").value;
    const body = {
      opponent: byId("opponent").value,
      person_breaks: byId("person-breaks").checked,
      required: [Number(byId("required-person").value), Number(byId("required-agent").value)],
      round: round ? Number(round) : null,
    };
    const seed = byId("seed").value.trim();
    if (seed) body.seed = seed; // as text: a seed is wider than JavaScript's numbers
    start("/api/games", body);
  });
  byId("watch-form").addEventListener("submit", (event) => {
    event.preventDefault();
    start("/api/watch", { agents: [byId("watch-a").value, byId("watch-b").value] });
  });

  // A state from the server: its new decisions join the list to be shown.
  function take(state) {
    const first = state.count - state.decisions.length;
    if (state.game !== game.key || first > game.decisions.length || state.count < game.decisions.length) return;
    const fresh = state.decisions.slice(game.decisions.length - first);
    window.kinghillTable.unpack(fresh);
    fresh.forEach((d) => {
      game.decisions.push(d);
      addToList(d, game.decisions.length - 1);
    });
    game.state = state;
    game.clockAt = performance.now();
    if (state.fault) notice(state.fault);
    const names = state.agents.map((name, p) => (p === state.person ? "you" : name));
    byId("frame-info").textContent =
      `Frame ${state.number} (seed ${state.seed}): P0 (${names[0]}) breaks, P1 (${names[1]})`;
    byId("score").textContent = [0, 1].map((p) =>
      `P${p} ${names[p]}: ${state.credited[p].length}/${state.required[p]} whites, ${state.fouls[p]} foul${state.fouls[p] === 1 ? "" : "s"}`).join("; ");
    byId("turn").textContent = state.result ? "the frame is over"
      : `P${state.to_move} (${names[state.to_move]}), ${state.decision}`;
  }

  function addToList(d, index) {
    const li = document.createElement("li");
    const names = game.state ? game.state.agents : [];
    const who = game.state && d.player === game.state.person ? "you" : (names[d.player] || `P${d.player}`);
    li.textContent = `${who}: ${d.what}${d.call ? ` · ${d.call}` : ""}${d.ruling ? ` — ${d.ruling}` : ""}`;
    li.addEventListener("click", () => review(index));
    byId("shots").appendChild(li);
  }

  async function poll() {
    if (game.polling) return;
    game.polling = true;
    const key = game.key;
    while (key === game.key) {
      const state = game.state;
      if (state && (state.fault || (state.result && game.shown >= game.decisions.length))) break;
      try {
        take(await api("GET", `/api/games/${key}?since=${game.decisions.length}`));
      } catch (error) {
        notice(error.message);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    game.polling = false;
  }

  // ---- showing ------------------------------------------------------------------------------
  function caughtUp() {
    return game.review === null && game.shown >= game.decisions.length;
  }

  function ready() {
    return Boolean(game.state && game.state.your_turn && caughtUp());
  }

  function showDecision(d) {
    const names = game.state.agents.map((name, p) => (p === game.state.person ? "you" : name));
    byId("who").textContent = `${d.number}. P${d.player} (${names[d.player]}), ${d.decision}: ${d.what}`;
    byId("call").textContent = d.call || "–";
    byId("ruling").textContent = d.ruling || "–";
    Array.from(byId("shots").children).forEach((li, i) => {
      li.classList.toggle("current", i === d.number - 1);
    });
  }

  function review(index) {
    game.review = { index, time: 0, held: 0 };
    byId("live").hidden = false;
  }

  byId("live").addEventListener("click", () => {
    game.review = null;
    byId("live").hidden = true;
  });

  function tick(stamp) {
    const step = game.last === null ? 0 : ((stamp - game.last) / 1000) * playback();
    game.last = stamp;
    if (game.state) frame(step);
    requestAnimationFrame(tick);
  rejoin();
  }

  // Advance the animation by step seconds and draw: a reviewed shot, the next shot to show,
  // or the table as it stands with the person's aim.
  function frame(step) {
    if (game.review !== null) {
      const r = game.review;
      const d = game.decisions[r.index];
      r.time = Math.min(d.duration, r.time + step);
      showDecision(d);
      paint.drawTable();
      paint.drawBalls(paint.ballsAt(d, r.time), r.time < d.duration ? d.cue_ball : null);
      return;
    }
    if (game.shown < game.decisions.length) {
      const d = game.decisions[game.shown];
      if (game.time < d.duration) game.time = Math.min(d.duration, game.time + step);
      else if (game.held < HOLD) game.held += step;
      else {
        game.shown += 1;
        game.time = 0;
        game.held = 0;
      }
      showDecision(d);
      paint.drawTable();
      paint.drawBalls(paint.ballsAt(d, game.time), game.time < d.duration ? d.cue_ball : null);
      return;
    }
    const state = game.state;
    if (state.result) byId("result").textContent = state.result;
    showSeat();
    paint.drawTable();
    const balls = currentBalls();
    paint.drawBalls(balls, ready() && state.decision !== "choice" ? seat.cue : null);
    if (ready() && state.decision !== "choice") drawAim(balls);
    showClock();
  }

  function currentBalls() {
    const balls = game.state.position.slice();
    if (seat.place) balls[setup.break_ball] = seat.place;
    return balls;
  }

  function showClock() {
    const clock = game.state.clock;
    if (!clock || !ready()) {
      byId("clock").textContent = clock ? "waiting" : "–";
      byId("extend").hidden = true;
      return;
    }
    const left = clock.left - (performance.now() - game.clockAt) / 1000;
    byId("clock").textContent = left > clock.limit + (clock.claimed ? clock.extension : 0)
      ? `${clock.limit + (clock.claimed ? clock.extension : 0)} s (starts when the shot ends)`
      : `${Math.max(0, left).toFixed(1)} s left${clock.claimed ? " (extension claimed)" : ""}`;
    byId("extend").hidden = !clock.open;
  }

  // ---- the person's decision ------------------------------------------------------------------
  function showSeat() {
    const mine = ready();
    byId("seat").hidden = !mine;
    if (!mine) return;
    const state = game.state;
    const key = `${state.game}:${state.count}`;
    if (seat.decisionKey !== key) startDecision(key);
    const choosing = state.decision === "choice";
    byId("choice").hidden = !choosing;
    byId("shot-controls").hidden = choosing;
  }

  function startDecision(key) {
    const state = game.state;
    seat.decisionKey = key;
    seat.kind = "whites";
    seat.pocket = null;
    seat.route = [];
    seat.tip = [0, 0];
    seat.dragging = false;
    byId("message").textContent = "";
    const balls = state.position;
    if (state.decision === "break") {
      seat.cue = setup.break_ball;
      seat.place = balls[setup.break_ball].slice();
      seat.speed = 7;
      seat.phi = 0;
    } else {
      seat.place = null;
      seat.cue = balls.findIndex((xy, b) => xy !== null && b !== table.coloured_ball);
      if (seat.cue < 0) seat.cue = table.coloured_ball;
      seat.speed = 2.5;
      const colour = balls[table.coloured_ball];
      if (colour && seat.cue !== table.coloured_ball) seat.phi = angle(balls[seat.cue], colour);
    }
    changed();
  }

  function angle(from, to) {
    return Math.atan2(to[1] - from[1], to[0] - from[0]);
  }

  function action() {
    const body = {
      cue_ball: seat.cue,
      phi: seat.phi,
      speed: seat.speed,
      tip: seat.tip,
      call: seat.kind === "whites" ? null : { kind: seat.kind, pocket: seat.pocket, route: seat.route },
    };
    if (seat.place) body.place = seat.place.map((v) => v / unit);
    return body;
  }

  // The controls show the decision; the server says the call in words (or what is wrong).
  async function changed() {
    byId("cue-ball").textContent = `ball ${seat.cue}${seat.cue === table.coloured_ball ? " (the coloured ball)" : ""}`;
    byId("speed").value = String(seat.speed);
    byId("speed-value").textContent = seat.speed.toFixed(2);
    byId("tip-a").value = String(seat.tip[0]);
    byId("tip-b").value = String(seat.tip[1]);
    byId("tip-value").textContent = `tip (${seat.tip[0].toFixed(2)}, ${seat.tip[1].toFixed(2)}) R`;
    byId("kinds").querySelectorAll("button").forEach((b) => b.classList.toggle("selected", b.dataset.kind === seat.kind));
    byId("pockets").querySelectorAll("button").forEach((b) => b.classList.toggle("selected", b.dataset.pocket === seat.pocket));
    if (!ready() || seat.sending) return;
    const key = seat.decisionKey;
    const [url, body] = [`/api/games/${game.key}/preview`, action()];
    const asked = previews.then(() => api("POST", url, body));
    previews = asked.catch(() => {});
    try {
      const words = await asked;
      if (key === seat.decisionKey) byId("call-text").textContent = words.problem || words.call;
    } catch (error) {
      if (key === seat.decisionKey) byId("call-text").textContent = error.message;
    }
  }

  function setKind(kind) {
    if (seat.place && kind !== "whites") {
      byId("message").textContent = "no call on the break (4.4)";
      return;
    }
    seat.kind = kind;
    seat.route = [];
    if (kind === "carom" && game.state.position[table.coloured_ball]) seat.cue = table.coloured_ball;
    const help = setup.kinds.find((k) => k.kind === kind);
    byId("message").textContent = help ? help.help : "";
    changed();
  }

  function setPocket(name) {
    if (seat.place) {
      byId("message").textContent = "no call on the break (4.4)";
      return;
    }
    seat.pocket = name;
    if (seat.kind === "whites") seat.kind = "plain";
    changed();
  }

  function addTouch(touch) {
    if (seat.kind === "whites" || seat.kind === "plain") {
      byId("message").textContent = `a ${seat.kind} call has no route to add to; choose another kind`;
      return;
    }
    seat.route.push(touch);
    changed();
  }

  function setSpeed(speed) {
    seat.speed = Math.round(Math.min(Math.max(speed, 0.1), setup.max_speed) * 100) / 100;
    changed();
  }

  function setTip(a, b) {
    const norm = Math.hypot(a, b);
    const limit = setup.max_tip;
    if (norm > limit) [a, b] = [(a * limit) / norm, (b * limit) / norm];
    seat.tip = [Math.round(a * 1000) / 1000, Math.round(b * 1000) / 1000];
    changed();
  }

  async function send(path, body) {
    if (!ready() || seat.sending) return; // one decision at a time
    seat.sending = true;
    try {
      await previews;
      const state = await api("POST", `/api/games/${game.key}/${path}?since=${game.decisions.length}`, body);
      seat.decisionKey = "";
      take(state);
      poll();
    } catch (error) {
      byId("message").textContent = error.message;
    } finally {
      seat.sending = false;
    }
  }

  function shoot() {
    if (game.state.decision !== "choice") send("shot", action());
  }

  async function claim() {
    try {
      const answer = await api("POST", `/api/games/${game.key}/extension`, {});
      byId("message").textContent = answer.granted ? "15 s more (12.5, 12.6)" : "no extension left (12.5, 12.7)";
      take(await api("GET", `/api/games/${game.key}?since=${game.decisions.length}`));
    } catch (error) {
      byId("message").textContent = error.message;
    }
  }

  byId("shoot").addEventListener("click", shoot);
  byId("play-on").addEventListener("click", () => send("choice", { play_on: true }));
  byId("hand-back").addEventListener("click", () => send("choice", { play_on: false }));
  byId("extend").addEventListener("click", claim);
  byId("speed").addEventListener("input", (e) => setSpeed(Number(e.target.value)));
  byId("tip-a").addEventListener("input", (e) => setTip(Number(e.target.value), seat.tip[1]));
  byId("tip-b").addEventListener("input", (e) => setTip(seat.tip[0], Number(e.target.value)));

  // ---- the mouse on the table -------------------------------------------------------------------
  function tablePoint(event) {
    const canvas = byId("table");
    const box = canvas.getBoundingClientRect();
    const px = ((event.clientX - box.left) * canvas.width) / box.width;
    const py = ((event.clientY - box.top) * canvas.height) / box.height;
    return paint.fromPixel(px, py);
  }

  function ballAt(balls, xy) {
    return balls.findIndex((b) => b !== null && Math.hypot(b[0] - xy[0], b[1] - xy[1]) <= R);
  }

  function pocketAt(xy) {
    const near = setup.pockets.find((p) => Math.hypot(p.xy[0] - xy[0], p.xy[1] - xy[1]) <= 0.07 * unit);
    return near ? near.name : null;
  }

  byId("table").addEventListener("mousedown", (event) => {
    if (!ready() || game.state.decision === "choice") return;
    event.preventDefault();
    byId("table").focus();
    const xy = tablePoint(event);
    const balls = currentBalls();
    const ball = ballAt(balls, xy);
    if (seat.place) {
      if (ball === setup.break_ball) seat.dragging = true;
      else if (xy[0] < houseX && ball < 0) {
        seat.place = [Math.min(Math.max(xy[0], R + 1), houseX - 1), Math.min(Math.max(xy[1], R + 1), table.width - R - 1)];
        byId("message").textContent = "white 1 placed in the house";
      } else seat.phi = angle(balls[seat.cue], xy);
      changed();
      return;
    }
    if (ball >= 0) {
      seat.cue = ball;
      seat.dragging = true;
      changed();
      return;
    }
    const pocket = pocketAt(xy);
    if (pocket) setPocket(pocket);
    else {
      seat.phi = angle(balls[seat.cue], xy);
      changed();
    }
  });
  byId("table").addEventListener("mousemove", (event) => {
    if (!seat.dragging || !ready()) return;
    const xy = tablePoint(event);
    const from = currentBalls()[seat.cue];
    if (Math.hypot(xy[0] - from[0], xy[1] - from[1]) > R) seat.phi = angle(from, xy);
  });
  window.addEventListener("mouseup", () => {
    if (seat.dragging) {
      seat.dragging = false;
      changed();
    }
  });

  // The aim: a line from the cue ball to the first ball it would meet, and the ghost ball there.
  function drawAim(balls) {
    const from = balls[seat.cue];
    if (!from) return;
    const dx = Math.cos(seat.phi);
    const dy = Math.sin(seat.phi);
    let reach = 4 * unit;
    let hit = null;
    balls.forEach((b, i) => {
      if (b === null || i === seat.cue) return;
      const along = (b[0] - from[0]) * dx + (b[1] - from[1]) * dy;
      const off = Math.abs((b[0] - from[0]) * dy - (b[1] - from[1]) * dx);
      if (along <= 0 || off >= 2 * R) return;
      const t = along - Math.sqrt(4 * R * R - off * off);
      if (t < reach) {
        reach = t;
        hit = i;
      }
    });
    const pen = paint.pen;
    const [ax, ay] = paint.toPixel(from[0], from[1]);
    const [bx, by] = paint.toPixel(from[0] + dx * reach, from[1] + dy * reach);
    pen.save();
    pen.setLineDash([8, 6]);
    pen.strokeStyle = "#ffffff";
    pen.lineWidth = 1.5;
    pen.beginPath();
    pen.moveTo(ax, ay);
    pen.lineTo(bx, by);
    pen.stroke();
    if (hit !== null) {
      pen.setLineDash([]);
      pen.beginPath();
      pen.arc(bx, by, R * paint.scale, 0, 2 * Math.PI);
      pen.stroke();
    }
    pen.restore();
  }

  // ---- keys ---------------------------------------------------------------------------------
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (!ready() || tag === "INPUT" || tag === "SELECT") return;
    if (tag === "BUTTON" && (event.key === "Enter" || event.key === " ")) return; // its own click
    const choosing = game.state.decision === "choice";
    const key = event.key;
    const tipStep = 0.05;
    const handled = choosing ? {
      p: () => send("choice", { play_on: true }),
      h: () => send("choice", { play_on: false }),
    } : {
      Enter: shoot,
      ArrowLeft: () => { seat.phi += AIM_STEP * (event.shiftKey ? 10 : 1); changed(); },
      ArrowRight: () => { seat.phi -= AIM_STEP * (event.shiftKey ? 10 : 1); changed(); },
      ArrowUp: () => setSpeed(seat.speed + 0.25),
      ArrowDown: () => setSpeed(seat.speed - 0.25),
      w: () => setTip(seat.tip[0], seat.tip[1] + tipStep),
      s: () => setTip(seat.tip[0], seat.tip[1] - tipStep),
      a: () => setTip(seat.tip[0] - tipStep, seat.tip[1]),
      d: () => setTip(seat.tip[0] + tipStep, seat.tip[1]),
      c: () => setTip(0, 0),
      x: claim,
    };
    const run = handled[key.length === 1 ? key.toLowerCase() : key];
    if (run) {
      event.preventDefault();
      run();
    }
  });

  requestAnimationFrame(tick);

  // For scripts and tests: where the page is, and table points in the window's pixels.
  window.kinghillServe = {
    ready,
    caughtUp,
    game: () => ({ key: game.key, state: game.state, shown: game.shown, decisions: game.decisions.length }),
    seat: () => ({ ...seat }),
    clientPoint: (x, y) => {
      const canvas = byId("table");
      const box = canvas.getBoundingClientRect();
      const [px, py] = paint.toPixel(x, y);
      return [box.left + (px * box.width) / canvas.width, box.top + (py * box.height) / canvas.height];
    },
  };
})();
