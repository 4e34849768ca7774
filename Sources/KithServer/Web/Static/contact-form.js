// Adding a contact (/contacts/new) and editing one (/contacts/{id}/edit): names, gender, a
// birthday that is known, unknown or an approximate age, and whether the person has died. The
// form sends Monica's fields to /api/contacts (POST, or PUT for a change), which checks them; its
// refusals go next to the fields they are about. Saved, it opens the contact, which says so.
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

  // ---- Filling the form ----------------------------------------------------------------------------

  function fill(contact, genders, reminders) {
    $("contact-first-name").value = contact.first_name || "";
    $("contact-last-name").value = contact.last_name || "";
    $("contact-nickname").value = contact.nickname || "";
    $("contact-description").value = contact.description || "";
    var gender = genders.filter(function (candidate) { return candidate.name === contact.gender; })[0];
    $("contact-gender").value = gender ? String(gender.id) : "";

    var dates = (contact.information && contact.information.dates) || {};
    var born = dates.birthdate || {};
    var day = K.parseDay(born.date);
    if (day && born.is_age_based) {
      $("birthday-age").checked = true;
      $("birthday-age-years").value = String(new Date().getFullYear() - day.getFullYear());
    } else if (day) {
      $("birthday-date").checked = true;
      $("birthday-day").value = String(day.getDate());
      $("birthday-month").value = String(day.getMonth() + 1);
      $("birthday-year").value = born.is_year_unknown ? "" : String(day.getFullYear());
    }
    $("contact-deceased").checked = !!contact.is_dead;
    var died = dates.deceased_date && K.parseDay(dates.deceased_date.date);
    $("deceased-date").value = died ? K.isoDay(died) : "";
    function kept(prefix) {
      return reminders.some(function (reminder) {
        return reminder.delible === false && String(reminder.title || "").indexOf(prefix) === 0;
      });
    }
    $("birthday-reminder").checked = kept(BIRTHDAY_REMINDER);
    $("deceased-reminder").checked = kept(DEATH_REMINDER);
    showParts();
  }

  function load() {
    K.clear(status);
    status.appendChild(K.loading());
    var genders = K.allPages("/api/genders");
    var contact = contactID ? K.api("GET", "/api/contacts/" + encodeURIComponent(contactID)) : Promise.resolve(null);
    var reminders = contactID ? K.allPages("/api/contacts/" + encodeURIComponent(contactID) + "/reminders")
      : Promise.resolve([]);
    Promise.all([genders, contact, reminders]).then(function (answers) {
      K.clear(status);
      answers[0].forEach(function (gender) {
        $("contact-gender").appendChild(el("option", { value: gender.id, text: gender.name }));
      });
      if (answers[1]) {
        var shown = answers[1].data;
        document.title = "Edit " + K.sentenceName(shown) + " · Kith";
        $("contact-form-heading").textContent = "Edit " + K.sentenceName(shown);
        fill(shown, answers[0], answers[2]);
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

  function text(id) {
    var value = $(id).value.trim();
    return value === "" ? null : value;
  }

  function number(id) {
    var value = $(id).value.trim();
    return value === "" ? null : Number(value);
  }

  // Monica's fields; PUT changes what is sent, and every date flag is sent each time (Monica
  // requires them), so the form always says the whole of the dates.
  function payload() {
    var mode = birthdayMode();
    var body = {
      first_name: text("contact-first-name"), last_name: text("contact-last-name"), nickname: text("contact-nickname"),
      description: text("contact-description"), gender_id: number("contact-gender"),
      is_birthdate_known: mode !== "unknown", birthdate_is_age_based: mode === "age",
      birthdate_add_reminder: mode === "date" && $("birthday-reminder").checked
    };
    if (mode === "date") {
      body.birthdate_day = number("birthday-day");
      body.birthdate_month = number("birthday-month");
      body.birthdate_year = number("birthday-year");
    } else if (mode === "age") {
      body.birthdate_age = number("birthday-age-years");
    }
    var deceased = $("contact-deceased").checked;
    var died = deceased ? K.parseDay($("deceased-date").value) : null;
    body.is_deceased = deceased;
    body.is_deceased_date_known = !!died;
    body.deceased_date_add_reminder = !!died && $("deceased-reminder").checked;
    if (died) {
      body.deceased_date_day = died.getDate();
      body.deceased_date_month = died.getMonth() + 1;
      body.deceased_date_year = died.getFullYear();
    }
    return body;
  }

  // Where each of Laravel's messages goes: the field it names, else above the form.
  var PLACES = [
    ["the first name", "contact-first-name"], ["the last name", "contact-last-name"],
    ["the nickname", "contact-nickname"], ["the description", "contact-description"],
    ["the gender", "contact-gender"], ["the birthdate", "birthday"], ["the day", "birthday"],
    ["the month", "birthday"], ["the year", "birthday"], ["the age", "birthday"], ["the deceased", "deceased"]
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

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    saveButton.disabled = true;
    var path = contactID ? "/api/contacts/" + encodeURIComponent(contactID) : "/api/contacts";
    K.api(contactID ? "PUT" : "POST", path, payload()).then(function (answer) {
      var saved = answer.data;
      K.flash((contactID ? "Saved " : "Added ") + K.sentenceName(saved) + ".");
      window.location.assign("/contacts/" + saved.id);
    }, function (error) {
      saveButton.disabled = false;
      showErrors(error);
    });
  });

  load();
})();
