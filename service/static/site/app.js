/* The sizing form: reads its publishable key, posts a questionnaire, polls the sizing, shows the
   ranked configurations, the chart and the network advice, and turns a configuration into a quote. */
(function () {
  "use strict";

  var config = { key: null, base: "" };
  var state = {
    presets: [], gpus: [], regions: [],
    sizing: null, sizingId: null, request: null, location: null,
    busy: false, retry: null,
    quoteRank: null, quoteBusy: false, quoteKey: null, quoteBody: null, documentUrl: null
  };

  function $(id) { return document.getElementById(id); }

  function text(tag, content, className) {
    var node = document.createElement(tag);
    if (content !== undefined && content !== null) node.textContent = content;
    if (className) node.className = className;
    return node;
  }

  /* The client secret each sizing and quote's creation returned: the page's public key reads an
     object back only with it, so it stays in this browser tab's session and nowhere else. */
  var SECRETS_KEY = "gpu-sizing.client-secrets";

  function rememberSecret(kind, id, secret) {
    if (!secret) return;
    var all = storedSecrets();
    all[kind + ":" + id] = secret;
    try { sessionStorage.setItem(SECRETS_KEY, JSON.stringify(all)); } catch (e) { memorySecrets = all; }
  }

  var memorySecrets = {};
  function storedSecrets() {
    try { return JSON.parse(sessionStorage.getItem(SECRETS_KEY) || "{}") || {}; } catch (e) { return memorySecrets; }
  }

  function secretFor(kind, id) { return storedSecrets()[kind + ":" + id] || ""; }

  function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* ------------------------------------------------------------------ formatting */

  function groupDigits(intPart) { return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  // Money travels as a decimal string: format the string itself, never through a float.
  function money(amount, currency) {
    if (amount === null || amount === undefined || amount === "") return "–";
    var s = String(amount), neg = s.charAt(0) === "-";
    if (neg) s = s.slice(1);
    var parts = s.split(".");
    return (neg ? "−" : "") + groupDigits(parts[0]) + (parts[1] ? "." + parts[1] : "") +
      (currency ? " " + currency : "");
  }

  function pct(v, digits) {
    if (v === null || v === undefined || !isFinite(v)) return "–";
    return (v * 100).toFixed(digits === undefined ? 1 : digits) + "%";
  }

  function compact(v) {
    if (v === null || v === undefined || !isFinite(v)) return "–";
    var abs = Math.abs(v);
    if (abs >= 1e9) return (v / 1e9).toFixed(2) + " billion";
    if (abs >= 1e6) return (v / 1e6).toFixed(2) + " million";
    return Math.round(v).toLocaleString("en-US");
  }

  function duration(hours) {
    if (!isFinite(hours)) return "–";
    if (hours < 48) return hours.toFixed(1) + " hours";
    return (hours / 24).toFixed(1) + " days";
  }

  function billed(price) {
    if (!price) return "";
    // On the monthly term a short run is billed by the hour on demand when that is cheaper.
    if (price.billed_by === "hour") return "billed by the hour (" + price.hours_billed.toLocaleString("en-US") + " h)";
    return price.months_billed + " month" + (price.months_billed === 1 ? "" : "s") + " billed";
  }

  // A model figure as a person reads it: thousands separators, at most three decimals.
  function figure(v, unit) {
    if (v === null || v === undefined || !isFinite(v)) return "–";
    var s = Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") :
      Number(v.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 3 });
    return unit ? s + " " + unit : s;
  }

  function stockWords(stock) {
    if (!stock) return "–";
    if (!stock.from_deliveries) return stock.available_now.toLocaleString("en-US") + " in stock";
    return stock.available_now.toLocaleString("en-US") + " now, " + stock.from_deliveries.toLocaleString("en-US") +
      " by " + stock.delivery_date;
  }

  function seconds(s) {
    if (s >= 1) return s.toFixed(2) + " s";
    return (s * 1000).toFixed(1) + " ms";
  }

  var EXCLUDED_LABELS = {
    memory: "memory", stock: "stock", budget: "budget", deadline: "deadline",
    rdma_matrix: "RDMA support matrix", rdma_required: "RDMA required",
    precision: "precision", not_sold_in_region: "not sold in the region",
    invalid_layout: "invalid layout"
  };

  function excludedLabel(key) {
    if (EXCLUDED_LABELS[key]) return EXCLUDED_LABELS[key];
    if (key === "layout_degrees") return "parallel layout";
    if (key === "layout_batch") return "global batch";
    if (key.indexOf("layout_") === 0) return "layout (" + key.slice(7).replace(/_/g, " ") + ")";
    return key.replace(/_/g, " ");
  }

  var BREAKDOWN_LABELS = {
    compute_s: "Compute", tp_exposed_s: "Tensor-parallel communication (exposed)",
    tp_hidden_s: "Tensor-parallel communication (hidden by overlap)",
    ep_exposed_s: "Expert all-to-all (exposed)", ep_hidden_s: "Expert all-to-all (hidden)",
    pp_exposed_s: "Pipeline send/receive (exposed)", dp_exposed_s: "Gradient all-reduce (exposed)",
    dp_hidden_s: "Gradient all-reduce (hidden by overlap)", zero_exposed_s: "ZeRO gather/scatter (exposed)",
    zero_hidden_s: "ZeRO gather/scatter (hidden)", bubble_s: "Pipeline bubble",
    straggler_s: "Stragglers and jitter"
  };

  /* ------------------------------------------------------------------ HTTP */

  function ApiError(kind, message, status, problem) {
    this.kind = kind; // "network", "server", "problem", "rate"
    this.message = message;
    this.status = status;
    this.problem = problem;
  }

  async function api(method, path, opts) {
    opts = opts || {};
    var headers = { "Authorization": "Bearer " + config.key, "Accept": "application/json, application/problem+json" };
    Object.keys(opts.headers || {}).forEach(function (k) { headers[k] = opts.headers[k]; });
    var init = { method: method, headers: headers, cache: "no-store" };
    if (opts.body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    var url = /^https?:/.test(path) ? path : config.base + path;
    for (var attempt = 0; ; attempt++) {
      var response;
      try {
        response = await fetch(url, init);
      } catch (err) {
        throw new ApiError("network", "The service could not be reached. Check your connection and try again.");
      }
      if (response.status === 429 && attempt < 5) {
        var wait = retryAfter(response, 5);
        await countdown(wait, opts.onWait);
        continue;
      }
      return readResponse(response, opts.raw);
    }
  }

  function retryAfter(response, fallback) {
    var raw = response.headers.get("Retry-After");
    if (!raw) return fallback;
    var n = parseInt(raw, 10);
    if (!isNaN(n)) return Math.min(Math.max(n, 1), 120);
    var when = Date.parse(raw);
    return isNaN(when) ? fallback : Math.min(Math.max(Math.ceil((when - Date.now()) / 1000), 1), 120);
  }

  async function countdown(secs, onWait) {
    for (var left = secs; left > 0; left--) {
      if (onWait) onWait(left);
      await sleep(1000);
    }
  }

  async function readResponse(response, raw) {
    if (response.ok && raw) return { status: response.status, headers: response.headers, blob: await response.blob() };
    var body = null;
    var type = response.headers.get("Content-Type") || "";
    if (type.indexOf("json") >= 0) {
      try { body = await response.json(); } catch (e) { body = null; }
    }
    if (response.ok) return { status: response.status, headers: response.headers, body: body };
    if (response.status === 429) {
      throw new ApiError("rate", "Too many requests. Wait a minute and try again.", 429, body);
    }
    if (response.status >= 500) {
      var detail = body && body.detail ? " (" + body.detail + ")" : "";
      throw new ApiError("server", "The service had a problem answering (HTTP " + response.status + ")" + detail + ". Try again in a moment.", response.status, body);
    }
    var message = body && (body.detail || body.title) ? body.detail || body.title : "The request was refused (HTTP " + response.status + ").";
    throw new ApiError("problem", message, response.status, body);
  }

  /* ------------------------------------------------------------------ field errors */

  var SIZING_FIELDS = {
    "/workload/preset": "preset", "/workload": "preset", "/workload/seq_len": "preset",
    "/workload/transformer/layers": "layers", "/workload/transformer/hidden": "hidden",
    "/workload/transformer/heads": "heads", "/workload/transformer/vocab": "vocab",
    "/workload/transformer/seq_len": "seq_len", "/workload/transformer": "layers",
    "/tokens": "tokens", "/samples": "samples", "/epochs": "epochs", "/duration_days": "duration_days",
    "/nodes/min": "nodes_min", "/nodes/max": "nodes_max", "/nodes": "nodes_min",
    "/gpu_models": "gpu_models", "/gpus_per_node": "gpu_models",
    "/layout/tp": "layout_tp", "/layout/pp": "layout_pp", "/layout/zero_stage": "layout_zero_stage",
    "/layout": "layout_tp", "/region": "region", "/budget_per_month": "budget_per_month",
    "/term": "term", "/currency": "currency", "/objective": "objective"
  };
  var QUOTE_FIELDS = {
    "/customer/name": "customer_name", "/customer/email": "customer_email",
    "/customer/company": "customer_company", "/customer/country": "customer_country",
    "/customer/vat_id": "customer_vat_id", "/customer": "customer_name"
  };
  var FIELD_NAMES = {
    preset: "Model preset", layers: "Layers", hidden: "Hidden size", heads: "Attention heads",
    vocab: "Vocabulary", seq_len: "Sequence length", tokens: "Tokens to train",
    epochs: "Epochs", samples: "Samples per epoch",
    duration_days: "Target duration", nodes_min: "Nodes: at least", nodes_max: "Nodes: at most",
    nodes_exact: "Nodes", gpu_models: "GPU preference", layout_tp: "Tensor parallel",
    layout_pp: "Pipeline stages", layout_zero_stage: "ZeRO stage", region: "Region",
    budget_per_month: "Budget per month", term: "Term", currency: "Currency", objective: "Rank by",
    customer_name: "Your name", customer_email: "Email", customer_company: "Company",
    customer_country: "Country", customer_vat_id: "VAT id"
  };
  // The API's rule and words for a VAT id (CustomerSchema.vat_id), checked here as it checks
  // them; whether the prefix is the country's is the API's to say (its problem is shown).
  var VAT_ID = /^[0-9A-Z][0-9A-Za-z+*.-]{3,19}$/;
  var VAT_ID_WORDS = "a VAT identification number, e.g. FR40303265045, or outside the EU the " +
    "business's tax registration number, e.g. T1234567890123";

  function fieldFor(pointer, map) {
    if (map === SIZING_FIELDS && nodesKind() === "exact" && /^\/nodes/.test(pointer)) return "nodes_exact";
    if (map[pointer]) return map[pointer];
    // /gpu_models/2 -> /gpu_models; /workload/transformer/kv_heads -> /workload/transformer
    var parts = pointer.split("/");
    while (parts.length > 1) {
      parts.pop();
      var p = parts.join("/");
      if (map[p]) return map[p];
    }
    return null;
  }

  function clearErrors(form, summaryId, listId) {
    form.querySelectorAll(".field-error").forEach(function (p) { p.hidden = true; p.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (input) {
      input.removeAttribute("aria-invalid");
      var ids = (input.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id && !/-error$/.test(id); });
      if (ids.length) input.setAttribute("aria-describedby", ids.join(" ")); else input.removeAttribute("aria-describedby");
    });
    $(summaryId).hidden = true;
    $(listId).textContent = "";
  }

  function focusField(id) {
    var node = $(id);
    if (!node) return;
    if (node.tagName === "FIELDSET") {
      var first = node.querySelector("input, select");
      (first || node).focus();
    } else {
      node.focus();
    }
  }

  /* errors: [{field, detail}] (field may be null); shows each next to its field and in a summary. */
  function showErrors(errors, summaryId, listId) {
    var list = $(listId);
    list.textContent = "";
    errors.forEach(function (e) {
      var li = document.createElement("li");
      if (e.field && $(e.field)) {
        var msg = $(e.field + "-error");
        if (msg) {
          msg.textContent = msg.hidden ? e.detail : msg.textContent + "; " + e.detail;
          msg.hidden = false;
        }
        var input = $(e.field);
        input.setAttribute("aria-invalid", "true");
        var ids = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        if (ids.indexOf(e.field + "-error") < 0) ids.push(e.field + "-error");
        input.setAttribute("aria-describedby", ids.join(" "));
        var a = document.createElement("a");
        a.href = "#" + e.field;
        a.textContent = (FIELD_NAMES[e.field] || e.field) + ": " + e.detail;
        a.addEventListener("click", function (ev) { ev.preventDefault(); focusField(e.field); });
        li.appendChild(a);
      } else {
        li.textContent = e.detail;
      }
      list.appendChild(li);
    });
    var summary = $(summaryId);
    summary.hidden = false;
    summary.focus();
  }

  function problemErrors(problem, map) {
    var out = [];
    var errs = (problem && problem.errors) || [];
    errs.forEach(function (e) {
      var field = fieldFor(e.pointer || "", map);
      out.push({ field: field, detail: field ? e.detail : (e.pointer ? e.pointer + ": " : "") + e.detail });
    });
    if (!out.length) out.push({ field: null, detail: (problem && (problem.detail || problem.title)) || "The request was refused." });
    return out;
  }

  /* ------------------------------------------------------------------ the sizing form */

  function radio(name) {
    var checked = document.querySelector('input[name="' + name + '"]:checked');
    return checked ? checked.value : null;
  }
  function nodesKind() { return radio("nodes_kind"); }

  function syncVisibility() {
    var pairs = [["model_kind", "data-when-model"], ["work_kind", "data-when-work"],
                 ["nodes_kind", "data-when-nodes"], ["layout_kind", "data-when-layout"]];
    pairs.forEach(function (pair) {
      var value = radio(pair[0]);
      document.querySelectorAll("[" + pair[1] + "]").forEach(function (node) {
        node.hidden = node.getAttribute(pair[1]) !== value;
      });
    });
  }

  function val(id) { return $(id).value.trim(); }

  var INT = /^\d+$/;
  var NUMBER = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
  var DECIMAL = /^\d+(\.\d+)?$/;

  function intIn(errors, id, min, max, required) {
    var raw = val(id).replace(/[,_\s]/g, "");
    if (raw === "") {
      if (required) errors.push({ field: id, detail: "enter a whole number" });
      return undefined;
    }
    if (!INT.test(raw)) { errors.push({ field: id, detail: "must be a whole number" }); return undefined; }
    var n = parseInt(raw, 10);
    if (n < min || n > max) {
      errors.push({ field: id, detail: "must be between " + min.toLocaleString("en-US") + " and " + max.toLocaleString("en-US") });
      return undefined;
    }
    return n;
  }

  function numberIn(errors, id, min, max, what) {
    var raw = val(id).replace(/[,_\s]/g, "");
    if (raw === "") { errors.push({ field: id, detail: "enter " + what }); return undefined; }
    if (!NUMBER.test(raw)) { errors.push({ field: id, detail: "must be a number, like 2e12" }); return undefined; }
    var n = Number(raw);
    if (!(n >= min && n <= max)) {
      errors.push({ field: id, detail: "must be between " + min.toLocaleString("en-US") + " and " + max.toLocaleString("en-US") });
      return undefined;
    }
    return n;
  }

  /* The questionnaire, checked as the API's SizingRequest schema checks it. */
  function buildSizingRequest() {
    var errors = [];
    var body = {};
    if (radio("model_kind") === "custom") {
      var tf = {
        layers: intIn(errors, "layers", 1, 1000, true),
        hidden: intIn(errors, "hidden", 64, 131072, true),
        heads: intIn(errors, "heads", 1, 1024, true),
        vocab: intIn(errors, "vocab", 2, 4000000, true),
        seq_len: intIn(errors, "seq_len", 16, 1048576, true)
      };
      if (tf.hidden !== undefined && tf.heads !== undefined && tf.hidden % tf.heads) {
        errors.push({ field: "hidden", detail: "must be a multiple of heads (" + tf.heads + ")" });
      }
      body.workload = { transformer: tf };
    } else {
      var preset = $("preset").value;
      if (!preset) errors.push({ field: "preset", detail: "choose a model" });
      body.workload = { preset: preset };
    }
    if (radio("work_kind") === "duration") {
      body.duration_days = numberIn(errors, "duration_days", 0.01, 3650, "a number of days");
    } else if (radio("work_kind") === "epochs") {
      body.epochs = numberIn(errors, "epochs", 0.01, 10000, "the number of epochs");
      if (val("samples") !== "") body.samples = numberIn(errors, "samples", 1, 1e15, "the samples per epoch");
    } else {
      body.tokens = numberIn(errors, "tokens", 1e3, 1e16, "the tokens to train");
    }
    if (nodesKind() === "exact") {
      var n = intIn(errors, "nodes_exact", 1, 512, true);
      body.nodes = { min: n, max: n };
    } else {
      var lo = intIn(errors, "nodes_min", 1, 512, true);
      var hi = intIn(errors, "nodes_max", 1, 512, true);
      if (lo !== undefined && hi !== undefined && lo > hi) {
        errors.push({ field: "nodes_min", detail: "must not exceed max (" + hi + ")" });
      }
      body.nodes = { min: lo, max: hi };
    }
    var gpus = Array.prototype.map.call(document.querySelectorAll('input[name="gpu_models"]:checked'), function (c) { return c.value; });
    if (gpus.length > 20) errors.push({ field: "gpu_models", detail: "choose at most 20" });
    if (gpus.length) body.gpu_models = gpus;
    if (radio("layout_kind") === "fixed") {
      body.layout = {
        tp: intIn(errors, "layout_tp", 1, 512, true),
        pp: intIn(errors, "layout_pp", 1, 512, true),
        zero_stage: parseInt($("layout_zero_stage").value, 10)
      };
      var presetDims = presetById($("preset").value);
      var heads = body.workload.transformer ? body.workload.transformer.heads : presetDims && presetDims.dimensions.heads;
      if (heads && body.layout.tp && heads % body.layout.tp) {
        errors.push({ field: "layout_tp", detail: "tp=" + body.layout.tp + " does not divide " + heads + " heads" });
      }
    }
    body.region = $("region").value;
    var budget = val("budget_per_month").replace(/[,_\s]/g, "");
    if (budget !== "") {
      if (!DECIMAL.test(budget)) errors.push({ field: "budget_per_month", detail: "must be an amount like 250000.00" });
      else if (!(Number(budget) > 0)) errors.push({ field: "budget_per_month", detail: "must be greater than 0" });
      else body.budget_per_month = budget;
    }
    body.term = $("term").value;
    body.currency = $("currency").value;
    body.objective = radio("objective");
    return { body: body, errors: errors };
  }

  function presetById(id) {
    for (var i = 0; i < state.presets.length; i++) if (state.presets[i].id === id) return state.presets[i];
    return null;
  }

  /* ------------------------------------------------------------------ loading the options */

  async function loadOptions() {
    $("load-error").hidden = true;
    try {
      var cfgResponse;
      try {
        cfgResponse = await fetch("/site-config.json", { cache: "no-store" });
      } catch (e) {
        throw new ApiError("network", "The service could not be reached.");
      }
      var cfg = await cfgResponse.json().catch(function () { return null; });
      if (!cfgResponse.ok || !cfg || !cfg.publishable_key) {
        throw new ApiError("server", (cfg && cfg.detail) || "The page has no API key configured (HTTP " + cfgResponse.status + ").");
      }
      config.key = cfg.publishable_key;
      config.base = (cfg.api_base || "").replace(/\/$/, "");
      var results = await Promise.all([api("GET", "/v1/presets"), api("GET", "/v1/catalog/gpus"), api("GET", "/v1/catalog/regions")]);
      state.presets = results[0].body || [];
      state.gpus = results[1].body || [];
      state.regions = results[2].body || [];
      fillPresets();
      fillGpus();
      fillRegions();
      document.body.setAttribute("data-ready", "true");
    } catch (err) {
      $("load-error-text").textContent = err.message || String(err);
      $("load-error").hidden = false;
      $("load-retry").focus();
    }
  }

  function fillPresets() {
    var select = $("preset");
    var keep = select.value;
    select.textContent = "";
    var blank = text("option", "Choose a model…");
    blank.value = "";
    select.appendChild(blank);
    state.presets.forEach(function (p) {
      var o = text("option", p.name + " (" + compact(p.params).replace(" billion", " B params").replace(" million", " M params") + ")");
      o.value = p.id;
      select.appendChild(o);
    });
    select.value = keep && presetById(keep) ? keep : (presetById("llama-3-8b") ? "llama-3-8b" : "");
    describePreset();
  }

  /* Work is counted in the model's own unit: tokens for a transformer, epochs over samples for
     a CNN, so only the choices that fit the chosen model are offered. */
  function syncWorkKinds() {
    var p = radio("model_kind") === "preset" ? presetById($("preset").value) : null;
    var bySamples = !!(p && p.kind === "generic");
    $("work-tokens").hidden = bySamples;
    $("work-epochs").hidden = !bySamples;
    var chosen = radio("work_kind");
    if (bySamples && chosen === "tokens") document.querySelector('input[name="work_kind"][value="epochs"]').checked = true;
    if (!bySamples && chosen === "epochs") document.querySelector('input[name="work_kind"][value="tokens"]').checked = true;
    $("samples-hint").textContent = p && p.samples_per_epoch ? "Leave empty for " + p.dataset + ": " +
      p.samples_per_epoch.toLocaleString("en-US") + " per epoch" : "Leave empty for the model's dataset";
    syncVisibility();
  }

  function describePreset() {
    syncWorkKinds();
    var p = presetById($("preset").value);
    if (!p) { $("preset-hint").textContent = ""; return; }
    $("preset-hint").textContent = (p.kind === "generic" ?
      (p.params / 1e6).toFixed(1) + " M parameters, trained on " + (p.dataset || "samples") :
      p.dimensions.layers + " layers, hidden " + p.dimensions.hidden + ", " + p.dimensions.heads +
      " heads, sequence " + p.dimensions.seq_len + " tokens") + ". Source: " + p.source;
  }

  function fillGpus() {
    var box = $("gpu-list");
    box.textContent = "";
    state.gpus.forEach(function (g) {
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.type = "checkbox";
      input.name = "gpu_models";
      input.value = g.id;
      label.appendChild(input);
      label.appendChild(document.createTextNode(/GB/.test(g.name) ? g.name : g.name + " (" + g.memory_gb + " GB)"));
      box.appendChild(label);
    });
  }

  function fillRegions() {
    var select = $("region");
    var keep = select.value;
    select.textContent = "";
    state.regions.forEach(function (r) {
      var o = text("option", r.name);
      o.value = r.id;
      select.appendChild(o);
    });
    if (keep && state.regions.some(function (r) { return r.id === keep; })) select.value = keep;
  }

  /* ------------------------------------------------------------------ running a sizing */

  function setBusy(busy) {
    state.busy = busy;
    var b = $("submit");
    b.setAttribute("aria-disabled", busy ? "true" : "false");
    b.textContent = busy ? "Sizing…" : "Size my cluster";
  }

  function showProgress(record) {
    var panel = $("progress-panel");
    panel.hidden = false;
    var fraction = record && typeof record.progress === "number" ? record.progress : 0;
    $("progress-bar").value = fraction;
    var status = record ? record.status : "sending";
    var words = status === "queued" ? "Queued, waiting for a worker…" :
      status === "running" ? "Running: " + Math.round(fraction * 100) + "% done" :
      status === "sending" ? "Sending your questionnaire…" : "Finishing…";
    $("progress-text").textContent = words;
  }

  function showRunError(message, retry, title) {
    $("progress-panel").hidden = true;
    $("run-error-title").textContent = title || "Something went wrong";
    $("run-error-text").textContent = message;
    $("run-error").hidden = false;
    $("run-retry").hidden = !retry;
    state.retry = retry;
    $("run-error").focus();
  }

  function hideRunError() { $("run-error").hidden = true; state.retry = null; }

  function rateNotice(seconds) {
    $("progress-panel").hidden = false;
    $("progress-text").textContent = "The service is busy; retrying in " + seconds + " s…";
  }

  async function onSubmit(ev) {
    ev.preventDefault();
    if (state.busy) return;
    var form = $("sizing-form");
    clearErrors(form, "error-summary", "error-summary-list");
    hideRunError();
    var built = buildSizingRequest();
    if (built.errors.length) {
      showErrors(built.errors, "error-summary", "error-summary-list");
      return;
    }
    state.request = built.body;
    // One key per submitted questionnaire: a retry after a lost answer finds the same sizing.
    state.sizingKey = uuid();
    $("results").hidden = true;
    $("quote-panel").hidden = true;
    await startSizing();
  }

  async function startSizing() {
    setBusy(true);
    hideRunError();
    showProgress(null);
    state.location = null;
    try {
      var response = await api("POST", "/v1/sizings", { body: state.request, onWait: rateNotice,
        headers: { "Idempotency-Key": state.sizingKey } });
      state.location = response.headers.get("Location") || ("/v1/sizings/" + response.body.id);
      state.sizingId = response.body.id;
      rememberSecret("sizing", response.body.id, response.body.client_secret);
      await follow(response.body);
    } catch (err) {
      // Once the sizing exists, a retry goes on polling it rather than submitting another.
      failed(err, state.location ? resumePolling : startSizing);
    } finally {
      setBusy(false);
    }
  }

  function pollHeaders() {
    return { "Prefer": "wait=10", "Client-Secret": secretFor("sizing", state.sizingId) };
  }

  async function resumePolling() {
    setBusy(true);
    hideRunError();
    try {
      var response = await api("GET", state.location, { headers: pollHeaders(), onWait: rateNotice });
      await follow(response.body);
    } catch (err) {
      failed(err, resumePolling);
    } finally {
      setBusy(false);
    }
  }

  async function follow(record) {
    while (record.status === "queued" || record.status === "running") {
      showProgress(record);
      var started = Date.now();
      var response = await api("GET", state.location, { headers: pollHeaders(), onWait: rateNotice });
      record = response.body;
      if (response.status === 202 && Date.now() - started < 1000) {
        // The server did not hold the request: honour its Retry-After before asking again.
        await sleep(retryAfter(response, 1) * 1000);
      }
    }
    $("progress-panel").hidden = true;
    state.sizing = record;
    if (record.status === "succeeded") {
      renderResults(record);
    } else if (record.status === "failed") {
      var error = record.error || {};
      if (error.errors && error.errors.length) {
        showErrors(problemErrors(error, SIZING_FIELDS), "error-summary", "error-summary-list");
      } else {
        showRunError("The sizing failed: " + (error.detail || "no reason was given") + ".", startSizing, "The sizing failed");
      }
    } else {
      showRunError("The sizing was cancelled before it finished.", startSizing, "The sizing was cancelled");
    }
  }

  function failed(err, retry) {
    $("progress-panel").hidden = true;
    if (err instanceof ApiError && err.kind === "problem") {
      if (err.status === 422 || err.status === 400) {
        showErrors(problemErrors(err.problem, SIZING_FIELDS), "error-summary", "error-summary-list");
      } else {
        showRunError(err.message, retry);
      }
      return;
    }
    showRunError(err && err.message ? err.message : "Unexpected error: " + err, retry);
  }

  /* ------------------------------------------------------------------ results */

  function renderResults(record) {
    var result = record.result || {};
    var configs = result.configurations || [];
    var section = $("results");
    section.hidden = false;
    $("results-title").textContent = configs.length ? "Ranked configurations (" + configs.length + ")" : "No configuration fits";
    $("results-summary").textContent = configs.length ?
      "Rank 1: " + configs[0].nodes + " × " + configs[0].server.name + " " + onFabric(configs[0]) +
      ", " + pct(configs[0].scaling_efficiency, 0) + " scaling efficiency, " + duration(configs[0].time_to_train_hours) +
      ", " + money(configs[0].price.monthly, configs[0].price.currency) + " per month." +
      (result.rank_stability ? " " + result.rank_stability : "") :
      "Nothing passed the filters; see below.";

    var excluded = result.excluded || {};
    var parts = Object.keys(excluded).filter(function (k) { return excluded[k] > 0; })
      .sort(function (a, b) { return excluded[b] - excluded[a]; })
      .map(function (k) { return excludedLabel(k) + " " + excluded[k].toLocaleString("en-US"); });
    $("results-excluded").textContent = parts.length ?
      "Ruled out: " + parts.join(", ") + " (of " + (result.candidates_evaluated || 0).toLocaleString("en-US") + " candidates evaluated)." : "";

    var notes = $("results-notes");
    notes.textContent = "";
    (result.notes || []).forEach(function (n) { notes.appendChild(text("li", n)); });

    renderTable(configs, result);
    $("config-table-wrap").hidden = !configs.length;
    renderChart();
    renderAdvice(result.network_advice);
    $("chart-section").hidden = !(result.efficiency_series && result.efficiency_series.lines.length);
    $("network-advice").hidden = !result.network_advice;
    $("results-title").focus();
  }

  function cell(row, label, content, className) {
    var td = row.insertCell();
    if (label) td.setAttribute("data-label", label);
    if (className) td.className = className;
    if (content instanceof Node) td.appendChild(content); else td.textContent = content;
    return td;
  }

  // The model's p10-p90 of a figure, written as a range; null when the answer has none.
  function range(c, name, format) {
    var i = c.intervals && c.intervals[name];
    return i ? "p10–p90 " + format(i.p10) + " – " + format(i.p90) : null;
  }

  function withSub(main, sub) {
    var frag = document.createDocumentFragment();
    frag.appendChild(document.createTextNode(main));
    if (sub) frag.appendChild(text("span", sub, "sub"));
    return frag;
  }

  function renderTable(configs, result) {
    var body = $("config-rows");
    body.textContent = "";
    var currency = result.currency || (configs[0] && configs[0].price.currency) || "";
    document.querySelectorAll("#config-table .currency-unit").forEach(function (n) { n.textContent = "(" + currency + ")"; });
    configs.forEach(function (c) {
      var row = body.insertRow();
      row.className = "config-row" + (c.rank === 1 ? " top" : "");
      row.setAttribute("data-rank", c.rank);
      var rank = text("span", String(c.rank), "rank-badge");
      cell(row, "Rank", rank);
      cell(row, "Server", withSub(c.server.name, c.gpu));
      row.setAttribute("data-nodes", c.nodes);
      // One node's GPUs talk inside the server: the fabric the API names is not used or billed.
      cell(row, "Fabric", c.nodes === 1 ? withSub("—", "one node, no fabric") :
        withSub(c.fabric.name, c.fabric.rdma ? (c.fabric.gpudirect_rdma ? "RDMA, GPUDirect" : "RDMA") : "no RDMA"));
      cell(row, "Nodes (GPUs)", withSub(c.nodes + " (" + c.gpus + ")",
        c.hot_spare_nodes ? "+ " + c.hot_spare_nodes + " hot spare" : null), "num");
      cell(row, "Scaling efficiency", withSub(pct(c.scaling_efficiency),
        c.efficiency_vs_one_node === null ? null : pct(c.efficiency_vs_one_node, 0) + " of one node, per GPU"),
        "num efficiency");
      var tokens = c.tokens_per_s !== null && c.tokens_per_s !== undefined;
      var rateName = tokens ? "tokens_per_s" : "samples_per_s";
      var rateRange = range(c, rateName, function (v) { return figure(v); });
      cell(row, "Throughput", withSub(figure(c[rateName], tokens ? "tokens/s" : "samples/s"),
        rateRange && (rateRange + (c.calibration === "extrapolated" ?
          " (extrapolated: no measurement of this GPU and fabric)" : ""))), "num throughput");
      var failures = c.goodput ? pct(c.goodput.goodput, 1) + " goodput, " +
        figure(c.goodput.expected_interruptions) + " interruptions" : null;
      var spread = range(c, "time_to_train_hours", duration);
      cell(row, "Time to train", withSub(duration(c.time_to_train_hours),
        [failures, spread].filter(Boolean).join("; ") || null), "num");
      cell(row, "Stock", stockWords(c.stock), "stock");
      cell(row, "Per GPU-hour (" + currency + ")", money(c.price.price_per_gpu_hour), "num price-gpu-hour");
      cell(row, "Price per month (" + currency + ")", money(c.price.monthly, c.price.currency === currency ? "" : c.price.currency), "num price-monthly");
      cell(row, "Total (" + currency + ")", withSub(money(c.price.total, c.price.currency === currency ? "" : c.price.currency),
        billed(c.price)), "num price-total");

      var actions = cell(row, null, "", "actions-cell");
      var toggle = text("button", "Details", "button button-small details-toggle");
      toggle.type = "button";
      toggle.setAttribute("aria-expanded", "false");
      toggle.setAttribute("aria-controls", "details-" + c.rank);
      var label = text("span", " of rank " + c.rank, "visually-hidden");
      toggle.appendChild(label);
      actions.appendChild(toggle);
      var quote = text("button", "Request a quote", "button button-small button-primary quote-button");
      quote.type = "button";
      quote.appendChild(text("span", " for rank " + c.rank, "visually-hidden"));
      quote.addEventListener("click", function () { openQuote(c); });
      actions.appendChild(quote);

      var details = body.insertRow();
      details.className = "details-row";
      details.id = "details-" + c.rank;
      details.hidden = true;
      var td = details.insertCell();
      td.colSpan = 12;
      td.appendChild(detailsFor(c, result));
      toggle.addEventListener("click", function () {
        var open = toggle.getAttribute("aria-expanded") === "true";
        toggle.setAttribute("aria-expanded", open ? "false" : "true");
        toggle.firstChild.nodeValue = open ? "Details" : "Hide details";
        details.hidden = open;
      });
    });
  }

  function detailsFor(c, result) {
    var wrap = text("div", null, "details-grid");

    var left = document.createElement("div");
    left.appendChild(text("h4", "Step time " + seconds(c.step_time_s) + ", by part"));
    var table = text("table", null, "breakdown");
    var cap = text("caption", "Step-time breakdown of rank " + c.rank, "visually-hidden");
    table.appendChild(cap);
    var head = table.createTHead().insertRow();
    ["Part", "Time", "Share", ""].forEach(function (h, i) {
      var th = text("th", h);
      th.scope = "col";
      if (i === 3) th.appendChild(text("span", "Bar", "visually-hidden"));
      head.appendChild(th);
    });
    var tb = table.createTBody();
    var breakdown = c.breakdown || {};
    var total = c.step_time_s || 1;
    Object.keys(breakdown).filter(function (k) { return breakdown[k] > 0; })
      .sort(function (a, b) { return breakdown[b] - breakdown[a]; })
      .forEach(function (k) {
        var r = tb.insertRow();
        var th = text("th", BREAKDOWN_LABELS[k] || k.replace(/_s$/, "").replace(/_/g, " "));
        th.scope = "row";
        r.appendChild(th);
        r.insertCell().textContent = seconds(breakdown[k]);
        r.insertCell().textContent = pct(breakdown[k] / total, 0);
        var barCell = r.insertCell();
        barCell.className = "bar-cell";
        barCell.setAttribute("aria-hidden", "true");
        var bar = text("span", null, "bar" + (k === "compute_s" ? "" : " comm"));
        bar.style.width = Math.max(2, Math.min(100, breakdown[k] / total * 100)) + "%";
        barCell.appendChild(bar);
      });
    left.appendChild(table);
    left.appendChild(text("p", "Hidden parts overlap with compute and do not add to the step; the step is " +
      pct(c.communication_share, 0) + " communication.", "hint"));
    wrap.appendChild(left);

    var right = document.createElement("div");
    right.appendChild(text("h4", "Bottleneck"));
    right.appendChild(text("p", c.bottleneck || "–", "bottleneck"));
    right.appendChild(text("h4", "Why this rank"));
    right.appendChild(text("p", c.why || "–"));
    if (c.stock && c.stock.warning) right.appendChild(text("p", "Stock: " + c.stock.warning + ".", "warning stock-warning"));
    if (c.price.warning) right.appendChild(text("p", c.price.warning, "warning term-warning"));
    var perUnit = c.price.cost_per_million_tokens !== null ? [c.price.cost_per_million_tokens, "million tokens"] :
      [c.price.cost_per_million_samples, "million samples"];
    right.appendChild(text("p", money(perUnit[0], c.price.currency) + " per " + perUnit[1] + "; " +
      money(c.price.price_per_gpu_hour, c.price.currency) + " per GPU-hour.", "unit-costs"));
    right.appendChild(text("h4", "Parallel layout"));
    var l = c.layout || {};
    var dl = text("dl", null, "kv");
    [["Data parallel", l.dp], ["Tensor parallel", l.tp], ["Pipeline stages", l.pp], ["Expert parallel", l.ep],
     ["ZeRO stage", l.zero_stage], ["Micro-batch", l.micro_batch], ["Global batch", c.global_batch],
     ["Recompute", l.recompute], ["MFU", pct(c.mfu)]].forEach(function (kv) {
      if (kv[1] === undefined || kv[1] === null) return;
      dl.appendChild(text("dt", kv[0]));
      dl.appendChild(text("dd", String(kv[1])));
    });
    right.appendChild(dl);
    wrap.appendChild(right);

    var advice = result.network_advice;
    var net = document.createElement("div");
    net.appendChild(text("h4", "Network advice"));
    if (advice) {
      var recommended = fabricName(advice.recommended_fabric, advice);
      var p = text("p", (advice.recommended_fabric === c.fabric.id ? "This fabric is the recommended one" :
        "Recommended fabric: " + recommended) + " (" + advice.fabric_class + "). " + advice.reason);
      net.appendChild(p);
      if (advice.fabric_vs_more_gpus && advice.fabric_vs_more_gpus.sentence) net.appendChild(text("p", advice.fabric_vs_more_gpus.sentence));
      if (advice.roce_checklist && advice.roce_checklist.length) {
        net.appendChild(text("p", "RoCEv2 needs a lossless-Ethernet setup: see the checklist under Network advice below."));
      }
      var link = text("a", "All fabrics compared");
      link.href = "#network-advice";
      net.appendChild(link);
    } else {
      net.appendChild(text("p", "No network advice for this result."));
    }
    wrap.appendChild(net);
    return wrap;
  }

  // "on <fabric>", or, for one node, that no fabric is used (the API still names one).
  function onFabric(c) {
    return c.nodes === 1 ? "(one node, no fabric)" : "on " + c.fabric.name;
  }

  function fabricName(id, advice) {
    var found = (advice.comparison || []).filter(function (c) { return c.fabric === id; })[0];
    return found ? found.fabric_name : id;
  }

  var resizeTimer = null;
  var lastWidth = 0;
  function renderChart() {
    var result = state.sizing && state.sizing.result;
    if (!result || !window.SizingChart) return;
    var top = (result.configurations || [])[0];
    var plot = result.efficiency_series;
    var series = plot ? plot.lines : [];
    $("chart-desc").textContent = series.length ? "Each line is one fabric on " + plot.server_name +
      " (the rank 1 server), every point with rank 1's layout: " + plot.layout_family_description +
      ". The thicker line is rank 1's fabric. Higher is better: 100% means adding nodes adds throughput in proportion." : "";
    lastWidth = $("chart").clientWidth;
    window.SizingChart.render($("chart"), $("chart-table"), $("chart-legend"), series, {
      highlightFabric: top ? top.fabric.id : null,
      throughputUnit: plot.throughput_unit
    });
  }

  function renderAdvice(advice) {
    var box = $("advice-body");
    box.textContent = "";
    if (!advice) return;
    box.appendChild(text("p", "Recommended for " + advice.nodes + " nodes: " + fabricName(advice.recommended_fabric, advice) +
      " — " + advice.fabric_class + ".", "summary recommended-fabric"));
    box.appendChild(text("p", advice.reason));
    if (advice.fabric_vs_more_gpus && advice.fabric_vs_more_gpus.sentence) {
      box.appendChild(text("p", advice.fabric_vs_more_gpus.sentence, "fabric-vs-gpus"));
    }
    if ((advice.comparison || []).length) {
      var wrap = text("div", null, "table-scroll");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", "Fabrics compared");
      wrap.tabIndex = 0;
      var table = document.createElement("table");
      table.appendChild(text("caption", "Fabrics compared at " + advice.nodes + " nodes", "visually-hidden"));
      var head = table.createTHead().insertRow();
      ["Fabric", "Scaling efficiency", "Of one node per GPU", "Throughput", "Communication share", "Price per month"].forEach(function (h, i) {
        var th = text("th", h, i ? "num" : "");
        th.scope = "col";
        head.appendChild(th);
      });
      var tb = table.createTBody();
      var currency = state.sizing && state.sizing.result ? state.sizing.result.currency : "";
      advice.comparison.forEach(function (c) {
        var r = tb.insertRow();
        var th = text("th", c.fabric_name + (c.fabric === advice.recommended_fabric ? " (recommended)" : ""));
        th.scope = "row";
        r.appendChild(th);
        cell(r, null, pct(c.scaling_efficiency), "num");
        cell(r, null, c.efficiency_vs_one_node === null ? "–" : pct(c.efficiency_vs_one_node, 0), "num");
        cell(r, null, figure(c.throughput, c.throughput_unit), "num");
        cell(r, null, pct(c.communication_share), "num");
        cell(r, null, money(c.monthly, currency), "num");
      });
      wrap.appendChild(table);
      box.appendChild(wrap);
    }
    if (advice.roce_checklist && advice.roce_checklist.length) {
      box.appendChild(text("h4", "RoCEv2 lossless-Ethernet checklist"));
      var ol = text("ol", null, "checklist");
      advice.roce_checklist.forEach(function (item) {
        var li = document.createElement("li");
        li.appendChild(text("strong", item.item));
        if (item.why) li.appendChild(text("span", item.why, "why"));
        if (item.source) li.appendChild(text("span", "Source: " + item.source, "source"));
        ol.appendChild(li);
      });
      box.appendChild(ol);
    }
  }

  /* ------------------------------------------------------------------ quotes */

  function openQuote(c) {
    state.quoteRank = c.rank;
    var panel = $("quote-panel");
    panel.hidden = false;
    $("quote-result").hidden = true;
    $("quote-result").textContent = "";
    $("quote-status").textContent = "";
    $("quote-form").hidden = false;
    clearErrors($("quote-form"), "quote-error-summary", "quote-error-list");
    $("quote-title").textContent = "Request a quote for rank " + c.rank;
    $("quote-config").textContent = c.nodes + " × " + c.server.name + " (" + c.gpus + " GPUs)" +
      (c.hot_spare_nodes ? " and " + c.hot_spare_nodes + " hot spare nodes" : "") + " " + onFabric(c) +
      ", " + money(c.price.total, c.price.currency) + " for the training (" + billed(c.price) + ", term " +
      (state.request.term || "monthly") + "), the total the quote will show before tax.";
    $("quote-title").focus();
  }

  function buildQuoteRequest() {
    var errors = [];
    var name = val("customer_name");
    var email = val("customer_email");
    var company = val("customer_company");
    var country = val("customer_country").toUpperCase();
    var vatId = val("customer_vat_id");
    if (!name) errors.push({ field: "customer_name", detail: "enter your name" });
    else if (name.length > 200) errors.push({ field: "customer_name", detail: "must be at most 200 characters" });
    if (!email) errors.push({ field: "customer_email", detail: "enter your email address" });
    else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) errors.push({ field: "customer_email", detail: "must be an email address, like name@example.com" });
    if (company.length > 200) errors.push({ field: "customer_company", detail: "must be at most 200 characters" });
    if (!country) errors.push({ field: "customer_country", detail: "enter a two-letter country code" });
    else if (!/^[A-Z]{2}$/.test(country)) errors.push({ field: "customer_country", detail: "ISO 3166-1 alpha-2, e.g. DE" });
    if (vatId && !VAT_ID.test(vatId)) errors.push({ field: "customer_vat_id", detail: VAT_ID_WORDS });
    var customer = { name: name, email: email, country: country };
    if (company) customer.company = company;
    // A business gives its VAT id; without one the customer is taxed as a consumer.
    if (vatId) customer.vat_id = vatId;
    var body = {
      sizing_id: state.sizing.id, rank: state.quoteRank, customer: customer,
      term: state.request.term, currency: state.request.currency
    };
    return { body: body, errors: errors };
  }

  async function onQuoteSubmit(ev) {
    ev.preventDefault();
    if (state.quoteBusy) return;
    var form = $("quote-form");
    clearErrors(form, "quote-error-summary", "quote-error-list");
    var built = buildQuoteRequest();
    if (built.errors.length) {
      showErrors(built.errors, "quote-error-summary", "quote-error-list");
      return;
    }
    // One key per distinct request: a double click or a retry of the same request makes one quote.
    var serialised = JSON.stringify(built.body);
    if (serialised !== state.quoteBody) {
      state.quoteBody = serialised;
      state.quoteKey = uuid();
    }
    await sendQuote(built.body, state.quoteKey);
  }

  async function sendQuote(body, key) {
    state.quoteBusy = true;
    var button = $("quote-submit");
    button.setAttribute("aria-disabled", "true");
    $("quote-status").textContent = "Requesting the quote…";
    try {
      var response = await api("POST", "/v1/quotes", {
        // The sizing's secret goes where every route that reads the sizing takes it.
        body: body, headers: { "Idempotency-Key": key, "Client-Secret": secretFor("sizing", body.sizing_id) },
        onWait: function (s) { $("quote-status").textContent = "The service is busy; retrying in " + s + " s…"; }
      });
      $("quote-status").textContent = "";
      rememberSecret("quote", response.body.id, response.body.client_secret);
      renderQuote(response.body);
    } catch (err) {
      $("quote-status").textContent = "";
      if (err instanceof ApiError && err.kind === "problem" && (err.status === 422 || err.status === 400)) {
        showErrors(problemErrors(err.problem, QUOTE_FIELDS), "quote-error-summary", "quote-error-list");
      } else {
        var list = $("quote-error-list");
        showErrors([{ field: null, detail: err.message || String(err) }], "quote-error-summary", "quote-error-list");
        var retry = text("button", "Try again", "button button-small");
        retry.type = "button";
        retry.addEventListener("click", function () { sendQuote(body, key); });
        var li = document.createElement("li");
        li.appendChild(retry);
        list.appendChild(li);
      }
    } finally {
      state.quoteBusy = false;
      button.setAttribute("aria-disabled", "false");
    }
  }

  function renderQuote(q) {
    var box = $("quote-result");
    box.textContent = "";
    box.hidden = false;
    $("quote-form").hidden = true;
    var heading = text("h3", "Quote " + q.number, "quote-heading");
    heading.id = "quote-number";
    heading.tabIndex = -1;
    box.appendChild(heading);
    var dl = text("dl", null, "kv");
    [["Status", q.status], ["Valid until", q.valid_until],
     ["Configuration", q.configuration.nodes + " × " + q.configuration.server.name + " " + onFabric(q.configuration)],
     ["Term", q.term + ", billed " + (q.totals.hours_billed ? q.totals.hours_billed.toLocaleString("en-US") + " hours on demand" :
       q.totals.months_billed + " month" + (q.totals.months_billed > 1 ? "s" : ""))],
     ["Customer", q.customer.name + (q.customer.company ? ", " + q.customer.company : "") + " (" + (q.customer.country || "–") + ")" +
       (q.customer.vat_id ? ", VAT id " + q.customer.vat_id : "")]
    ].forEach(function (kv) {
      dl.appendChild(text("dt", kv[0]));
      var dd = text("dd", kv[1]);
      if (kv[0] === "Valid until") dd.className = "valid-until";
      dl.appendChild(dd);
    });
    box.appendChild(dl);
    if (q.stock && q.stock.warning) box.appendChild(text("p", "Stock: " + q.stock.warning, "warning stock-warning"));

    box.appendChild(text("h4", "Line items (" + q.currency + ")"));
    var wrap = text("div", null, "table-scroll");
    var table = text("table", null, "lines-table");
    table.appendChild(text("caption", "Line items of quote " + q.number, "visually-hidden"));
    var head = table.createTHead().insertRow();
    var discounted = q.lines.some(function (line) { return Number(line.discount) !== 0; });
    var cols = discounted ? ["Description", "Quantity", "Unit", "Unit price", "Discount", "Net", "Billing"] :
      ["Description", "Quantity", "Unit", "Unit price", "Net", "Billing"];
    cols.forEach(function (h) {
      var th = text("th", h, ["Description", "Unit", "Billing"].indexOf(h) < 0 ? "num" : "");
      th.scope = "col";
      head.appendChild(th);
    });
    var tb = table.createTBody();
    q.lines.forEach(function (line) {
      var r = tb.insertRow();
      cell(r, "Description", line.description);
      cell(r, "Quantity", line.quantity, "num");
      cell(r, "Unit", line.unit, "unit");
      cell(r, "Unit price", money(line.unit_price), "num");
      if (discounted) {
        cell(r, "Discount", Number(line.discount) ? "−" + money(line.discount) + " (" +
          (Number(line.discount_rate) * 100).toFixed(1).replace(/\.0$/, "") + "%)" : "–", "num");
      }
      cell(r, "Net", money(line.net), "num");
      cell(r, "Billing", line.billing === "one_time" ? "one-time" : line.billing);
    });
    wrap.appendChild(table);
    box.appendChild(wrap);

    box.appendChild(text("h4", "Totals"));
    var t = q.totals;
    var totals = text("table", null, "totals");
    totals.appendChild(text("caption", "Totals of quote " + q.number + " in " + q.currency, "visually-hidden"));
    var tbody = totals.createTBody();
    var rows = Number(t.monthly_discount) ? [["Monthly, list", t.monthly_list, "monthly-list"],
      ["Monthly, term discount", "-" + t.monthly_discount, "monthly-discount"]] : [];
    var recurring = t.hours_billed ? [["On demand, " + t.hours_billed.toLocaleString("en-US") + " hours", t.recurring, "recurring"]] :
      [["Monthly, net", t.monthly_net, "monthly-net"],
       ["× " + t.months_billed + " month" + (t.months_billed > 1 ? "s" : ""), t.recurring, "recurring"]];
    rows.concat(recurring, [["One-time", t.one_time, "one-time"],
     ["Net before tax", t.term_net, "term-net"],
     [t.tax_label, t.tax, "tax"],
     ["Grand total", t.grand_total, "grand-total"]]).forEach(function (row) {
      var r = tbody.insertRow();
      if (row[2] === "grand-total") r.className = "grand";
      var th = text("th", row[0]);
      th.scope = "row";
      r.appendChild(th);
      var td = r.insertCell();
      td.className = row[2];
      td.textContent = money(row[1], q.currency);
    });
    box.appendChild(totals);

    var doc = text("p", null, "document-link");
    box.appendChild(doc);
    loadDocument(q, doc);

    var again = text("button", "Change the customer details", "button");
    again.type = "button";
    again.addEventListener("click", function () {
      box.hidden = true;
      $("quote-form").hidden = false;
      $("customer_name").focus();
    });
    var actions = text("div", null, "actions");
    actions.appendChild(again);
    box.appendChild(actions);
    heading.focus();
  }

  /* The printable document needs the key and the quote's secret: fetch it with both headers,
     link to it as a Blob. */
  async function loadDocument(q, holder) {
    holder.textContent = "Preparing the printable version…";
    try {
      var response = await api("GET", "/v1/quotes/" + q.id + "/document", { raw: true, headers: {
        "Accept": "text/html", "Client-Secret": secretFor("quote", q.id) } });
      if (state.documentUrl) URL.revokeObjectURL(state.documentUrl);
      var blob = new Blob([response.blob], { type: "text/html" });
      state.documentUrl = URL.createObjectURL(blob);
      holder.textContent = "";
      var a = text("a", "Open the printable quote " + q.number);
      a.href = state.documentUrl;
      a.target = "_blank";
      a.rel = "noopener";
      a.id = "quote-document";
      holder.appendChild(a);
      holder.appendChild(text("span", " (opens in a new tab; print it from there)", "hint"));
    } catch (err) {
      holder.textContent = "The printable version could not be loaded: " + (err.message || err) + " ";
      var retry = text("button", "Try again", "button button-small");
      retry.type = "button";
      retry.addEventListener("click", function () { loadDocument(q, holder); });
      holder.appendChild(retry);
    }
  }

  /* ------------------------------------------------------------------ wiring */

  function init() {
    document.querySelectorAll('input[type="radio"]').forEach(function (r) { r.addEventListener("change", syncVisibility); });
    document.querySelectorAll('input[name="model_kind"]').forEach(function (r) { r.addEventListener("change", syncWorkKinds); });
    syncVisibility();
    $("preset").addEventListener("change", describePreset);
    $("sizing-form").addEventListener("submit", onSubmit);
    $("quote-form").addEventListener("submit", onQuoteSubmit);
    $("quote-cancel").addEventListener("click", function () {
      $("quote-panel").hidden = true;
      var back = document.querySelector('tr[data-rank="' + state.quoteRank + '"] .quote-button');
      if (back) back.focus();
    });
    $("customer_country").addEventListener("input", function (e) {
      var pos = e.target.selectionStart;
      e.target.value = e.target.value.toUpperCase();
      e.target.setSelectionRange(pos, pos);
    });
    $("load-retry").addEventListener("click", loadOptions);
    $("run-retry").addEventListener("click", function () {
      var retry = state.retry;
      hideRunError();
      if (retry) retry();
    });
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () {
        if (!$("results").hidden && Math.abs($("chart").clientWidth - lastWidth) > 4) renderChart();
      }, 150);
    });
    loadOptions();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
