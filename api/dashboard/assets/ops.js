// The operations page's live figures: every few seconds, stats.json (the same figures the page
// was drawn with) updates the cells in place; only the "updated at" line is announced.
"use strict";

(function () {
  const kIntervalMs = 3000;
  const generated = document.getElementById("ops-generated");
  if (!generated) return;
  const throughput = document.getElementById("ops-throughput");
  const workersBody = document.getElementById("ops-workers");
  const noWorkers = document.getElementById("ops-no-workers");
  // The finished jobs and the time of the figures last shown, for jobs finished per second.
  function count(status) {
    const el = document.querySelector(`[data-stat="jobs.${status}"]`);
    return el ? Number(el.textContent) : 0;
  }
  let previous = {
    finished: count("completed") + count("failed"),
    at: Date.parse(generated.dateTime),
  };

  function lookup(stats, path) {
    return path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), stats);
  }

  function cell(text, code) {
    const td = document.createElement("td");
    if (code) {
      const c = document.createElement("code");
      c.textContent = text;
      td.appendChild(c);
    } else {
      td.textContent = text;
    }
    return td;
  }

  function timeCell(iso) {
    const td = document.createElement("td");
    const t = document.createElement("time");
    t.dateTime = iso;
    t.textContent = iso;
    td.appendChild(t);
    return td;
  }

  // "generate 2 × 16, publish 1 × 8", as the server draws it.
  function poolSizes(pools) {
    return pools.map((p) => `${p.name} ${p.threads} × ${p.fibers}`).join(", ");
  }

  function showWorkers(workers) {
    const rows = workers.map((w) => {
      const tr = document.createElement("tr");
      tr.append(cell(w.id, true), cell(w.host), cell(String(w.pid)), cell(poolSizes(w.pools)),
                cell(String(w.in_flight)), timeCell(w.started_at));
      return tr;
    });
    workersBody.replaceChildren(...rows);
    noWorkers.hidden = workers.length > 0;
  }

  // Entries in and out of each pool's stream per second: the difference between the cumulative
  // counts of two readings, the last of which each cell keeps in data-count. A count that went
  // down (Redis lost its data) starts the measure again.
  function showRates(stats, seconds) {
    if (!(seconds > 0)) return;
    for (const el of document.querySelectorAll("[data-rate]")) {
      const count = lookup(stats, el.dataset.rate);
      if (typeof count !== "number") continue;
      const before = Number(el.dataset.count);
      el.textContent = count >= before ? ((count - before) / seconds).toFixed(1) : "measuring…";
      el.dataset.count = String(count);
    }
  }

  function show(stats) {
    for (const el of document.querySelectorAll("[data-stat]")) {
      const value = lookup(stats, el.dataset.stat);
      if (typeof value !== "number") continue;
      el.textContent = String(el.dataset.unit === "s" ? Math.floor(value / 1000) : value);
    }
    showWorkers(stats.workers);
    const finished = stats.jobs.completed + stats.jobs.failed;
    const at = Date.parse(stats.generated_at);
    if (at > previous.at) {
      const rate = (finished - previous.finished) / ((at - previous.at) / 1000);
      throughput.textContent = rate.toFixed(1);
    }
    showRates(stats, (at - previous.at) / 1000);
    previous = {finished, at};
    generated.dateTime = stats.generated_at;
    generated.textContent = stats.generated_at;
  }

  async function refresh() {
    try {
      const answer = await fetch("/dashboard/ops/stats.json", {
        credentials: "same-origin",
        headers: {Accept: "application/json"},
      });
      const type = answer.headers.get("Content-Type") || "";
      // A session that ended answers with the sign-in page: stop rather than poll it.
      if (!answer.ok || !type.startsWith("application/json")) {
        generated.textContent += " (live refresh stopped: reload the page)";
        return;
      }
      show(await answer.json());
    } catch {
      // The server is restarting or the network dropped: the next round tries again.
    }
    setTimeout(refresh, kIntervalMs);
  }

  setTimeout(refresh, kIntervalMs);
})();
