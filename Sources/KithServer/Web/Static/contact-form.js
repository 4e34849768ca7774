// Adding a contact (/contacts/new) and editing one (/contacts/{id}/edit): names, gender, a
// birthday that is known, unknown or an approximate age, and whether the person has died. The
// form sends Monica's fields to /api/contacts (POST, or PUT for a change), which checks them; its
// refusals go next to the fields they are about. Saved, it opens the contact, which says so.
// A change is what the person changed on top of the contact as it is now: it names the version
// the form was filled from, and when someone saved the contact meanwhile (another tab, a phone),
// their change is kept; where both changed the same thing, the form asks which to keep.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;
  var page = document.getElementById("contact-form-page");
  if (!page) return;
  var contactID = page.getAttribute("data-contact-id");
  var status = document.getElementById("contact-form-status");
  var card = document.getElementById("contact-form-card");
  var form = document.getElementById("contact-form");
  var formError = document.getElementById("contact-form-error");
  var saveButton = document.getElementById("contact-save");
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"];
  // Titles the server gives the reminders it keeps for a contact's dates (Monica's words).
  var BIRTHDAY_REMINDER = "Wish happy birthday to";
  var DEATH_REMINDER = "Anniversary of the death of";

  function $(id) { return document.getElementById(id); }

  function birthdayMode() {
    return document.querySelector('input[name="birthday"]:checked').value;
  }

  function showParts() {
    $("birthday-date-fields").hidden = birthdayMode() !== "date";
    $("birthday-age-fields").hidden = birthdayMode() !== "age";
    $("deceased-fields").hidden = !$("contact-deceased").checked;
  }

  document.querySelectorAll('input[name="birthday"]').forEach(function (radio) {
    radio.addEventListener("change", showParts);
  });
  $("contact-deceased").addEventListener("change", showParts);
  MONTHS.forEach(function (name, index) {
    $("birthday-month").appendChild(el("option", { value: index + 1, text: name }));
  });

  // ---- What the form says ----------------------------------------------------------------------------

  // The form's values, by what a person changes: names and gender one by one, the birthday and
  // the death each as a whole (a day taken from one change and a month from another would be
  // nobody's date). Read from a contact (and its reminders) or from the form, in the same shape,
  // so what the person changed is what differs.
  var LABELS = { first_name: "First name", last_name: "Last name", nickname: "Nickname", description: "About",
    gender_id: "Gender", birthday: "Birthday", deceased: "Deceased" };
  var TEXT_FIELDS = { first_name: "contact-first-name", last_name: "contact-last-name",
    nickname: "contact-nickname", description: "contact-description" };
  var genders = [];

  function valuesOf(contact, reminders) {
    var dates = (contact.information && contact.information.dates) || {};
    var born = dates.birthdate || {};
    var day = K.parseDay(born.date);
    var birthday = { mode: "unknown" };
    if (day && born.is_age_based) {
      birthday = { mode: "age", age: String(new Date().getFullYear() - day.getFullYear()) };
    } else if (day) {
      birthday = { mode: "date", day: String(day.getDate()), month: String(day.getMonth() + 1),
        year: born.is_year_unknown ? "" : String(day.getFullYear()), remind: kept(reminders, BIRTHDAY_REMINDER) };
    }
    var deceased = { dead: false };
    if (contact.is_dead) {
      var died = dates.deceased_date && K.parseDay(dates.deceased_date.date);
      deceased = { dead: true, date: died ? K.isoDay(died) : "", remind: !!died && kept(reminders, DEATH_REMINDER) };
    }
    var gender = genders.filter(function (candidate) { return candidate.name === contact.gender; })[0];
    return { first_name: contact.first_name || "", last_name: contact.last_name || "", nickname: contact.nickname || "",
      description: contact.description || "", gender_id: gender ? String(gender.id) : "", birthday: birthday,
      deceased: deceased };
  }

  // Whether the server keeps one of its yearly reminders for a date (Monica's titles).
  function kept(reminders, prefix) {
    return reminders.some(function (reminder) {
      return reminder.delible === false && String(reminder.title || "").indexOf(prefix) === 0;
    });
  }

  function formValues() {
    var values = { gender_id: $("contact-gender").value };
    Object.keys(TEXT_FIELDS).forEach(function (name) { values[name] = $(TEXT_FIELDS[name]).value.trim(); });
    var mode = birthdayMode();
    values.birthday = mode === "date"
      ? { mode: mode, day: $("birthday-day").value.trim(), month: $("birthday-month").value,
        year: $("birthday-year").value.trim(), remind: $("birthday-reminder").checked }
      : mode === "age" ? { mode: mode, age: $("birthday-age-years").value.trim() } : { mode: mode };
    var date = $("deceased-date").value;
    values.deceased = $("contact-deceased").checked
      ? { dead: true, date: date, remind: !!date && $("deceased-reminder").checked } : { dead: false };
    return values;
  }

  // Puts one value in the form.
  function show(name, value) {
    if (TEXT_FIELDS[name]) {
      $(TEXT_FIELDS[name]).value = value;
    } else if (name === "gender_id") {
      $("contact-gender").value = value;
    } else if (name === "birthday") {
      $("birthday-" + value.mode).checked = true;
      $("birthday-day").value = value.day || "";
      $("birthday-month").value = value.month || "1";
      $("birthday-year").value = value.year || "";
      $("birthday-reminder").checked = !!value.remind;
      $("birthday-age-years").value = value.age || "";
    } else if (name === "deceased") {
      $("contact-deceased").checked = value.dead;
      $("deceased-date").value = value.date || "";
      $("deceased-reminder").checked = !!value.remind;
    }
    showParts();
  }

  function fill(values) {
    Object.keys(values).forEach(function (name) { show(name, values[name]); });
  }

  // A value in plain words, for the choice between two changes.
  function describe(name, value) {
    if (TEXT_FIELDS[name]) return K.quotedValue(value);
    if (name === "gender_id") {
      var gender = genders.filter(function (candidate) { return String(candidate.id) === value; })[0];
      return gender ? gender.name : "Not set";
    }
    if (name === "birthday") {
      if (value.mode === "unknown") return "Unknown";
      if (value.mode === "age") return "About " + value.age + " years old";
      var day = value.day + " " + (MONTHS[Number(value.month) - 1] || "") + (value.year ? " " + value.year : "");
      return day + (value.remind ? ", reminded every year" : "");
    }
    if (!value.dead) return "Not deceased";
    var died = K.parseDay(value.date);
    return died ? "Died " + K.dayFormat.format(died) + (value.remind ? ", reminded every year" : "") : "Died, date unknown";
  }

  // ---- Loading it ---------------------------------------------------------------------------------

  // What the form was filled from: the values, the contact and its version (ETag). A save sends
  // the person's changes on top of it, naming that version.
  var loaded = null;

  function fetchContact() {
    var path = "/api/contacts/" + encodeURIComponent(contactID);
    return Promise.all([K.api("GET", path), K.allPages(path + "/reminders")]);
  }

  function edited(answers) {
    return { values: valuesOf(answers[0].data, answers[1]), etag: answers[0].etag, latest: answers[0].data };
  }

  // The contact as it is now.
  function current() {
    return fetchContact().then(edited);
  }

  function load() {
    K.clear(status);
    status.appendChild(K.loading());
    var contact = contactID ? fetchContact() : Promise.resolve(null);
    Promise.all([K.allPages("/api/genders"), contact]).then(function (answers) {
      K.clear(status);
      genders = answers[0];
      genders.forEach(function (gender) {
        $("contact-gender").appendChild(el("option", { value: gender.id, text: gender.name }));
      });
      if (answers[1]) {
        loaded = edited(answers[1]);
        document.title = "Edit " + K.sentenceName(loaded.latest) + " · Kith";
        $("contact-form-heading").textContent = "Edit " + K.sentenceName(loaded.latest);
        fill(loaded.values);
      }
      card.hidden = false;
      $("contact-first-name").focus();
    }, function (error) {
      K.clear(status);
      if (error.kind === "notFound") {
        status.appendChild(el("div", { className: "card card-center", id: "contact-not-found" }, [
          el("h1", { text: K.MESSAGES.notFound }),
          el("a", { href: "/contacts", className: "btn btn-primary", text: "Back to contacts" })
        ]));
      } else {
        status.appendChild(K.errorBox(error, load));
      }
    });
  }

  // ---- Sending it --------------------------------------------------------------------------------

  function number(text) {
    return text === "" || text === undefined ? null : Number(text);
  }

  // Monica's fields; PUT changes what is sent, and every date flag is sent each time (Monica
  // requires them), so the form always says the whole of the dates.
  function payload(values) {
    var birthday = values.birthday;
    var body = {
      first_name: values.first_name || null, last_name: values.last_name || null, nickname: values.nickname || null,
      description: values.description || null, gender_id: number(values.gender_id),
      is_birthdate_known: birthday.mode !== "unknown", birthdate_is_age_based: birthday.mode === "age",
      birthdate_add_reminder: birthday.mode === "date" && !!birthday.remind
    };
    if (birthday.mode === "date") {
      body.birthdate_day = number(birthday.day);
      body.birthdate_month = number(birthday.month);
      body.birthdate_year = number(birthday.year);
    } else if (birthday.mode === "age") {
      body.birthdate_age = number(birthday.age);
    }
    var died = values.deceased.dead ? K.parseDay(values.deceased.date) : null;
    body.is_deceased = values.deceased.dead;
    body.is_deceased_date_known = !!died;
    body.deceased_date_add_reminder = !!died && !!values.deceased.remind;
    if (died) {
      body.deceased_date_day = died.getDate();
      body.deceased_date_month = died.getMonth() + 1;
      body.deceased_date_year = died.getFullYear();
    }
    return body;
  }

  // Where each of Laravel's messages goes: the field it names, else above the form; and, where
  // the API's name is not the form's, the label's words it is said in.
  var PLACES = [
    ["the first name", "contact-first-name"], ["the last name", "contact-last-name"],
    ["the nickname", "contact-nickname"], ["the description", "contact-description"],
    ["the gender", "contact-gender"], ["the birthdate", "birthday", "the birthday"], ["the day", "birthday"],
    ["the month", "birthday"], ["the year", "birthday"], ["the age", "birthday"],
    ["the deceased date", "deceased", "the date of death"], ["the deceased", "deceased"]
  ];

  function clearErrors() {
    formError.hidden = true;
    form.querySelectorAll(".field-error").forEach(function (box) { box.hidden = true; box.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
  }

  function showErrors(error) {
    clearErrors();
    var general = [];
    var first = null;
    error.messages.forEach(function (message) {
      var lower = message.toLowerCase();
      var place = error.kind === "invalid" && PLACES.filter(function (candidate) {
        return lower.indexOf(candidate[0]) === 0;
      })[0];
      if (!place) {
        general.push(message);
        return;
      }
      if (place[2]) message = K.sentenceCase(place[2]) + message.slice(place[0].length);
      var box = $(place[1] + "-error");
      box.textContent = box.textContent ? box.textContent + " " + message : message;
      box.hidden = false;
      var input = $(place[1]) || box.parentNode.querySelector("input:not([type=radio]), select");
      if (input) {
        input.setAttribute("aria-invalid", "true");
        first = first || input;
      }
    });
    if (general.length) {
      K.clear(formError);
      general.forEach(function (message) { formError.appendChild(el("p", { text: message })); });
      formError.hidden = false;
      formError.focus();
    } else if (first) {
      first.focus();
    }
  }

  // Where both the person and someone else changed a value: their choice, in the form.
  var conflict = null;

  function showConflict(error, mine) {
    loaded = error.fresh;
    // What the other change did elsewhere is in the form now; what both changed shows the person's.
    fill(error.merged);
    if (conflict) conflict.element.remove();
    conflict = K.conflictPanel(error.names.map(function (name) {
      return { name: name, label: LABELS[name], mine: describe(name, mine[name]),
        theirs: describe(name, loaded.values[name]) };
    }), function (name, which) { show(name, which === "mine" ? mine[name] : loaded.values[name]); });
    form.insertBefore(conflict.element, form.querySelector(".form-actions"));
    conflict.focus();
  }

  function saved(answer, elsewhere) {
    K.flash((contactID ? "Saved " : "Added ") + K.sentenceName(answer.data) + "." + K.keptElsewhere(elsewhere, LABELS));
    window.location.assign("/contacts/" + answer.data.id);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearErrors();
    if (conflict && !conflict.ready()) return;
    saveButton.disabled = true;
    var mine = formValues();
    var saving = !contactID ? K.api("POST", "/api/contacts", payload(mine)).then(function (answer) {
      return { answer: answer, elsewhere: [] };
    }) : K.saveOnTop({
      base: loaded.values, etag: loaded.etag, latest: loaded.latest, mine: mine, reload: current,
      send: function (values, etag) {
        return K.api("PUT", "/api/contacts/" + encodeURIComponent(contactID), payload(values), { ifMatch: etag });
      }
    });
    saving.then(function (result) {
      saved(result.answer, result.elsewhere);
    }, function (error) {
      saveButton.disabled = false;
      if (error.kind === "conflict") showConflict(error, mine);
      else showErrors(error);
    });
  });

  load();
})();
