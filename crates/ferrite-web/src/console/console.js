// The Ferrite console: a page that uses only the REST API (the administrative API, the MQSC
// action and the messaging API) with the credentials given at login, held in memory only.
"use strict";

const REST = "/ibmmq/rest/v3";
const REFRESH_MS = 2000;
const PLOT_POINTS_MAX = 150;
// The messages the message browser lists at most (the messagelist resource's limit).
const MESSAGE_LIST_LIMIT = 100;
const state = {
  authorization: null, qmgr: null, history: [], timer: null, metrics: [], rates: [],
  queueRates: {}, listedQueue: null,
};

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
  await refreshChannels();
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
  await refreshMetrics();
}

// Channels and connections change less often: read once at login and after each command.
async function refreshChannels() {
  const channels = await rest("GET", `/admin/qmgr/${state.qmgr}/channel`);
  const rows = $("channel-rows");
  rows.textContent = "";
  if (channels.status === 200) {
    for (const channel of channels.json.channel) {
      const row = document.createElement("tr");
      cell(row, channel.name);
      cell(row, channel.type);
      cell(row, channel.general ? channel.general.description : "");
      rows.appendChild(row);
    }
  }
  const connections = await rest("POST", `/admin/action/qmgr/${state.qmgr}/mqsc`,
    { type: "runCommand", parameters: { command: "DISPLAY CONN(*) ALL" } });
  $("connections-output").textContent = connections.status === 200
    ? connections.json.commandResponse.flatMap((item) => item.text || []).join("\n")
    : errorText(connections);
}

// The sum of a metric's samples (whose labels match `where`) in a Prometheus text exposition.
function metricSum(samples, name, where) {
  let sum = 0;
  for (const sample of samples) {
    if (sample.name === name && (!where || where(sample.labels))) sum += sample.value;
  }
  return sum;
}

function parseExposition(text) {
  const samples = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = {};
    for (const pair of (match[3] || "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2];
    }
    samples.push({ name: match[1], labels, value: Number(match[4]) });
  }
  return samples;
}

// Put and get rates of the application queues, log MB/s and buffer pool usage from /metrics
// (MQWebAdmin and MQWebAdminRO only: the plots stay empty for other roles).
async function refreshMetrics() {
  const response = await fetch("/metrics", {
    headers: { "Authorization": state.authorization, "X-Requested-With": "ferrite-console" },
  });
  if (response.status !== 200) return;
  const samples = parseExposition(await response.text());
  const application = (labels) => labels.queue && !labels.queue.startsWith("SYSTEM.");
  const now = {
    time: Date.now(),
    puts: metricSum(samples, "ibmmq_queue_mqput_mqput1_count", application),
    gets: metricSum(samples, "ibmmq_queue_mqget_count", application),
    logBytes: metricSum(samples, "ibmmq_log_bytes_written_total"),
    pools: {},
    queues: {},
  };
  for (const sample of samples) {
    const counter = { ibmmq_queue_mqput_mqput1_count: "puts", ibmmq_queue_mqget_count: "gets" }[sample.name];
    if (!counter || !sample.labels.queue) continue;
    const queue = (now.queues[sample.labels.queue] ||= { puts: 0, gets: 0 });
    queue[counter] += sample.value;
  }
  for (const sample of samples) {
    if (sample.name !== "ibmmq_bufferpool_buffers_total" || sample.value === 0) continue;
    const pool = sample.labels.bufferpool;
    const free = metricSum(samples, "ibmmq_bufferpool_buffers_free", (labels) => labels.bufferpool === pool);
    now.pools["pool " + pool + " used %"] = (100 * (sample.value - free)) / sample.value;
  }
  const previous = state.metrics[state.metrics.length - 1];
  state.metrics.push(now);
  if (state.metrics.length > 2) state.metrics.shift();
  if (!previous) return;
  const seconds = Math.max(0.001, (now.time - previous.time) / 1000);
  state.queueRates = {};
  for (const [name, counts] of Object.entries(now.queues)) {
    const before = previous.queues[name] || counts;
    state.queueRates[name] = { put: (counts.puts - before.puts) / seconds, get: (counts.gets - before.gets) / seconds };
  }
  state.rates.push({
    rates: { "put/s": (now.puts - previous.puts) / seconds, "get/s": (now.gets - previous.gets) / seconds },
    log: { "log MB/s": (now.logBytes - previous.logBytes) / seconds / 1e6 },
    pools: now.pools,
  });
  if (state.rates.length > PLOT_POINTS_MAX) state.rates.shift();
  draw("plot-rates", state.rates.map((point) => point.rates));
  draw("plot-log", state.rates.map((point) => point.log));
  draw("plot-pools", state.rates.map((point) => point.pools));
}

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text === undefined ? "" : text;
  if (className) td.className = className === true ? "number" : className;
  row.appendChild(td);
  return td;
}

// A rate for the queue table: one decimal, empty until /metrics has given two samples.
function rateText(rate) {
  return rate === undefined ? "" : rate.toFixed(1);
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
    const rates = state.queueRates[queue.name] || {};
    const name = cell(row, "");
    const link = document.createElement("button");
    link.type = "button";
    link.className = "queue-link";
    link.dataset.queue = link.textContent = queue.name;
    link.title = "Browse this queue's messages";
    link.addEventListener("click", () => listQueue(queue.name));
    name.appendChild(link);
    cell(row, queue.type);
    cell(row, status.currentDepth, true);
    cell(row, queue.storage ? queue.storage.maximumDepth : "", true);
    cell(row, status.openInputCount, true);
    cell(row, status.openOutputCount, true);
    cell(row, rateText(rates.put), "number put-rate");
    cell(row, rateText(rates.get), "number get-rate");
    rows.appendChild(row);
    if (!queue.name.startsWith("SYSTEM.")) {
      const option = document.createElement("option");
      option.value = option.textContent = queue.name;
      select.appendChild(option);
    }
  }
  if (chosen) select.value = chosen;
}

// The message browser: the queue chosen in the queue table (or the message form) listed with
// the messagelist resource, one row per message; "Open" browses that message by its id.
async function listQueue(name) {
  const option = [...$("message-queue").options].find((item) => item.value === name);
  if (option) $("message-queue").value = name;
  state.listedQueue = name;
  await listMessages();
}

async function listMessages() {
  const queue = state.listedQueue;
  if (!queue) return;
  const answer = await rest("GET", `/messaging/qmgr/${state.qmgr}/queue/${encodeURIComponent(queue)}/messagelist?limit=${MESSAGE_LIST_LIMIT}`);
  const rows = $("message-rows");
  rows.textContent = "";
  if (answer.status !== 200) {
    $("message-list-summary").textContent = errorText(answer);
    return;
  }
  const messages = answer.json.messages;
  $("message-list-summary").textContent = `Queue ${queue}: ${messages.length} message(s)` +
    (messages.length === MESSAGE_LIST_LIMIT ? ` (the first ${MESSAGE_LIST_LIMIT})` : "");
  for (const message of messages) {
    const row = document.createElement("tr");
    row.dataset.messageId = message.messageId;
    cell(row, message.messageId, "identifier message-id");
    cell(row, message.correlationId, "identifier");
    cell(row, message.putDateTime.replace("T", " ").replace("Z", ""));
    cell(row, message.persistence);
    cell(row, message.priority, true);
    cell(row, message.format);
    cell(row, message.dataLength, true);
    cell(row, message.dataPreview, "preview");
    const open = document.createElement("button");
    open.type = "button";
    open.className = "open-message";
    open.textContent = "Open";
    open.addEventListener("click", () => openMessage(queue, message.messageId));
    cell(row, "").appendChild(open);
    rows.appendChild(row);
  }
}

async function openMessage(queue, messageId) {
  const answer = await rest("GET",
    `/messaging/qmgr/${state.qmgr}/queue/${encodeURIComponent(queue)}/message?messageId=${encodeURIComponent(messageId)}`);
  showMessage(answer);
}

function showMessage(answer) {
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
  draw("plot", state.history.map((point) => point.depths));
}

// Draws `points` (each an object of series name to value) as lines on canvas `id`, its legend
// in `id`-legend; records the points and series drawn on the canvas for tests.
function draw(id, points) {
  const canvas = $(id);
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  const names = [...new Set(points.flatMap((point) => Object.keys(point)))].sort();
  const highest = Math.max(1, ...points.flatMap((point) => Object.values(point)));
  const x = (index) => 40 + (index * (canvas.width - 50)) / Math.max(1, PLOT_POINTS_MAX - 1);
  const y = (value) => canvas.height - 20 - (value * (canvas.height - 40)) / highest;
  context.fillStyle = "#555";
  context.fillText(String(Math.round(highest * 100) / 100), 2, 20);
  context.fillText("0", 2, canvas.height - 20);
  names.forEach((name, colour) => {
    context.strokeStyle = COLOURS[colour % COLOURS.length];
    context.beginPath();
    points.forEach((point, index) => {
      const value = point[name] || 0;
      if (index === 0) context.moveTo(x(index), y(value)); else context.lineTo(x(index), y(value));
    });
    context.stroke();
  });
  canvas.dataset.points = String(points.length);
  canvas.dataset.series = String(names.length);
  $(id + "-legend").textContent = names
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
  await listMessages();
}

async function receive(method) {
  showMessage(await rest(method, messagePath()));
  await refresh();
  await listMessages();
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
  await refreshChannels();
}

$("login-form").addEventListener("submit", login);
$("create-form").addEventListener("submit", createQueue);
$("put-form").addEventListener("submit", putMessage);
$("browse-button").addEventListener("click", () => receive("GET"));
$("get-button").addEventListener("click", () => receive("DELETE"));
$("list-button").addEventListener("click", () => listQueue($("message-queue").value));
$("mqsc-form").addEventListener("submit", runMqsc);
