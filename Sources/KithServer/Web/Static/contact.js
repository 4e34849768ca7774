// A contact's page (/contacts/{id}): the contact from /api/contacts/{id}, its summary (with the
// profile photo, else the initials) with Edit and Delete, then its addresses
// (contact-addresses.js) and the other sections (contact-sections.js), each loading on its own
// with its own loading, empty and error states.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;
  var page = document.getElementById("contact-page");
  if (!page) return;
  var contactID = page.getAttribute("data-contact-id");
  var status = document.getElementById("contact-status");
  var details = document.getElementById("contact-details");
  var notice = document.getElementById("contact-notice");

  // ---- The summary -------------------------------------------------------------------------------

  function fact(list, term, children) {
    list.appendChild(el("div", { className: "fact" }, [el("dt", { text: term }), el("dd", {}, children)]));
  }

  function nextAnniversary(day) {
    var today = K.startOfToday();
    var next = K.makeDay(today.getFullYear(), day.getMonth(), day.getDate());
    if (next < today) next = K.makeDay(today.getFullYear() + 1, day.getMonth(), day.getDate());
    return next;
  }

  function birthday(date) {
    var day = K.parseDay(date && date.date);
    if (!day) return null;
    if (date.is_age_based) {
      return [el("time", { datetime: String(day.getFullYear()), text: "Born around " + day.getFullYear() })];
    }
    var next = nextAnniversary(day);
    var shown = date.is_year_unknown ? K.dayMonthFormat.format(day) : K.dayFormat.format(day);
    return [
      el("time", { datetime: date.is_year_unknown ? K.isoDay(day).slice(5) : K.isoDay(day), text: shown }),
      " · next birthday ",
      el("time", { datetime: K.isoDay(next), title: K.dayFormat.format(next), text: K.relativeDay(next) })
    ];
  }

  // The profile photo when the contact has one of their photos as avatar, else the initials (a
  // Gravatar is an image from another site, which the pages' content security policy does not
  // load: the initials stand in). A photo that does not load (deleted elsewhere) leaves the initials.
  function showAvatar(contact, initials) {
    var photo = document.getElementById("contact-photo");
    var avatar = (contact.information && contact.information.avatar) || {};
    var path = avatar.source === "photo" ? K.samePagePath(avatar.url) : null;
    if (!path) {
      photo.hidden = true;
      photo.removeAttribute("src");
      initials.hidden = false;
      return;
    }
    photo.onerror = function () {
      photo.hidden = true;
      initials.hidden = false;
    };
    photo.onload = function () {
      photo.hidden = false;
      initials.hidden = true;
    };
    if (photo.getAttribute("src") !== path) photo.setAttribute("src", path);
    else if (photo.complete && photo.naturalWidth) photo.onload();
  }

  function showSummary(contact) {
    var name = K.contactName(contact);
    document.title = name + " · Kith";
    document.getElementById("contact-name").textContent = name;
    var initials = document.getElementById("contact-initials");
    initials.textContent = contact.initials || "?";
    initials.className = "avatar avatar-large " + K.hueClass(name);
    showAvatar(contact, initials);
    var nickname = document.getElementById("contact-nickname");
    nickname.hidden = !contact.nickname;
    nickname.textContent = contact.nickname ? "“" + contact.nickname + "”" : "";
    var description = document.getElementById("contact-description");
    description.hidden = !contact.description;
    description.textContent = contact.description || "";

    var info = contact.information || {};
    var facts = document.getElementById("contact-facts");
    K.clear(facts);
    if (contact.gender) fact(facts, "Gender", [contact.gender]);
    var born = birthday(info.dates && info.dates.birthdate);
    if (born) fact(facts, "Birthday", born);
    if (contact.is_dead) {
      var died = info.dates && info.dates.deceased_date && info.dates.deceased_date.date;
      var diedOn = K.parseDay(died);
      fact(facts, "Deceased", diedOn ? [el("time", { datetime: K.isoDay(diedOn), text: K.dayFormat.format(diedOn) })] : ["Yes"]);
    }
    var career = info.career || {};
    if (career.job || career.company) {
      fact(facts, "Work", [[career.job, career.company].filter(Boolean).join(" at ")]);
    }
    var met = info.how_you_met || {};
    if (met.general_information) fact(facts, "How you met", [met.general_information]);
    if (info.food_preferences) fact(facts, "Food preferences", [info.food_preferences]);
    if (contact.last_activity_together) {
      fact(facts, "Last activity together", [K.timeElement(contact.last_activity_together)]);
    }
    if (contact.last_called) fact(facts, "Last called", [K.momentElement(contact.last_called)]);
  }

  // ---- Deleting the contact ------------------------------------------------------------------------

  // The contact as the page shows it, and its version: Delete names that version, so a contact
  // changed elsewhere since the page was opened is shown again before it goes.
  var shown = null;

  function setUpDeletion() {
    function consequence() {
      return "Their photos, addresses, contact details, notes, tasks, gifts, reminders, calls, " +
        "conversations, debts, pets, life events and relationships are deleted with them, on every " +
        "device. This can't be undone.";
    }
    document.getElementById("delete-contact").addEventListener("click", function () {
      var name = K.sentenceName(shown.data);
      window.KithEditor.confirm({
        title: "Delete " + name + "?",
        text: consequence(),
        button: "Delete contact",
        action: function () {
          return K.api("DELETE", "/api/contacts/" + shown.data.id, undefined, { ifMatch: shown.etag }).then(function () {
            K.flash("Deleted " + K.sentenceName(shown.data) + ".");
            window.location.assign("/contacts");
          });
        },
        changed: function () {
          return K.api("GET", "/api/contacts/" + encodeURIComponent(contactID)).then(function (answer) {
            shown = answer;
            showSummary(answer.data);
            return { title: "Delete " + K.sentenceName(answer.data) + "?",
              text: "The page behind shows them as they are now. " + consequence() };
          });
        }
      });
    });
  }

  // ---- What the sections change in the summary -----------------------------------------------------

  // A call moves "Last called", a new profile photo the picture: the sections show the contact
  // again through these. show(answer) takes a contact an answer carried (the avatar's);
  // refresh() reads it again. Both keep the version Delete names.
  var summary = {
    show: function (answer) {
      shown = answer;
      showSummary(answer.data);
      return answer.data;
    },
    refresh: function () {
      return K.api("GET", "/api/contacts/" + encodeURIComponent(contactID)).then(summary.show, function () {
        // The summary stays as it was; the section that asked has said what it did.
        return shown.data;
      });
    },
    current: function () { return shown.data; }
  };

  // ---- The page ----------------------------------------------------------------------------------

  function notFound() {
    document.title = "Contact not found · Kith";
    status.appendChild(el("div", { className: "card card-center", id: "contact-not-found" }, [
      el("h1", { text: K.MESSAGES.notFound }),
      el("p", { className: "lede", text: "It may have been deleted, or the link is wrong." }),
      el("a", { href: "/contacts", className: "btn btn-primary", text: "Back to contacts" })
    ]));
  }

  function loadContact() {
    K.clear(status);
    status.appendChild(K.loading());
    K.api("GET", "/api/contacts/" + encodeURIComponent(contactID)).then(function (answer) {
      K.clear(status);
      var contact = answer.data;
      shown = answer;
      showSummary(contact);
      details.hidden = false;
      var said = K.takeFlash();
      if (said) K.notify(notice, said);
      setUpDeletion();
      window.KithMerge.start(contact.id);
      window.KithAddresses.start(contact);
      window.KithSections.start(contact, summary);
    }, function (error) {
      K.clear(status);
      if (error.kind === "notFound") notFound();
      else status.appendChild(K.errorBox(error, loadContact));
    });
  }

  loadContact();
})();
