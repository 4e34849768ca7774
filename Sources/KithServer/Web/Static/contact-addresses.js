// A contact's addresses (seed 001): each with its label, its lines in the country's order, a map
// when it has coordinates (tile-map.js; full screen on a tap), directions, copy, share, edit and
// delete (after a confirm step); the add/edit form with a searchable country picker whose choice sets the postal-code
// and region labels. Everything goes through /api, which checks every rule. Edit and Delete read
// the address as it is now; a change goes on top of what someone else changed meanwhile, and the
// form asks when both changed the same field.
(function () {
  "use strict";

  var K = window.KithContacts;
  var Lines = window.KithAddressLines;
  var el = K.el;
  var body = document.getElementById("addresses-body");
  if (!body) return;
  var notice = document.getElementById("addresses-notice");
  var addButton = document.getElementById("add-address");
  var form = document.getElementById("address-form");
  var formTitle = document.getElementById("address-form-title");
  var formError = document.getElementById("address-form-error");
  var saveButton = document.getElementById("address-save");
  var postalLabel = document.getElementById("address-postal-code-label");
  var regionLabel = document.getElementById("address-province-label");
  var countryInput = document.getElementById("address-country");
  var countryOptions = document.getElementById("country-options");
  var countryHint = document.getElementById("address-country-hint");
  var FIELDS = ["name", "street", "city", "province", "postal_code"];

  var contact = null;
  var formats = null; // {standard, countries}: KithCore's AddressFormat, served by the server
  var countries = null; // [{code, name}] from /api/countries, loaded when the form first opens
  var editing = null; // the address being edited as it was read, {values, etag, latest}; null when adding
  var conflict = null; // the choice between the person's change and another, when both changed a value
  var chosenCountry = null; // the picker's choice: an upper-case ISO code

  function input(field) {
    return document.getElementById("address-" + field.replace("_", "-"));
  }

  function say(text) {
    K.notify(notice, text);
  }

  function contactName() {
    return contact ? K.sentenceName(contact) : "this contact";
  }

  function labelOf(address) {
    return address.name || "Address";
  }

  // ---- Coordinates, maps, directions -------------------------------------------------------------

  // (0, 0) is what a failed geocode leaves: it counts as missing (docs/contacts-web.md).
  function coordinates(address) {
    var lat = address.latitude;
    var lon = address.longitude;
    if (typeof lat !== "number" || typeof lon !== "number") return null;
    if ((lat === 0 && lon === 0) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
    return { lat: lat, lon: lon, text: lat + "," + lon };
  }

  // The links of KithCore's MapLinks (what the iOS app opens): parameters sorted by name, the
  // contact's name as the destination's label.
  function query(parameters) {
    return Object.keys(parameters).sort().map(function (name) {
      return name + "=" + encodeURIComponent(parameters[name]).replace(/%2C/g, ",");
    }).join("&");
  }

  // Without coordinates, and with no geocoder on the server, the address's text goes to the map,
  // which finds the place itself.
  function directionLinks(address, lines) {
    var point = coordinates(address);
    var osm = "https://www.openstreetmap.org/directions?" +
      query(point ? { route: ";" + point.text, to: contactName() } : { to: lines.join(", ") });
    var apple = "https://maps.apple.com/?" + query({ daddr: point ? point.text : lines.join(", "), q: contactName() });
    function link(href, service, className) {
      return el("a", {
        href: href, className: "btn btn-secondary btn-small " + className, rel: "noopener noreferrer", target: "_blank",
        title: "Directions to " + contactName() + " on " + service, text: service
      });
    }
    return el("span", { className: "directions", role: "group", "aria-label": "Directions to " + contactName() }, [
      el("span", { className: "directions-label", text: "Directions" }),
      link(osm, "OpenStreetMap", "directions-osm"),
      link(apple, "Apple Maps", "directions-apple")
    ]);
  }

  // ---- The map ------------------------------------------------------------------------------------

  var page = document.getElementById("contact-page");
  var tiles = page.dataset.mapTiles ? { template: page.dataset.mapTiles, attribution: page.dataset.mapAttribution } : null;
  var mapDialog = document.getElementById("map-dialog");
  var mapDialogFrame = document.getElementById("map-dialog-frame");
  var PREVIEW_ZOOM = 15;
  var FULL_ZOOM = 16;
  var mapsToDraw = [];

  // Instead of a map that can't be had: says so, with the directions links (moved here from the
  // card's actions, so the card shows them once).
  function mapUnavailable(area, directions, why) {
    K.clear(area);
    area.className = "map-unavailable";
    area.appendChild(el("p", { className: "map-unavailable-title", text: "Map unavailable" }));
    area.appendChild(el("p", { className: "map-unavailable-text", text: why }));
    area.appendChild(directions);
  }

  // The address's map (tiles from the server's tile source), which opens full screen when
  // tapped; the "Map unavailable" box when the server has maps off or no tile loads.
  function mapArea(address, point, directions) {
    var area = el("div", { className: "map-area" });
    if (!tiles) {
      // Once the card is whole: the directions are moved in from its actions.
      mapsToDraw.push(function () {
        mapUnavailable(area, directions, "Maps are turned off on this server.");
      });
      return area;
    }
    var frame = el("span", { className: "map-frame" });
    var preview = el("button", {
      type: "button", className: "address-map",
      "aria-label": "Show the map of " + labelOf(address) + " (" + point.lat + ", " + point.lon + ") full screen"
    }, [frame, el("span", { className: "map-caption", text: point.lat + ", " + point.lon })]);
    preview.addEventListener("click", function () { openMap(address, point); });
    area.appendChild(preview);
    mapsToDraw.push(function () {
      window.KithTileMap.draw(frame, {
        lat: point.lat, lon: point.lon, zoom: PREVIEW_ZOOM, template: tiles.template, attribution: tiles.attribution,
        onFail: function () {
          mapUnavailable(area, directions,
            "The map could not be loaded: you may be offline, or the map server is not answering.");
        }
      });
    });
    return area;
  }

  // Full screen: a tap anywhere or Escape closes it (the dialog's own Escape).
  function openMap(address, point) {
    mapDialog.setAttribute("aria-label", "Map of " + labelOf(address));
    mapDialog.showModal();
    window.KithTileMap.draw(mapDialogFrame, {
      lat: point.lat, lon: point.lon, zoom: FULL_ZOOM, template: tiles.template, attribution: tiles.attribution,
      onFail: function () {
        K.clear(mapDialogFrame);
        mapDialogFrame.appendChild(el("p", { className: "map-unavailable-title", text: "Map unavailable" }));
      }
    });
    document.getElementById("map-close").focus();
  }

  if (mapDialog) {
    mapDialog.addEventListener("click", function () { mapDialog.close(); });
    mapDialog.addEventListener("close", function () { K.clear(mapDialogFrame); });
  }

  // ---- Copy and share ----------------------------------------------------------------------------

  function copyText(text) {
    function fallback() {
      var area = el("textarea", { className: "visually-hidden", "aria-hidden": "true" });
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
      document.body.removeChild(area);
      return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
    }
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text).catch(fallback);
    return fallback();
  }

  function copyButton(text, status) {
    var button = el("button", { type: "button", className: "btn btn-secondary btn-small copy-address", text: "Copy" });
    var timer = null;
    button.addEventListener("click", function () {
      copyText(text).then(function () {
        button.textContent = "Copied";
        status.textContent = "Copied the address.";
      }, function () {
        status.textContent = "Could not copy automatically: select the address and copy it yourself.";
      }).then(function () {
        window.clearTimeout(timer);
        timer = window.setTimeout(function () {
          button.textContent = "Copy";
          status.textContent = "";
        }, 2500);
      });
    });
    return button;
  }

  // The system share sheet where there is one, else an email with the same text.
  function shareControl(address, text) {
    var subject = "Address of " + contactName() + " (" + labelOf(address) + ")";
    if (typeof navigator.share === "function") {
      var button = el("button", { type: "button", className: "btn btn-secondary btn-small share-address", text: "Share" });
      button.addEventListener("click", function () {
        navigator.share({ title: subject, text: text }).catch(function () { /* the person closed the sheet */ });
      });
      return button;
    }
    var mail = "mailto:?subject=" + encodeURIComponent(subject) + "&body=" + encodeURIComponent(text.replace(/\n/g, "\r\n"));
    return el("a", { href: mail, className: "btn btn-secondary btn-small share-address", text: "Share" });
  }

  // ---- The list ----------------------------------------------------------------------------------

  // What the server says about where an address is when nobody typed its coordinates
  // (`coordinates_source`, docs/contacts-web.md).
  var LOCATED = {
    geocoded: "Located from the address",
    locating: "Finding this address on the map…",
    not_found: "Not found on the map: add its latitude and longitude to show it there."
  };

  // While the server is still locating an address, the list is read again now and then, and
  // drawn again once one is located (the job usually answers within seconds).
  var LOCATING_CHECKS = 20;
  var LOCATING_INTERVAL_MS = 3000;
  var locatingTimer = null;

  function watchLocating(addresses, checksLeft) {
    window.clearTimeout(locatingTimer);
    var waiting = addresses.filter(function (address) { return address.coordinates_source === "locating"; });
    if (!waiting.length || checksLeft <= 0) return;
    locatingTimer = window.setTimeout(function () {
      K.allPages("/api/contacts/" + contact.id + "/addresses").then(function (now) {
        var settled = waiting.some(function (address) {
          var same = now.filter(function (candidate) { return candidate.id === address.id; })[0];
          return !same || same.coordinates_source !== "locating";
        });
        if (settled) refresh(); else watchLocating(now, checksLeft - 1);
      }, function () { watchLocating(waiting, checksLeft - 1); });
    }, LOCATING_INTERVAL_MS);
  }

  function addressCard(address) {
    var lines = Lines.lines(address, formats);
    // What Copy and Share give: PostalAddress.formatted, the lines one per line.
    var text = lines.join("\n");
    var status = el("p", { className: "address-status", role: "status" });
    var edit = el("button", { type: "button", className: "btn btn-secondary btn-small edit-address", text: "Edit" });
    edit.addEventListener("click", function () { withCurrent(address, edit, openForm); });
    var remove = el("button", { type: "button", className: "btn btn-danger-outline btn-small delete-address", text: "Delete" });
    remove.addEventListener("click", function () { withCurrent(address, remove, confirmDeletion); });
    var point = coordinates(address);
    var directions = directionLinks(address, lines);
    var located = LOCATED[address.coordinates_source];
    return el("li", { className: "address-card", "data-address-id": address.id }, [
      el("div", { className: "address-main" }, [
        el("h3", { className: "address-label", text: labelOf(address) }),
        el("p", { className: "address-text", text: text }),
        located ? el("p", { className: "address-located muted", text: located }) : null
      ]),
      point ? mapArea(address, point, directions) : null,
      el("div", { className: "address-actions" }, [
        directions,
        el("span", { className: "address-buttons" }, [copyButton(text, status), shareControl(address, text), edit, remove])
      ]),
      status
    ]);
  }

  function loadFormats() {
    if (formats) return Promise.resolve(formats);
    return K.api("GET", "/contacts/address-formats.json").then(function (answer) {
      formats = answer;
      return formats;
    });
  }

  function refresh() {
    K.clear(body);
    body.appendChild(K.loading());
    return Promise.all([loadFormats(), K.allPages("/api/contacts/" + contact.id + "/addresses")]).then(function (answers) {
      K.clear(body);
      var addresses = answers[1];
      if (!addresses.length) {
        body.appendChild(el("p", { className: "empty-note", id: "no-addresses", text: "No addresses yet" }));
        return;
      }
      addresses.sort(function (a, b) { return a.id - b.id; });
      mapsToDraw = [];
      body.appendChild(el("ul", { className: "address-list", id: "address-list" }, addresses.map(addressCard)));
      // Drawn once on the page: a map needs its size, a placeholder the card's directions.
      mapsToDraw.forEach(function (drawMap) { drawMap(); });
      watchLocating(addresses, LOCATING_CHECKS);
    }, function (error) {
      K.clear(body);
      body.appendChild(K.errorBox(error, refresh));
    });
  }

  // ---- Deleting, after a confirm step ------------------------------------------------------------

  // The address as it is now, with its version, as the form shows it.
  function current(address) {
    return K.api("GET", "/api/addresses/" + address.id).then(function (answer) {
      return { values: valuesOf(answer.data), etag: answer.etag, latest: answer.data };
    });
  }

  // Reads the address before acting on it; gone meanwhile, the section says so.
  function withCurrent(address, button, act) {
    K.readFirst(button, function () { return current(address); }, act, function () {
      say("The address “" + labelOf(address) + "” was deleted elsewhere.");
      refresh();
    }, function (error) { say(error.message); });
  }

  // Asks about the address as it is now; the deletion names that version, so one changed
  // elsewhere meanwhile is shown again before it goes.
  function confirmDeletion(state) {
    window.KithEditor.confirmRemoval({
      state: state, button: "Delete",
      title: function (address) { return "Delete the address “" + labelOf(address) + "”?"; },
      text: function (address) {
        return Lines.lines(address, formats).join(", ") + ". It will be removed from " + contactName() +
          "'s addresses, on every device.";
      },
      remove: function (address, options) {
        return K.api("DELETE", "/api/addresses/" + address.id, undefined, options);
      },
      removed: function (address) {
        if (editing && editing.latest.id === address.id) closeForm();
        say("Deleted the address “" + labelOf(address) + "”.");
        refresh();
      },
      read: function () {
        refresh();
        return current(state.latest);
      }
    });
  }

  // ---- The country picker ------------------------------------------------------------------------

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function loadCountries() {
    if (countries) return Promise.resolve(countries);
    return K.api("GET", "/api/countries").then(function (answer) {
      // An object keyed by lower-case ISO code, in name order.
      countries = Object.keys(answer.data || {}).map(function (key) {
        var country = answer.data[key];
        return { code: String(country.iso || key).toUpperCase(), name: country.name, folded: fold(country.name) };
      });
      return countries;
    });
  }

  // By code first ("us"), then names starting with the text, then names containing it.
  function countryMatches(text) {
    var query = fold(text);
    if (!query || !countries) return countries || [];
    var byCode = [];
    var starting = [];
    var containing = [];
    countries.forEach(function (country) {
      if (country.code.toLowerCase() === query) byCode.push(country);
      else if (country.folded.indexOf(query) === 0) starting.push(country);
      else if (country.folded.indexOf(query) !== -1) containing.push(country);
    });
    return byCode.concat(starting, containing);
  }

  var shownCountries = [];
  var activeCountry = -1;

  function setActive(index) {
    var items = countryOptions.children;
    if (activeCountry >= 0 && items[activeCountry]) items[activeCountry].setAttribute("aria-selected", "false");
    activeCountry = index;
    if (index >= 0 && items[index]) {
      items[index].setAttribute("aria-selected", "true");
      countryInput.setAttribute("aria-activedescendant", items[index].id);
      items[index].scrollIntoView({ block: "nearest" });
    } else {
      countryInput.removeAttribute("aria-activedescendant");
    }
  }

  function openCountries() {
    shownCountries = countryMatches(countryInput.value);
    K.clear(countryOptions);
    shownCountries.forEach(function (country) {
      countryOptions.appendChild(el("li", {
        id: "country-option-" + country.code, role: "option", className: "combobox-option", "aria-selected": "false",
        "data-code": country.code
      }, [el("span", { text: country.name }), el("span", { className: "country-code", text: country.code })]));
    });
    if (!shownCountries.length) {
      countryOptions.appendChild(el("li", { className: "combobox-empty", text: "No country matches “" + countryInput.value.trim() + "”" }));
    }
    countryOptions.hidden = false;
    countryInput.setAttribute("aria-expanded", "true");
    activeCountry = -1;
    setActive(countryInput.value.trim() && shownCountries.length ? 0 : -1);
  }

  function closeCountries() {
    countryOptions.hidden = true;
    countryInput.setAttribute("aria-expanded", "false");
    setActive(-1);
  }

  function showLabels() {
    var format = Lines.formatFor(formats, chosenCountry);
    postalLabel.textContent = format.postalCodeLabel;
    regionLabel.textContent = format.regionLabel;
  }

  function chooseCountry(country) {
    chosenCountry = country ? country.code : null;
    countryInput.value = country ? country.name : "";
    countryHint.textContent = country ? "ISO code " + country.code : "Type to search by name or ISO code (FR, US…).";
    countryInput.removeAttribute("aria-invalid");
    closeCountries();
    showLabels();
  }

  // What was typed names exactly one country (by its name or code).
  function exactCountry(text) {
    var query = fold(text);
    if (!query || !countries) return null;
    return countries.filter(function (country) {
      return country.folded === query || country.code.toLowerCase() === query;
    })[0] || null;
  }

  countryInput.addEventListener("input", function () {
    if (chosenCountry) {
      chosenCountry = null;
      showLabels();
    }
    openCountries();
  });
  countryInput.addEventListener("focus", function () {
    if (!chosenCountry) openCountries();
  });
  countryInput.addEventListener("keydown", function (event) {
    var open = !countryOptions.hidden;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) openCountries();
      var step = event.key === "ArrowDown" ? 1 : -1;
      var next = activeCountry + step;
      if (next < 0) next = shownCountries.length - 1;
      if (next >= shownCountries.length) next = 0;
      setActive(next);
    } else if (event.key === "Enter" && open) {
      // Choosing, not submitting the form.
      event.preventDefault();
      if (activeCountry >= 0) chooseCountry(shownCountries[activeCountry]);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      closeCountries();
    }
  });
  countryInput.addEventListener("blur", function () {
    closeCountries();
    if (!chosenCountry && countryInput.value.trim()) {
      var exact = exactCountry(countryInput.value);
      if (exact) chooseCountry(exact);
    }
  });
  // mousedown, so the input keeps the focus and its blur does not close the list first.
  countryOptions.addEventListener("mousedown", function (event) {
    var option = event.target.closest("[data-code]");
    if (!option) return;
    event.preventDefault();
    chooseCountry(countries.filter(function (country) { return country.code === option.dataset.code; })[0]);
  });

  // ---- The form ----------------------------------------------------------------------------------

  function showFormError(messages) {
    K.clear(formError);
    if (messages.length === 1) formError.appendChild(el("p", { text: messages[0] }));
    else formError.appendChild(el("ul", {}, messages.map(function (text) { return el("li", { text: text }); })));
    formError.hidden = false;
    formError.focus();
  }

  // Fills the form from values (valuesOf's shape) once the countries are there.
  function fillForm(values) {
    FIELDS.forEach(function (field) { input(field).value = values[field] || ""; });
    input("latitude").value = values.latitude;
    input("longitude").value = values.longitude;
    chooseCountry(values.country ? countries.filter(function (country) { return country.code === values.country; })[0] : null);
  }

  // state: the address as read ({values, etag, latest}); null to add one.
  function openForm(state) {
    editing = state;
    dropConflict();
    var address = state && state.latest;
    formError.hidden = true;
    formTitle.textContent = address ? "Edit the address “" + labelOf(address) + "”" : "Add an address";
    saveButton.textContent = address ? "Save changes" : "Save address";
    var values = state ? state.values : valuesOf(null);
    FIELDS.forEach(function (field) { input(field).value = values[field] || ""; });
    input("latitude").value = values.latitude;
    input("longitude").value = values.longitude;
    form.hidden = false;
    addButton.hidden = true;
    countryInput.disabled = true;
    countryHint.textContent = "Loading countries…";
    Promise.all([loadFormats(), loadCountries()]).then(function () {
      countryInput.disabled = false;
      fillForm(values);
    }, function (error) {
      countryHint.textContent = error.message;
    });
    form.scrollIntoView({ block: "nearest" });
    input("name").focus();
  }

  function closeForm() {
    editing = null;
    dropConflict();
    form.hidden = true;
    addButton.hidden = false;
    closeCountries();
  }

  // Numbers as numbers; anything else as typed, for the API to say what is wrong with it.
  function coordinateValue(text) {
    var trimmed = text.trim();
    if (!trimmed) return null;
    return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed) ? Number(trimmed) : trimmed;
  }

  // What the form says, by field: texts as typed, the country as its code, coordinates as typed.
  // From an address (as the form would show it) or from the form, in the same shape, so what the
  // person changed is what differs.
  function valuesOf(address) {
    var values = {};
    FIELDS.forEach(function (field) { values[field] = (address && address[field]) || ""; });
    // Coordinates the server found from the text are not the person's: the form shows them
    // empty, so a save sends none and the server keeps locating the address from its text.
    var typed = address && address.coordinates_source !== "geocoded";
    var point = typed && typeof address.latitude === "number" ? address : null;
    values.country = (address && address.country && address.country.iso) || null;
    values.latitude = point ? String(point.latitude) : "";
    values.longitude = point ? String(point.longitude) : "";
    return values;
  }

  function formValues() {
    var values = {};
    FIELDS.forEach(function (field) { values[field] = input(field).value.trim(); });
    values.country = chosenCountry;
    values.latitude = input("latitude").value.trim();
    values.longitude = input("longitude").value.trim();
    return values;
  }

  // PUT replaces every field, so every field is sent, empty ones as null.
  function payload(values) {
    var body = { contact_id: contact.id };
    FIELDS.forEach(function (field) { body[field] = values[field] || null; });
    body.country = values.country;
    body.latitude = coordinateValue(values.latitude);
    body.longitude = coordinateValue(values.longitude);
    return body;
  }

  // The field names a person reads, for the choice between two changes.
  function labels() {
    return { name: "Label", street: "Street", city: "City", province: regionLabel.textContent,
      postal_code: postalLabel.textContent, country: "Country", latitude: "Latitude", longitude: "Longitude" };
  }

  function describeValue(field, value) {
    if (field !== "country") return K.quotedValue(value);
    var country = value && countries.filter(function (candidate) { return candidate.code === value; })[0];
    return country ? country.name : "(none)";
  }

  function dropConflict() {
    if (conflict) conflict.element.remove();
    conflict = null;
  }

  // Someone changed the address while the person edited it, and both changed `names`: the
  // other change goes in the form with the person's on top, and the person chooses for those.
  function showConflict(error, mine) {
    editing = error.fresh;
    var theirs = editing.values;
    fillForm(error.merged);
    dropConflict();
    var words = labels();
    conflict = K.conflictPanel(error.names.map(function (field) {
      return { name: field, label: words[field], mine: describeValue(field, mine[field]),
        theirs: describeValue(field, theirs[field]) };
    }), function (field, which) {
      var value = which === "mine" ? mine[field] : theirs[field];
      if (field === "country") {
        chooseCountry(value ? countries.filter(function (country) { return country.code === value; })[0] : null);
      } else {
        input(field).value = value;
      }
    });
    form.insertBefore(conflict.element, form.querySelector(".form-actions"));
    conflict.focus();
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    formError.hidden = true;
    if (!chosenCountry && countryInput.value.trim()) {
      var exact = exactCountry(countryInput.value);
      if (!exact) {
        countryInput.setAttribute("aria-invalid", "true");
        showFormError(["Choose the country from the list, or leave it empty."]);
        return;
      }
      chooseCountry(exact);
    }
    if (conflict && !conflict.ready()) return;
    var edit = editing;
    var mine = formValues();
    saveButton.disabled = true;
    var saving = !edit ? K.api("POST", "/api/addresses", payload(mine)).then(function (answer) {
      return { answer: answer, elsewhere: [] };
    }) : K.saveOnTop({
      base: edit.values, etag: edit.etag, latest: edit.latest, mine: mine,
      reload: function () { return current(edit.latest); },
      send: function (values, etag) {
        return K.api("PUT", "/api/addresses/" + edit.latest.id, payload(values), { ifMatch: etag });
      }
    });
    saving.then(function (result) {
      saveButton.disabled = false;
      var words = labels();
      closeForm();
      say((edit ? "Saved the address “" : "Added the address “") + labelOf(result.answer.data) + "”." +
        K.keptElsewhere(result.elsewhere, words));
      refresh().then(function () { addButton.focus(); });
    }, function (error) {
      saveButton.disabled = false;
      if (error.kind === "conflict") showConflict(error, mine);
      else showFormError(error.messages);
    });
  });

  document.getElementById("address-cancel").addEventListener("click", function () {
    closeForm();
    addButton.focus();
  });
  addButton.addEventListener("click", function () { openForm(null); });

  window.KithAddresses = {
    start: function (shownContact) {
      contact = shownContact;
      refresh();
    }
  };
})();
