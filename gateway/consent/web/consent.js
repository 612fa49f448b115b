// The consent page's script: sign in, one-time code, then allow or deny.
// Every call goes to this origin's flow routes (relative to the page), with
// the session cookie the sign-in answer set, and the page's anti-forgery
// token, when it carries one, in the X-CSRF-Token header. Bodies hold only
// the fields each route accepts.
(function () {
  "use strict";

  var message = document.getElementById("message");
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute("content") : "";
  var steps = ["step-signin", "step-code", "step-consent", "step-ended"];
  var busy = false;

  function say(text) {
    message.textContent = text || "";
    message.hidden = !text;
  }

  function show(id) {
    steps.forEach(function (s) {
      document.getElementById(s).hidden = s !== id;
    });
    var heading = document.querySelector("#" + id + " h2");
    if (heading) {
      heading.focus();
    }
  }

  function enableButtons(on) {
    var buttons = document.querySelectorAll("button");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].disabled = !on;
    }
  }

  // A Retry-After of seconds, in words.
  function waitWords(header) {
    var s = parseInt(header || "", 10);
    if (!(s > 0)) {
      return "a little while";
    }
    if (s < 60) {
      return s === 1 ? "1 second" : s + " seconds";
    }
    var m = Math.ceil(s / 60);
    return m === 1 ? "1 minute" : m + " minutes";
  }

  function failure(resp, body) {
    var err = body && body.error ? body.error : {};
    var code = err.code || "";
    var text = err.message || "Something went wrong. Try again.";
    if (resp.status === 429) {
      text += " Try again in " + waitWords(resp.headers.get("Retry-After")) + ".";
    }
    return { code: code, status: resp.status, message: text };
  }

  function post(route, body) {
    var headers = { Accept: "application/json", "Content-Type": "application/json" };
    if (csrf) {
      headers["X-CSRF-Token"] = csrf;
    }
    var init = {
      method: "POST",
      headers: headers,
      credentials: "same-origin",
      cache: "no-store",
      redirect: "error",
      referrerPolicy: "no-referrer"
    };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
    }
    return fetch(route, init).then(
      function (resp) {
        return resp.json().then(
          function (data) { return { resp: resp, data: data }; },
          function () { return { resp: resp, data: null }; }
        );
      },
      function () {
        throw { code: "", status: 0, message: "The page could not reach Mall Seller Center. Check your connection and try again." };
      }
    ).then(function (r) {
      if (r.resp.ok && r.data && r.data.success === true) {
        return r.data.data || {};
      }
      throw failure(r.resp, r.data);
    });
  }

  // run sends one step's call with the buttons disabled, then hands the
  // answer on; a refusal is read out in the live region.
  function run(call, next) {
    if (busy) {
      return;
    }
    busy = true;
    enableButtons(false);
    say("");
    call().then(function (data) {
      busy = false;
      enableButtons(true);
      next(data);
    }, function (err) {
      busy = false;
      if (err.code === "SESSION_EXPIRED") {
        show("step-ended");
        say(err.message);
        return;
      }
      if (err.code === "ACCOUNT_LOCKED") {
        // Nothing on this page can unlock it: leave the buttons off.
        say(err.message);
        return;
      }
      enableButtons(true);
      say(err.message);
    });
  }

  // leave goes back to the app: only to a web address, whatever the
  // answer holds.
  function leave(data) {
    var target = null;
    try {
      target = new URL(data.redirect_url);
    } catch (e) {
      target = null;
    }
    if (!target || (target.protocol !== "https:" && target.protocol !== "http:")) {
      say("Something went wrong. Go back to the app and start again.");
      return;
    }
    enableButtons(false);
    window.location.assign(data.redirect_url);
  }

  var signin = document.getElementById("signin");
  signin.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var f = signin.elements;
    run(function () {
      return post("seller-verify", {
        session: f.session.value,
        username: f.username.value.trim(),
        password: f.password.value
      });
    }, function (data) {
      f.password.value = "";
      document.getElementById("intro").hidden = true;
      if (data.masked_destination) {
        document.getElementById("destination").textContent = data.masked_destination;
      }
      if (data.otp_required === false) {
        show("step-consent");
        return;
      }
      show("step-code");
      document.getElementById("code").focus();
    });
  });

  var codeForm = document.getElementById("code-form");
  codeForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var code = codeForm.elements.code.value.replace(/\s+/g, "");
    if (!/^[0-9]{6}$/.test(code)) {
      say("Enter the 6 digits of the code.");
      codeForm.elements.code.focus();
      return;
    }
    run(function () {
      return post("seller-verify-otp", { code: code });
    }, function (data) {
      // Offer only what the app asks for, as core lists it now.
      if (data && Array.isArray(data.scopes)) {
        var boxes = document.querySelectorAll('input[name="scope"]');
        for (var i = 0; i < boxes.length; i++) {
          var asked = data.scopes.indexOf(boxes[i].value) >= 0;
          boxes[i].parentNode.hidden = !asked;
          if (!asked) {
            boxes[i].checked = false;
          }
        }
      }
      show("step-consent");
    });
  });

  var consentForm = document.getElementById("consent-form");
  consentForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var boxes = document.querySelectorAll('input[name="scope"]');
    var chosen = [];
    var offered = 0;
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].parentNode.hidden) {
        continue;
      }
      offered++;
      if (boxes[i].checked) {
        chosen.push(boxes[i].value);
      }
    }
    if (chosen.length === 0) {
      say("Tick at least one permission to allow, or choose Deny.");
      return;
    }
    // Every permission: the empty body grants all the app asked for.
    var body = chosen.length === offered ? undefined : { scopes: chosen };
    run(function () { return post("seller-consent", body); }, leave);
  });

  document.getElementById("deny").addEventListener("click", function () {
    run(function () { return post("deny"); }, leave);
  });

  enableButtons(true);
}());
