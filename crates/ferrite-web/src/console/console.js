// The Ferrite console: a page that uses only the REST API (the administrative API, the MQSC
// action and the messaging API) with the credentials given at login, held in memory only.
"use strict";

const REST = "/ibmmq/rest/v3";
const REFRESH_MS = 2000;
const PLOT_POINTS_MAX = 150;
const state = { authorization: null, qmgr: null, history: [], timer: null };

const $ = (id) => document.getElementById(id);

async function rest(method, path, body, contentType) {
  const headers = { "Authorization": state.authorization, "X-Requested-With": "ferrite-console" };
  if (method !== "GET") headers["ibm-mq-rest-csrf-token"] = "console";
  if (body !== undefined) headers["Content-Type"] = contentType || "application/json";
  const response = await fetch(REST + path, {
    method, headers,
    body: body === undefined ? undefined : (typeof body === "string" ? body : JSON.stringify(body)),
  });
  const text = await response.text();
  let json = null;
  if ((response.headers.get("Content-Type") || "").includes("json") && text) json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}

function errorText(answer) {
  if (answer.json && answer.json.error) {
    const error = answer.json.error[0];
    return `${error.message} (reason ${error.reasonCode})`;
  }
  return `HTTP ${answer.status}`;
}

async function login(event) {
  event.preventDefault();
  const user = $("login-user").value;
  state.authorization = "Basic " + btoa(user + ":" + $("login-password").value);
  const answer = await rest("GET", "/admin/qmgr?status=*");
  if (answer.status !== 200) {
    $("login-error").textContent = errorText(answer);
    return;
  }
  state.qmgr = answer.json.qmgr[0].name;
  $("qmgr-name").textContent = state.qmgr;
  $("login").hidden = true;
  $("console").hidden = false;
  $("status").textContent = "Logged in as " + user;
  await refresh();
  state.timer = setInterval(refresh, REFRESH_MS);
}

async function refresh() {
  const overview = await rest("GET", `/admin/qmgr/${state.qmgr}?status=*`);
  if (overview.status === 200) {
    const qmgr = overview.json.qmgr[0];
    $("overview-name").textContent = qmgr.name;
    $("overview-state").textContent = qmgr.state;
    $("overview-connections").textContent = qmgr.status ? qmgr.status.connectionCount : "";
  }
  const queues = await rest("GET",
    `/admin/qmgr/${state.qmgr}/queue?type=local&attributes=storage.maximumDepth&status=*`);
  if (queues.status !== 200) {
    $("status").textContent = errorText(queues);
    return;
  }
  showQueues(queues.json.queue);
  record(queues.json.queue);
  plot();
}

function cell(row, text, number) {
  const td = document.createElement("td");
  td.textContent = text === undefined ? "" : text;
  if (number) td.className = "number";
  row.appendChild(td);
}

function showQueues(queues) {
  const rows = $("queue-rows");
  rows.textContent = "";
  const select = $("message-queue");
  const chosen = select.value;
  select.textContent = "";
  for (const queue of queues) {
    const row = document.createElement("tr");
    row.dataset.queue = queue.name;
    const status = queue.status || {};
    cell(row, queue.name);
    cell(row, queue.type);
    cell(row, status.currentDepth, true);
    cell(row, queue.storage ? queue.storage.maximumDepth : "", true);
    cell(row, status.openInputCount, true);
    cell(row, status.openOutputCount, true);
    rows.appendChild(row);
    if (!queue.name.startsWith("SYSTEM.")) {
      const option = document.createElement("option");
      option.value = option.textContent = queue.name;
      select.appendChild(option);
    }
  }
  if (chosen) select.value = chosen;
}

// The depths of the application queues (not SYSTEM.*) over time, for the plot.
function record(queues) {
  const depths = {};
  for (const queue of queues) {
    if (!queue.name.startsWith("SYSTEM.") && queue.status) depths[queue.name] = queue.status.currentDepth;
  }
  state.history.push({ time: Date.now(), depths });
  if (state.history.length > PLOT_POINTS_MAX) state.history.shift();
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

function plot() {
  const canvas = $("plot");
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  const names = [...new Set(state.history.flatMap((point) => Object.keys(point.depths)))].sort();
  const highest = Math.max(1, ...state.history.flatMap((point) => Object.values(point.depths)));
  const x = (index) => 30 + (index * (canvas.width - 40)) / Math.max(1, PLOT_POINTS_MAX - 1);
  const y = (depth) => canvas.height - 20 - (depth * (canvas.height - 40)) / highest;
  context.fillStyle = "#555";
  context.fillText(String(highest), 2, 20);
  context.fillText("0", 2, canvas.height - 20);
  names.forEach((name, colour) => {
    context.strokeStyle = COLOURS[colour % COLOURS.length];
    context.beginPath();
    state.history.forEach((point, index) => {
      const depth = point.depths[name] || 0;
      if (index === 0) context.moveTo(x(index), y(depth)); else context.lineTo(x(index), y(depth));
    });
    context.stroke();
  });
  canvas.dataset.points = String(state.history.length);
  canvas.dataset.series = String(names.length);
  $("plot-legend").textContent = names
    .map((name, colour) => `${name} (${COLOURS[colour % COLOURS.length]})`).join(", ");
}

async function createQueue(event) {
  event.preventDefault();
  const body = { name: $("create-name").value, type: "local" };
  const maximumDepth = parseInt($("create-maxdepth").value, 10);
  if (maximumDepth > 0) body.storage = { maximumDepth };
  const answer = await rest("POST", `/admin/qmgr/${state.qmgr}/queue`, body);
  $("create-result").textContent = answer.status === 201 ? `Queue ${body.name} created.` : errorText(answer);
  await refresh();
}

function messagePath() {
  return `/messaging/qmgr/${state.qmgr}/queue/${encodeURIComponent($("message-queue").value)}/message`;
}

async function putMessage(event) {
  event.preventDefault();
  const answer = await rest("POST", messagePath(), $("put-text").value, "text/plain;charset=utf-8");
  $("message-output").textContent = answer.status === 201
    ? "Put message " + answer.headers.get("ibm-mq-md-messageId") : errorText(answer);
  await refresh();
}

async function receive(method) {
  const answer = await rest(method, messagePath());
  if (answer.status === 204) {
    $("message-output").textContent = "No message.";
  } else if (answer.status === 200) {
    const lines = ["messageId", "correlationId", "persistence", "expiry", "priority", "replyTo"]
      .map((name) => [name, answer.headers.get("ibm-mq-md-" + name)])
      .filter(([, value]) => value !== null)
      .map(([name, value]) => `${name}: ${value}`);
    $("message-output").textContent = lines.join("\n") + "\n\n" + answer.text;
  } else {
    $("message-output").textContent = errorText(answer);
  }
  await refresh();
}

async function runMqsc(event) {
  event.preventDefault();
  const command = $("mqsc-command").value;
  const answer = await rest("POST", `/admin/action/qmgr/${state.qmgr}/mqsc`,
    { type: "runCommand", parameters: { command } });
  if (answer.status !== 200) {
    $("mqsc-output").textContent = errorText(answer);
    return;
  }
  $("mqsc-output").textContent = answer.json.commandResponse
    .flatMap((item) => item.text || []).join("\n");
  await refresh();
}

$("login-form").addEventListener("submit", login);
$("create-form").addEventListener("submit", createQueue);
$("put-form").addEventListener("submit", putMessage);
$("browse-button").addEventListener("click", () => receive("GET"));
$("get-button").addEventListener("click", () => receive("DELETE"));
$("mqsc-form").addEventListener("submit", runMqsc);
