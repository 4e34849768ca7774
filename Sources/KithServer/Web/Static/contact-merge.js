// "Merge with…" on a contact's page: choose the other contact (search as you type, or the page
// opened as /contacts/{id}?merge={other} from an import's list of likely duplicates), see both side
// by side, then one POST /api/contacts/{id}/merge (Kith's own route) keeps this contact, with the
// other's blanks filled in and everything on it, and deletes the other.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;
  var dialog = document.getElementById("merge-dialog");
  if (!dialog) return;
  var pickForm = document.getElementById("merge-pick");
  var confirmBox = document.getElementById("merge-confirm");
  var pickError = document.getElementById("merge-pick-error");
  var mergeError = document.getElementById("merge-error");
  var mergeButton = document.getElementById("merge-do");
  var keptID = null;
  var kept = null;
  var other = null;
  var picker = null;

  function birthdayText(contact) {
    var born = contact.information && contact.information.dates && contact.information.dates.birthdate;
    var day = K.parseDay(born && born.date);
    if (!day) return null;
    if (born.is_age_based) return "Born around " + day.getFullYear();
    return born.is_year_unknown ? K.dayMonthFormat.format(day) : K.dayFormat.format(day);
  }

  function count(number, one, many) {
    return number ? number + " " + (number === 1 ? one : many) : null;
  }

  // What tells two entries of one person apart at a glance: names, birthday, how to reach them,
  // where they live, and how much hangs off each.
  function facts(contact) {
    var rows = [];
    function row(term, value) { if (value) rows.push([term, value]); }
    row("Nickname", contact.nickname);
    row("Birthday", birthdayText(contact));
    var career = (contact.information && contact.information.career) || {};
    row("Work", [career.job, career.company].filter(Boolean).join(" at "));
    (contact.contactFields || []).forEach(function (field) {
      row((field.contact_field_type && field.contact_field_type.name) || "Other", field.content);
    });
    (contact.addresses || []).forEach(function (address) {
      row(address.name || "Address", [address.street, address.city].filter(Boolean).join(", "));
    });
    row("Tags", (contact.tags || []).map(function (tag) { return tag.name; }).join(", "));
    var stats = contact.statistics || {};
    row("On it", [count(stats.number_of_notes, "note", "notes"), count(stats.number_of_tasks, "task", "tasks"),
      count(stats.number_of_activities, "activity", "activities"), count(stats.number_of_gifts, "gift", "gifts"),
      count(stats.number_of_reminders, "reminder", "reminders")].filter(Boolean).join(", "));
    return rows;
  }

  function column(id, title, contact) {
    var list = el("dl", { className: "facts" }, facts(contact).map(function (pair) {
      return el("div", { className: "fact" }, [el("dt", { text: pair[0] }), el("dd", { text: pair[1] })]);
    }));
    return el("section", { className: "merge-side", id: id }, [
      el("h3", { className: "merge-side-title", text: title }),
      el("p", { className: "merge-name", text: K.contactName(contact) }),
      list
    ]);
  }

  function showPick() {
    pickForm.hidden = false;
    confirmBox.hidden = true;
    pickError.hidden = true;
    if (!picker) {
      picker = window.KithEditor.contactPicker("merge-other", {}, keptID);
      document.getElementById("merge-picker").appendChild(picker.element);
      picker.input.setAttribute("aria-describedby", "merge-other-hint");
    }
    picker.set(null);
  }

  // Both contacts read now (with their fields), so the comparison and the version the merge
  // names are the ones the person sees.
  function compare(otherID) {
    var query = "?with=contactfields";
    return Promise.all([
      K.api("GET", "/api/contacts/" + encodeURIComponent(keptID) + query),
      K.api("GET", "/api/contacts/" + encodeURIComponent(otherID) + query)
    ]).then(function (answers) {
      kept = answers[0];
      other = answers[1];
      var keptName = K.sentenceName(kept.data);
      var otherName = K.sentenceName(other.data);
      document.getElementById("merge-title").textContent = "Merge " + otherName + " into " + keptName + "?";
      document.getElementById("merge-text").textContent = keptName + " is kept: blanks are filled from " +
        otherName + ", and everything on " + otherName + " (details, addresses, notes, tasks, gifts, reminders, " +
        "tags, activities, relationships) moves to " + keptName + ". Then " + otherName +
        " is deleted. This can't be undone.";
      var columns = document.getElementById("merge-columns");
      K.clear(columns);
      columns.appendChild(column("merge-kept", "Kept", kept.data));
      columns.appendChild(column("merge-other-side", "Merged in, then deleted", other.data));
      pickForm.hidden = true;
      confirmBox.hidden = false;
      mergeError.hidden = true;
      mergeButton.disabled = false;
      mergeButton.focus();
    });
  }

  function open(otherID) {
    document.getElementById("merge-title").textContent = "Merge with another contact";
    showPick();
    if (!dialog.open) dialog.showModal();
    if (otherID) {
      compare(otherID).catch(function (error) {
        pickError.textContent = error.kind === "notFound" ? "That contact was not found; choose another." : error.message;
        pickError.hidden = false;
      });
    } else {
      picker.input.focus();
    }
  }

  pickForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var chosen = picker.value();
    if (!chosen) {
      pickError.textContent = "Choose the other contact from the list first.";
      pickError.hidden = false;
      picker.input.focus();
      return;
    }
    compare(chosen).catch(function (error) {
      pickError.textContent = error.message;
      pickError.hidden = false;
    });
  });

  mergeButton.addEventListener("click", function () {
    mergeButton.disabled = true;
    mergeError.hidden = true;
    K.api("POST", "/api/contacts/" + encodeURIComponent(keptID) + "/merge", { contact_id: other.data.id },
      { ifMatch: kept.etag }).then(function (answer) {
      K.flash("Merged " + K.sentenceName(other.data) + " into " + K.sentenceName(answer.data) + ".");
      window.location.assign("/contacts/" + encodeURIComponent(keptID));
    }, function (error) {
      if (error.kind === "changed") {
        // Changed elsewhere since the comparison: show both as they are now and ask again.
        return compare(other.data.id).then(function () {
          mergeError.textContent = "It was changed elsewhere after you opened this; above is how it is now. Merge anyway?";
          mergeError.hidden = false;
        });
      }
      mergeButton.disabled = false;
      mergeError.textContent = error.message;
      mergeError.hidden = false;
    });
  });

  dialog.querySelectorAll(".merge-cancel").forEach(function (button) {
    button.addEventListener("click", function () { dialog.close(); });
  });

  window.KithMerge = {
    start: function (contactID) {
      keptID = contactID;
      document.getElementById("merge-contact").addEventListener("click", function () { open(null); });
      var asked = new URLSearchParams(window.location.search).get("merge");
      if (asked && /^\d+$/.test(asked) && asked !== String(contactID)) open(asked);
    }
  };
})();
