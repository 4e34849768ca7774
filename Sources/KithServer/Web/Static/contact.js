// A contact's page (/contacts/{id}): the contact from /api/contacts/{id}?with=contactfields, then
// each section from its own /api list, each with its own loading, empty and error states.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;
  var page = document.getElementById("contact-page");
  if (!page) return;
  var contactID = page.getAttribute("data-contact-id");
  var status = document.getElementById("contact-status");
  var details = document.getElementById("contact-details");
  var ACTIVITIES_AT_ONCE = 10;

  function emptyNote(text) {
    return el("p", { className: "empty-note", text: text });
  }

  function contactLink(contact) {
    return el("a", { href: "/contacts/" + contact.id, className: "contact-ref", text: contact.complete_name || "(no name)" });
  }

  // Loads one section: `fetch` resolves with what `render` shows in the section's body.
  function section(name, fetch, render) {
    var body = document.getElementById(name + "-body");
    function run() {
      K.clear(body);
      body.appendChild(K.loading());
      fetch().then(function (items) {
        K.clear(body);
        render(body, items);
      }, function (error) {
        K.clear(body);
        body.appendChild(K.errorBox(error, run));
      });
    }
    run();
  }

  function byNewest(key) {
    return function (a, b) {
      var left = a[key] || "";
      var right = b[key] || "";
      if (left !== right) return left < right ? 1 : -1;
      return b.id - a.id;
    };
  }

  // ---- The summary -------------------------------------------------------------------------------

  function fact(list, term, children) {
    list.appendChild(el("div", { className: "fact" }, [el("dt", { text: term }), el("dd", {}, children)]));
  }

  function nextAnniversary(day) {
    var today = K.startOfToday();
    var next = new Date(today.getFullYear(), day.getMonth(), day.getDate());
    if (next < today) next = new Date(today.getFullYear() + 1, day.getMonth(), day.getDate());
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

  function showSummary(contact) {
    var name = contact.complete_name || "(no name)";
    document.title = name + " · Kith";
    document.getElementById("contact-name").textContent = name;
    var initials = document.getElementById("contact-initials");
    initials.textContent = contact.initials || "?";
    initials.className = "avatar avatar-large " + K.hueClass(name);
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
      fact(facts, "Deceased", died ? [K.timeElement(died, "day")] : ["Yes"]);
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
    if (contact.last_called) fact(facts, "Last called", [K.timeElement(contact.last_called)]);
  }

  // ---- Email, phone and more ---------------------------------------------------------------------

  function fieldValue(field) {
    var type = (field.contact_field_type && field.contact_field_type.type) || "";
    var data = field.content || "";
    if (type === "email") return el("a", { href: "mailto:" + data.trim(), className: "field-value", text: data });
    if (type === "phone") {
      return el("a", { href: "tel:" + data.replace(/[^0-9+*#,;]/g, ""), className: "field-value", text: data });
    }
    return el("span", { className: "field-value", text: data });
  }

  function showContactFields(contact) {
    var body = document.getElementById("contact-info-body");
    K.clear(body);
    var fields = contact.contactFields || [];
    if (!fields.length) {
      body.appendChild(emptyNote("No email, phone or other contact information"));
      return;
    }
    body.appendChild(el("ul", { className: "field-list" }, fields.map(function (field) {
      var label = (field.contact_field_type && field.contact_field_type.name) || "Other";
      return el("li", { className: "field-item" }, [el("span", { className: "field-label", text: label }), fieldValue(field)]);
    })));
  }

  // ---- Tags --------------------------------------------------------------------------------------

  function showTags(tags) {
    var body = document.getElementById("tags-body");
    K.clear(body);
    if (!tags || !tags.length) {
      body.appendChild(emptyNote("No tags"));
      return;
    }
    body.appendChild(el("ul", { className: "tag-list" }, tags.map(function (tag) {
      return el("li", { className: "badge tag " + K.hueClass(tag.name), text: tag.name });
    })));
  }

  // ---- Relationships -----------------------------------------------------------------------------

  // Monica's 27 default relationship types are keys; what the other contact is to this one.
  var RELATIONSHIP_NAMES = {
    partner: "Partner", spouse: "Spouse", date: "Date", lover: "Lover", inlovewith: "In love with",
    lovedby: "Loved by", ex: "Ex", ex_husband: "Ex-husband", parent: "Parent", child: "Child",
    sibling: "Sibling", grandparent: "Grandparent", grandchild: "Grandchild", uncle: "Uncle or aunt",
    nephew: "Nephew or niece", cousin: "Cousin", godfather: "Godparent", godson: "Godchild",
    stepparent: "Stepparent", stepchild: "Stepchild", friend: "Friend", bestfriend: "Best friend",
    colleague: "Colleague", boss: "Boss", subordinate: "Subordinate", mentor: "Mentor", protege: "Protégé"
  };

  function relationshipName(type) {
    var name = (type && type.name) || "related";
    if (RELATIONSHIP_NAMES[name]) return RELATIONSHIP_NAMES[name];
    var words = name.replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function showRelationships(body, relationships) {
    var groups = [];
    var byName = {};
    relationships.forEach(function (relationship) {
      if (!relationship.of_contact) return;
      var name = relationshipName(relationship.relationship_type);
      if (!byName[name]) {
        byName[name] = [];
        groups.push(name);
      }
      byName[name].push(relationship.of_contact);
    });
    if (!groups.length) {
      body.appendChild(emptyNote("No relationships"));
      return;
    }
    body.appendChild(el("dl", { className: "relationship-list" }, groups.map(function (name) {
      return el("div", { className: "relationship-group" }, [
        el("dt", { text: name }),
        el("dd", {}, [el("ul", { className: "inline-list" }, byName[name].map(function (contact) {
          return el("li", {}, [contactLink(contact)]);
        }))])
      ]);
    })));
  }

  // ---- Activities --------------------------------------------------------------------------------

  function activityItem(activity) {
    var others = ((activity.attendees && activity.attendees.contacts) || []).filter(function (contact) {
      return String(contact.id) !== contactID;
    });
    var meta = [];
    if (activity.activity_type && activity.activity_type.name) meta.push(activity.activity_type.name);
    var metaLine = el("p", { className: "item-meta" }, meta.length ? [meta.join(" · ")] : []);
    if (others.length) {
      if (meta.length) metaLine.appendChild(document.createTextNode(" · "));
      metaLine.appendChild(document.createTextNode("with "));
      others.forEach(function (contact, index) {
        if (index) metaLine.appendChild(document.createTextNode(", "));
        metaLine.appendChild(contactLink(contact));
      });
    }
    return el("li", { className: "item activity" }, [
      el("div", { className: "item-head" }, [
        el("span", { className: "item-title", text: activity.summary || "Activity" }),
        K.timeElement(activity.happened_at, "day")
      ]),
      meta.length || others.length ? metaLine : null,
      activity.description ? el("p", { className: "item-text", text: activity.description }) : null
    ]);
  }

  // Monica sorts lists by creation or update only, so the page reads them all and shows the
  // newest by date first, ten at a time.
  function showActivities(body, activities) {
    if (!activities.length) {
      body.appendChild(emptyNote("No activities"));
      return;
    }
    activities.sort(byNewest("happened_at"));
    var list = el("ul", { className: "item-list", id: "activity-list" });
    var more = el("button", { type: "button", className: "btn btn-secondary btn-small load-more", id: "activities-more", text: "Load more" });
    var shown = 0;
    function showMore() {
      activities.slice(shown, shown + ACTIVITIES_AT_ONCE).forEach(function (activity) {
        list.appendChild(activityItem(activity));
      });
      shown = Math.min(activities.length, shown + ACTIVITIES_AT_ONCE);
      more.hidden = shown >= activities.length;
      more.textContent = "Load more (" + (activities.length - shown) + " more)";
    }
    more.addEventListener("click", showMore);
    body.appendChild(list);
    body.appendChild(more);
    showMore();
  }

  // ---- Notes, tasks, gifts -----------------------------------------------------------------------

  function showNotes(body, notes) {
    if (!notes.length) {
      body.appendChild(emptyNote("No notes"));
      return;
    }
    notes.sort(byNewest("created_at"));
    body.appendChild(el("ul", { className: "item-list", id: "note-list" }, notes.map(function (note) {
      return el("li", { className: "item note" + (note.is_favorited ? " is-favorite" : "") }, [
        el("div", { className: "item-head" }, [
          note.is_favorited ? el("span", { className: "favorite", title: "Favorite" }, [
            el("span", { "aria-hidden": "true", text: "★ " }), el("span", { text: "Favorite" })
          ]) : null,
          K.timeElement(note.created_at)
        ]),
        el("p", { className: "item-text note-body", text: note.body || "" })
      ]);
    })));
  }

  function showTasks(body, tasks) {
    if (!tasks.length) {
      body.appendChild(emptyNote("No tasks"));
      return;
    }
    var open = tasks.filter(function (task) { return !task.completed; }).sort(byNewest("created_at"));
    var done = tasks.filter(function (task) { return task.completed; }).sort(byNewest("completed_at"));
    body.appendChild(el("ul", { className: "item-list", id: "task-list" }, open.concat(done).map(function (task) {
      var when = task.completed
        ? el("span", { className: "item-when" }, ["Done ", K.timeElement(task.completed_at || task.updated_at)])
        : el("span", { className: "item-when" }, ["Added ", K.timeElement(task.created_at)]);
      return el("li", { className: "item task" + (task.completed ? " is-done" : "") }, [
        el("div", { className: "item-head" }, [
          el("span", { className: "task-state", text: task.completed ? "Done" : "Open" }),
          el("span", { className: "item-title", text: task.title || "Task" }),
          when
        ]),
        task.description ? el("p", { className: "item-text", text: task.description }) : null
      ]);
    })));
  }

  var GIFT_STATUS = { idea: "Idea", offered: "Offered", received: "Received" };

  function showGifts(body, gifts) {
    if (!gifts.length) {
      body.appendChild(emptyNote("No gifts"));
      return;
    }
    gifts.sort(byNewest("created_at"));
    body.appendChild(el("ul", { className: "item-list", id: "gift-list" }, gifts.map(function (gift) {
      var name = /^https?:\/\//i.test(gift.url || "")
        ? el("a", { href: gift.url, rel: "noopener noreferrer", className: "item-title", text: gift.name })
        : el("span", { className: "item-title", text: gift.name });
      return el("li", { className: "item gift" }, [
        el("div", { className: "item-head" }, [
          name,
          el("span", { className: "badge gift-status gift-" + gift.status, text: GIFT_STATUS[gift.status] || gift.status }),
          gift.amount_with_currency ? el("span", { className: "gift-value", text: gift.amount_with_currency }) : null,
          gift.date ? K.timeElement(gift.date, "day") : null
        ]),
        gift.comment ? el("p", { className: "item-text", text: gift.comment }) : null
      ]);
    })));
  }

  // ---- Reminders ---------------------------------------------------------------------------------

  function addToDay(day, unit, count) {
    if (unit === "week") return new Date(day.getFullYear(), day.getMonth(), day.getDate() + 7 * count);
    var months = unit === "year" ? 12 * count : count;
    var first = new Date(day.getFullYear(), day.getMonth() + months, 1);
    // The 31st falls on shorter months' last day, as the server's upcoming reminders do.
    var last = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
    return new Date(first.getFullYear(), first.getMonth(), Math.min(day.getDate(), last));
  }

  // The reminder's next day from today on; null for a one-time reminder already past.
  function nextReminderDay(reminder) {
    var start = K.parseDay(reminder.initial_date);
    if (!start) return null;
    var today = K.startOfToday();
    if (["week", "month", "year"].indexOf(reminder.frequency_type) === -1) return start >= today ? start : null;
    var every = Math.max(1, reminder.frequency_number || 1);
    for (var step = 0; step < 100000; step += 1) {
      var day = addToDay(start, reminder.frequency_type, step * every);
      if (day >= today) return day;
    }
    return null;
  }

  function frequencyText(reminder) {
    var unit = reminder.frequency_type;
    if (["week", "month", "year"].indexOf(unit) === -1) return "Once";
    var every = Math.max(1, reminder.frequency_number || 1);
    return every === 1 ? "Every " + unit : "Every " + every + " " + unit + "s";
  }

  function showReminders(body, reminders) {
    if (!reminders.length) {
      body.appendChild(emptyNote("No reminders"));
      return;
    }
    var items = reminders.map(function (reminder) { return { reminder: reminder, next: nextReminderDay(reminder) }; });
    // Coming ones first, soonest first; past one-time reminders last.
    items.sort(function (a, b) {
      if (!a.next || !b.next) return a.next ? -1 : b.next ? 1 : 0;
      return a.next - b.next;
    });
    body.appendChild(el("ul", { className: "item-list", id: "reminder-list" }, items.map(function (item) {
      var reminder = item.reminder;
      var when = item.next
        ? el("span", { className: "item-when" }, ["Next ", K.timeElement(K.isoDay(item.next), "day")])
        : el("span", { className: "item-when" }, ["Was ", K.timeElement(reminder.initial_date, "day")]);
      return el("li", { className: "item reminder" }, [
        el("div", { className: "item-head" }, [el("span", { className: "item-title", text: reminder.title || "Reminder" }), when]),
        el("p", { className: "item-meta" }, [
          frequencyText(reminder) + " · from ", K.timeElement(reminder.initial_date, "day") || ""
        ]),
        reminder.description ? el("p", { className: "item-text", text: reminder.description }) : null
      ]);
    })));
  }

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
    var base = "/api/contacts/" + encodeURIComponent(contactID);
    K.api("GET", base + "?with=contactfields").then(function (answer) {
      K.clear(status);
      var contact = answer.data;
      showSummary(contact);
      showContactFields(contact);
      showTags(contact.tags);
      details.hidden = false;
      window.KithAddresses.start(contact);
      section("relationships", function () {
        return K.api("GET", base + "/relationships").then(function (answer) { return answer.data || []; });
      }, showRelationships);
      section("activities", function () { return K.allPages(base + "/activities"); }, showActivities);
      section("notes", function () { return K.allPages(base + "/notes"); }, showNotes);
      section("tasks", function () { return K.allPages(base + "/tasks"); }, showTasks);
      section("gifts", function () { return K.allPages(base + "/gifts"); }, showGifts);
      section("reminders", function () { return K.allPages(base + "/reminders"); }, showReminders);
    }, function (error) {
      K.clear(status);
      if (error.kind === "notFound") notFound();
      else status.appendChild(K.errorBox(error, loadContact));
    });
  }

  loadContact();
})();
