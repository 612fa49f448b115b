// The developer console's pages: every change goes through the console's
// JSON API (/console/v1) with the session's CSRF token in X-CSRF-Token. A
// failed call writes the error body's message in the form's alert region
// (and its code in data-code). No framework, no third-party code.
(function () {
  "use strict";

  var main = document.getElementById("main");
  var page = main ? main.getAttribute("data-page") : "";
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";

  function byId(id) {
    return document.getElementById(id);
  }

  // call sends a JSON API request and resolves to {ok, status, body}.
  function call(method, path, body) {
    var headers = { Accept: "application/json" };
    if (method !== "GET" && csrf) {
      headers["X-CSRF-Token"] = csrf;
    }
    var init = { method: method, headers: headers, credentials: "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch("/console/v1/" + path, init).then(function (resp) {
      return resp.text().then(function (text) {
        var parsed = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch (e) {
          parsed = null;
        }
        return { ok: resp.ok, status: resp.status, body: parsed };
      });
    }, function () {
      return { ok: false, status: 0, body: null };
    });
  }

  function alertOf(container) {
    return container.querySelector(".form-error");
  }

  function clearError(container) {
    var el = alertOf(container);
    if (el) {
      el.textContent = "";
      el.removeAttribute("data-code");
    }
  }

  // showError writes a failed answer's message (and code) in the
  // container's alert region.
  function showError(container, res) {
    var el = alertOf(container);
    if (!el) {
      return;
    }
    var err = res.body && res.body.error;
    if (err && err.message) {
      el.textContent = err.message;
      el.setAttribute("data-code", err.code || "");
    } else if (res.status === 0) {
      el.textContent = "The console could not be reached. Check your connection and try again.";
      el.setAttribute("data-code", "NETWORK");
    } else {
      el.textContent = "Something went wrong (" + res.status + "). Try again.";
      el.setAttribute("data-code", "");
    }
  }

  function show(el) {
    el.hidden = false;
    var h = el.querySelector("[tabindex='-1']");
    if (h) {
      h.focus();
    }
  }

  // submit runs fn(form) for a form's submission, with its button busy.
  function onSubmit(form, fn) {
    if (!form) {
      return;
    }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearError(form);
      var buttons = form.querySelectorAll("button");
      buttons.forEach(function (b) {
        b.disabled = true;
      });
      Promise.resolve(fn(form)).then(function () {
        buttons.forEach(function (b) {
          b.disabled = false;
        });
      });
    });
  }

  function value(form, name) {
    var el = form.elements.namedItem(name);
    return el ? el.value : "";
  }

  function checked(form, name) {
    return Array.prototype.slice.call(form.querySelectorAll('input[name="' + name + '"]:checked')).map(function (el) {
      return el.value;
    });
  }

  function lines(text) {
    return text.split("\n").map(function (s) {
      return s.trim();
    }).filter(function (s) {
      return s !== "";
    });
  }

  // safeNext is next when it is a console page of this origin.
  function safeNext(next) {
    if (typeof next === "string" && next.indexOf("/console/") === 0 && next.indexOf("//") < 0 && next.indexOf("\\") < 0) {
      return next;
    }
    return "/console/apps";
  }

  function go(path) {
    window.location.assign(path);
  }

  // confirmInPage shows the confirmation next to a dangerous button.
  function confirmInPage(button, box, yes, no, fn) {
    if (!button) {
      return;
    }
    button.addEventListener("click", function () {
      box.hidden = false;
      yes.focus();
    });
    no.addEventListener("click", function () {
      box.hidden = true;
      button.focus();
    });
    yes.addEventListener("click", fn);
  }

  var signOut = byId("sign-out");
  if (signOut) {
    signOut.addEventListener("click", function () {
      call("DELETE", "session").then(function () {
        go("/console/signin");
      });
    });
  }

  onSubmit(byId("signup"), function (form) {
    var email = value(form, "email");
    return call("POST", "signup", {
      name: value(form, "name"), email: email, password: value(form, "password"),
      developerType: value(form, "developerType")
    }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      byId("signed-up-email").textContent = email;
      form.hidden = true;
      show(byId("signed-up"));
    });
  });

  onSubmit(byId("verify"), function (form) {
    return call("POST", "verify", { token: value(form, "token") }).then(function (res) {
      if (res.ok) {
        form.hidden = true;
        return show(byId("verified"));
      }
      showError(form, res);
      if (res.body && res.body.error && res.body.error.code === "VERIFICATION_TOKEN_EXPIRED") {
        // The error's message names the API route; on the page, the
        // resend form below is the way to a new link.
        alertOf(form).textContent = "This verification link has expired. Send yourself a new one with the form below.";
        byId("resend").hidden = false;
      }
    });
  });

  onSubmit(byId("resend"), function (form) {
    return call("POST", "verify/resend", { email: value(form, "email") }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      form.hidden = true;
      show(byId("resent"));
    });
  });

  onSubmit(byId("signin"), function (form) {
    return call("POST", "session", { email: value(form, "email"), password: value(form, "password") }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      go(safeNext(value(form, "next")));
    });
  });

  if (page === "invitation") {
    call("GET", "session").then(function (res) {
      byId("checking-session").hidden = true;
      if (!res.ok || !res.body || !res.body.data) {
        byId("sign-in-first").hidden = false;
        return;
      }
      csrf = res.body.data.csrfToken || "";
      byId("accept").hidden = false;
    });
  }

  onSubmit(byId("accept"), function (form) {
    return call("POST", "invitations/accept", { token: value(form, "token") }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      form.hidden = true;
      show(byId("accepted"));
    });
  });

  function showSecret(clientID, secret, appID) {
    var box = byId("new-secret");
    if (clientID) {
      byId("client-id").textContent = clientID;
    }
    byId("client-secret").textContent = secret;
    var link = byId("download-credentials");
    if (link && appID && box.contains(link)) {
      link.setAttribute("href", "/console/v1/apps/" + encodeURIComponent(appID) + "/credentials");
    }
    box.hidden = false;
  }

  onSubmit(byId("create-app"), function (form) {
    return call("POST", "apps", {
      name: value(form, "name"), environment: checked(form, "environment")[0] || "sandbox",
      scopes: checked(form, "scopes"), redirectUris: lines(value(form, "redirectUris"))
    }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      var d = res.body.data;
      form.reset();
      showSecret(d.app.clientId, d.clientSecret, d.app.appId);
      addAppRow(d.app);
    });
  });

  // addRow appends a row to a table's body, in place of its "none yet" row.
  function addRow(table, row) {
    var body = table.tBodies[0];
    var empty = body.querySelector("tr.empty");
    if (empty) {
      body.removeChild(empty);
    }
    body.appendChild(row);
  }

  function cell(row, text, asCode) {
    var td = document.createElement("td");
    var el = td;
    if (asCode) {
      el = document.createElement("code");
      td.appendChild(el);
    }
    el.textContent = text;
    row.appendChild(td);
    return td;
  }

  // addAppRow lists an app created on this page, as the server renders it.
  function addAppRow(app) {
    var table = byId("apps");
    if (!table) {
      return;
    }
    var row = document.createElement("tr");
    var name = cell(row, "");
    var link = document.createElement("a");
    link.setAttribute("href", "/console/apps/" + encodeURIComponent(app.appId));
    link.textContent = app.name;
    name.appendChild(link);
    cell(row, app.environment);
    cell(row, app.active ? "active" : "deactivated");
    cell(row, app.clientId, true);
    addRow(table, row);
  }

  onSubmit(byId("update-app"), function (form) {
    var id = form.getAttribute("data-app-id");
    return call("PUT", "apps/" + encodeURIComponent(id), {
      name: value(form, "name"), scopes: checked(form, "scopes"), redirectUris: lines(value(form, "redirectUris"))
    }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      window.location.reload();
    });
  });

  var actions = byId("app-actions");
  if (actions) {
    var appID = actions.getAttribute("data-app-id");
    var appPath = "apps/" + encodeURIComponent(appID);
    var act = function (method, path, done) {
      clearError(actions);
      return call(method, path).then(function (res) {
        if (!res.ok) {
          return showError(actions, res);
        }
        done(res);
      });
    };
    byId("rotate-secret").addEventListener("click", function () {
      act("POST", appPath + "/rotate-secret", function (res) {
        showSecret("", res.body.data.clientSecret, "");
      });
    });
    var deactivate = byId("deactivate-app");
    if (deactivate) {
      deactivate.addEventListener("click", function () {
        act("POST", appPath + "/deactivate", function () {
          window.location.reload();
        });
      });
    }
    confirmInPage(byId("delete-app"), byId("confirm-delete"), byId("confirm-delete-app"), byId("cancel-delete-app"), function () {
      act("DELETE", appPath, function () {
        go("/console/apps");
      });
    });
  }

  onSubmit(byId("create-test-shop"), function (form) {
    return call("POST", "test-shops", { shopName: value(form, "shopName") }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      var d = res.body.data;
      form.reset();
      byId("test-shop-id").textContent = d.shop.id;
      byId("test-shop-username").textContent = d.shop.username;
      byId("test-shop-password").textContent = d.password;
      byId("test-shop-otp").textContent = d.otp;
      byId("new-test-shop").hidden = false;
      addShopRow(d.shop);
    });
  });

  // addShopRow lists a shop created on this page with its authorise form,
  // from the page's row template.
  var newShops = 0;
  function addShopRow(shop) {
    var table = byId("test-shops");
    var tmpl = byId("test-shop-row");
    if (!table || !tmpl) {
      return;
    }
    var row = tmpl.content.firstElementChild.cloneNode(true);
    var cells = row.children;
    cells[0].textContent = shop.shopName;
    cells[1].firstElementChild.textContent = shop.id;
    cells[2].firstElementChild.textContent = shop.username;
    var form = row.querySelector("form");
    form.setAttribute("data-shop-id", shop.id);
    newShops += 1;
    var id = "authorize-app-new-" + newShops;
    form.querySelector("select").id = id;
    var label = form.querySelector("label");
    label.setAttribute("for", id);
    label.textContent = "Sandbox app for " + shop.shopName;
    addRow(table, row);
    bindAuthorize(form);
  }

  document.querySelectorAll("form.authorize-test-shop").forEach(bindAuthorize);

  function bindAuthorize(form) {
    onSubmit(form, function (form) {
      var id = form.getAttribute("data-shop-id");
      return call("POST", "test-shops/" + encodeURIComponent(id) + "/authorize", { appId: value(form, "appId") }).then(function (res) {
        if (!res.ok) {
          return showError(form, res);
        }
        var d = res.body.data;
        byId("test-shop-tokens-seller").textContent = d.sellerId;
        byId("test-shop-access-token").textContent = d.accessToken;
        byId("test-shop-refresh-token").textContent = d.refreshToken;
        byId("test-shop-tokens").hidden = false;
      });
    });
  }

  var members = byId("members-section");
  if (members) {
    members.querySelectorAll("select.member-role").forEach(function (sel) {
      sel.addEventListener("change", function () {
        clearError(members);
        call("PUT", "members/" + encodeURIComponent(sel.getAttribute("data-member-id")), { role: sel.value }).then(function (res) {
          if (!res.ok) {
            return showError(members, res);
          }
          window.location.reload();
        });
      });
    });
    members.querySelectorAll("button.remove-member").forEach(function (btn) {
      btn.addEventListener("click", function () {
        clearError(members);
        call("DELETE", "members/" + encodeURIComponent(btn.getAttribute("data-member-id"))).then(function (res) {
          if (!res.ok) {
            return showError(members, res);
          }
          window.location.reload();
        });
      });
    });
  }

  var months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"];

  // philippineTime shows an RFC 3339 time as the server's pages do:
  // "3:04 PM, 2 January 2006" in Philippine time (UTC+8 all year).
  function philippineTime(iso) {
    var t = new Date(new Date(iso).getTime() + 8 * 3600 * 1000);
    var h = t.getUTCHours();
    var m = t.getUTCMinutes();
    return (h % 12 || 12) + ":" + (m < 10 ? "0" : "") + m + " " + (h < 12 ? "AM" : "PM") + ", " +
      t.getUTCDate() + " " + months[t.getUTCMonth()] + " " + t.getUTCFullYear();
  }

  function setTime(el, iso) {
    el.setAttribute("datetime", new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z"));
    el.textContent = philippineTime(iso);
  }

  var invitations = byId("invitations-section");

  function bindRevoke(btn) {
    btn.addEventListener("click", function () {
      clearError(invitations);
      call("DELETE", "invitations/" + encodeURIComponent(btn.getAttribute("data-invitation-id"))).then(function (res) {
        if (!res.ok) {
          return showError(invitations, res);
        }
        window.location.reload();
      });
    });
  }

  if (invitations) {
    invitations.querySelectorAll("button.revoke-invitation").forEach(bindRevoke);
  }

  // addInvitation puts an invitation just sent at the top of the pending
  // ones (newest first, as the server lists them).
  function addInvitation(inv) {
    var table = byId("invitations");
    var tmpl = byId("invitation-row");
    if (!table || !tmpl) {
      return;
    }
    var row = tmpl.content.firstElementChild.cloneNode(true);
    var cells = row.children;
    cells[0].textContent = inv.email;
    cells[1].textContent = inv.role;
    setTime(cells[2].firstElementChild, inv.invitedAt);
    setTime(cells[3].firstElementChild, inv.expiresAt);
    var btn = row.querySelector("button.revoke-invitation");
    if (btn) {
      btn.setAttribute("data-invitation-id", inv.id);
      btn.setAttribute("aria-label", "Revoke the invitation of " + inv.email);
      bindRevoke(btn);
    }
    var body = table.tBodies[0];
    var empty = body.querySelector("tr.empty");
    if (empty) {
      body.removeChild(empty);
    }
    body.insertBefore(row, body.firstChild);
  }

  onSubmit(byId("invite"), function (form) {
    var email = value(form, "email");
    return call("POST", "members", { email: email, role: value(form, "role") }).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      form.reset();
      // A newer invitation to the address ends the earlier one.
      var inv = res.body.data;
      if (invitations) {
        invitations.querySelectorAll("tbody tr").forEach(function (tr) {
          if (tr.firstElementChild && tr.firstElementChild.textContent === inv.email) {
            tr.parentNode.removeChild(tr);
          }
        });
      }
      addInvitation(inv);
      var done = byId("invited");
      done.textContent = "Invitation sent to " + email + ".";
      done.hidden = false;
    });
  });

  var resendForm = byId("resend-verification-form");
  if (resendForm) {
    byId("resend-verification").addEventListener("click", function () {
      clearError(resendForm);
      call("POST", "verify/resend", { email: resendForm.getAttribute("data-email") }).then(function (res) {
        if (!res.ok) {
          return showError(resendForm, res);
        }
        byId("resent").hidden = false;
      });
    });
  }

  onSubmit(byId("profile"), function (form) {
    var body = { address: {} };
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) {
        return;
      }
      if (el.name.indexOf("address.") === 0) {
        body.address[el.name.slice(8)] = el.value;
      } else {
        body[el.name] = el.value;
      }
    });
    return call("POST", "profile", body).then(function (res) {
      if (!res.ok) {
        return showError(form, res);
      }
      window.location.reload();
    });
  });

  var deleteSection = byId("delete-account-section");
  if (deleteSection) {
    confirmInPage(byId("delete-account"), byId("confirm-delete"), byId("confirm-delete-account"), byId("cancel-delete-account"), function () {
      clearError(deleteSection);
      call("DELETE", "account").then(function (res) {
        if (!res.ok) {
          byId("confirm-delete").hidden = true;
          return showError(deleteSection, res);
        }
        go("/console/signup");
      });
    });
  }
})();
