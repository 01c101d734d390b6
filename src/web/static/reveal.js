// Reveals a frozen scoreboard one result at a time (the admin's reveal
// page). It starts from the board as the public sees it and, at each
// click, uncovers the leftmost frozen cell of the lowest row that has one,
// with the cell as the whole board has it, and ranks again. Once nothing
// is left it shows the whole board exactly as the server ranked it.
"use strict";

(function () {
  const root = document.getElementById("reveal");
  if (!root) {
    return;
  }
  const data = JSON.parse(document.getElementById("reveal-data").textContent);
  const full = new Map(data.full.map((row) => [row.user, row]));
  const finalIndex = new Map(data.full.map((row, index) => [row.user, index]));
  const same = (a, b) =>
    a.solved_minute === b.solved_minute && a.tries === b.tries &&
    a.pending === b.pending && a.score === b.score;
  // Each row as the public sees it, with the cells still to reveal.
  const rows = data.frozen.map((row) => ({
    user: row.user,
    cells: row.cells.map((cell) => Object.assign({}, cell)),
    hidden: new Set(row.cells
      .map((cell, index) => [cell, index])
      .filter(([cell, index]) => !same(cell, full.get(row.user).cells[index]))
      .map(([, index]) => index)),
    revealed: -1,
  }));

  // The row's totals and its sort key, smaller first: as the server ranks
  // (minutes stand for the last solve's time; ties in it keep the final
  // board's order).
  function key(row) {
    if (data.ioi) {
      const score = row.cells.reduce((sum, cell) => sum + Math.round((cell.score || 0) * 100), 0);
      row.total = score / 100;
      return [-score, 0, 0];
    }
    let solved = 0;
    let penalty = 0;
    let last = 0;
    for (const cell of row.cells) {
      if (cell.solved_minute !== null && cell.solved_minute !== undefined) {
        solved += 1;
        penalty += cell.solved_minute + data.penalty * cell.tries;
        last = Math.max(last, cell.solved_minute);
      }
    }
    row.solved = solved;
    row.penalty = penalty;
    return [-solved, penalty, last];
  }

  function compare(a, b) {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < 3; i++) {
      if (ka[i] !== kb[i]) {
        return ka[i] - kb[i];
      }
    }
    return finalIndex.get(a.user) - finalIndex.get(b.user);
  }

  function cellText(cell) {
    if (data.ioi) {
      const tried = cell.solved_minute !== null || cell.tries > 0 || (cell.score || 0) > 0;
      return (tried ? String(cell.score) : "") + (cell.pending > 0 ? " ?" + cell.pending : "");
    }
    if (cell.solved_minute !== null && cell.solved_minute !== undefined) {
      return (cell.tries > 0 ? "+" + cell.tries : "+") + " " + cell.solved_minute;
    }
    return (cell.tries > 0 ? "-" + cell.tries : "") + (cell.pending > 0 ? " ?" + cell.pending : "");
  }

  function cellClass(cell) {
    if (cell.solved_minute !== null && cell.solved_minute !== undefined) {
      return cell.first_to_solve ? "cell first" : "cell solved";
    }
    if (cell.pending > 0) {
      return "cell pending";
    }
    return cell.tries > 0 || (cell.score || 0) > 0 ? "cell tried" : "cell";
  }

  function td(text, className) {
    const element = document.createElement("td");
    element.textContent = text;
    if (className) {
      element.className = className;
    }
    return element;
  }

  // Draws `shown`: rows with their rank, user, totals and cells.
  function draw(shown, highlight) {
    const table = document.createElement("table");
    table.className = "list scoreboard";
    const head = document.createElement("tr");
    const titles = ["#", "Who"].concat(data.ioi ? ["Score"] : ["Solved", "Penalty"], data.labels);
    for (const title of titles) {
      const th = document.createElement("th");
      th.textContent = title;
      head.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    const tbody = document.createElement("tbody");
    for (const row of shown) {
      const tr = document.createElement("tr");
      tr.dataset.user = row.user;
      tr.append(td(String(row.rank)), td(row.user));
      if (data.ioi) {
        tr.append(td(String(row.total), "count"));
      } else {
        tr.append(td(String(row.solved), "count"), td(String(row.penalty)));
      }
      row.cells.forEach((cell, index) => {
        const element = td(cellText(cell).trim(), cellClass(cell));
        element.dataset.label = data.labels[index];
        if (highlight && highlight.user === row.user && highlight.index === index) {
          element.classList.add("revealed");
        }
        tr.append(element);
      });
      tbody.append(tr);
    }
    table.append(thead, tbody);
    document.getElementById("reveal-board").replaceChildren(table);
  }

  function left() {
    return rows.reduce((sum, row) => sum + row.hidden.size, 0);
  }

  function show(highlight) {
    const count = left();
    const button = document.getElementById("reveal-next");
    if (count === 0) {
      // The whole board, as the server ranked it.
      draw(data.full.map((row) => Object.assign({ total: row.score }, row)), highlight);
      button.disabled = true;
      document.getElementById("reveal-left").textContent =
        "Every result is revealed: thaw the scoreboard to show it to everyone.";
      return;
    }
    rows.sort(compare);
    rows.forEach((row, index) => {
      const previous = rows[index - 1];
      const tied = previous && key(previous).join() === key(row).join();
      row.rank = tied ? previous.rank : index + 1;
    });
    draw(rows, highlight);
    document.getElementById("reveal-left").textContent =
      count === 1 ? "1 result to reveal" : count + " results to reveal";
  }

  document.getElementById("reveal-next").addEventListener("click", () => {
    for (let at = rows.length - 1; at >= 0; at--) {
      const row = rows[at];
      if (row.hidden.size > 0) {
        const index = Math.min(...row.hidden);
        row.hidden.delete(index);
        row.cells[index] = Object.assign({}, full.get(row.user).cells[index]);
        show({ user: row.user, index });
        return;
      }
    }
  });
  show(null);
})();
