// kinghill table drawing: one canvas painter for the report's replay and the live page
// (kinghill serve). Units are those of the table data (0.1 mm); x toward the rear, y up.
// Text never goes through here: callers put data on screen through textContent only.
"use strict";
window.kinghillTable = (function () {
  // each path comes as its first sample then the steps between samples: summed once here
  function unpack(decisions) {
    decisions.forEach((d) => d.moves.forEach((move) => {
      for (let i = 2; i < move.xy.length; i += 1) move.xy[i] += move.xy[i - 2];
    }));
    return decisions;
  }

  function painter(canvas, table, fps) {
    const pen = canvas.getContext("2d");
    const [x0, y0, x1, y1] = table.view;
    const scale = canvas.width / (x1 - x0);
    canvas.height = Math.round((y1 - y0) * scale);
    const colours = table.colours;

    function toPixel(x, y) {
      return [(x - x0) * scale, (y1 - y) * scale];
    }

    function fromPixel(px, py) {
      return [px / scale + x0, y1 - py / scale];
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

    return { pen, scale, toPixel, fromPixel, polygon, disc, drawTable, drawBalls, ballsAt };
  }

  return { unpack, painter };
})();
