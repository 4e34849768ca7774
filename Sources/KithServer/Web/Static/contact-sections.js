// A contact's sections below its summary (seed 004): email, phone and more; relationships; tags;
// activities; notes; tasks; gifts; reminders. Each shows what /api has and is added to, edited
// and deleted through /api with KithEditor (contact-editor.js), which gives every section the
// same buttons, forms, refusals, confirmation and notices.
(function () {
  "use strict";

  var K = window.KithContacts;
  var Editor = window.KithEditor;
  var el = K.el;
  var ACTIVITIES_AT_ONCE = 10;

  function contactLink(contact) {
    return el("a", { href: "/contacts/" + contact.id, className: "contact-ref", text: K.contactName(contact) });
  }

  function byNewest(key) {
    return function (a, b) {
      var left = a[key] || "";
      var right = b[key] || "";
      if (left !== right) return left < right ? 1 : -1;
      return b.id - a.id;
    };
  }

  // "“Loves poetical science…”": enough of a text to recognise it in a sentence.
  function quoted(text) {
    var line = String(text || "").split("\n")[0].trim();
    return "“" + (line.length > 40 ? line.slice(0, 40).trim() + "…" : line) + "”";
  }

  function nullable(text) {
    return text === "" ? null : text;
  }

  // Options a form offers, read once per page from /api.
  var cached = {};
  function once(key, load) {
    if (!cached[key]) {
      cached[key] = load().catch(function (error) {
        delete cached[key];
        throw error;
      });
    }
    return cached[key];
  }

  // A new item or a change to one: POST to the list, PUT to the item (options: the version the
  // change is made against).
  function send(path, item, body, options) {
    return item ? K.api("PUT", path + "/" + item.id, body, options) : K.api("POST", path, body);
  }

  // Where an item of the list at `path` ("/api/notes") is read, changed and deleted.
  function itemPath(path) {
    return function (item) { return path + "/" + item.id; };
  }

  // A deletion naming the version it was asked about.
  function removal(path) {
    return function (item, options) { return K.api("DELETE", path + "/" + item.id, undefined, options); };
  }

  function start(contact) {
    var base = "/api/contacts/" + contact.id;
    var name = K.sentenceName(contact);
    function common(config) {
      config.contactID = function () { return contact.id; };
      return Editor.section(config);
    }

    // ---- Email, phone and more ---------------------------------------------------------------

    function fieldValue(field) {
      var type = (field.contact_field_type && field.contact_field_type.type) || "";
      var data = field.content || "";
      if (type === "email") return el("a", { href: "mailto:" + data.trim(), className: "field-value", text: data });
      if (type === "phone") {
        return el("a", { href: "tel:" + data.replace(/[^0-9+*#,;]/g, ""), className: "field-value", text: data });
      }
      return el("span", { className: "field-value", text: data });
    }

    function fieldTypeName(field) {
      return (field.contact_field_type && field.contact_field_type.name) || "Other";
    }

    common({
      name: "contact-info", noun: "contact detail", addLabel: "Add email, phone…",
      fields: [
        { name: "contact_field_type_id", apiName: "contact field type id", label: "Type", type: "select",
          options: function () {
            return once("fieldTypes", function () { return K.allPages("/api/contactfieldtypes"); }).then(function (types) {
              return types.map(function (type) { return { value: type.id, label: type.name }; });
            });
          } },
        { name: "data", label: "Value", spoken: "value", maxlength: 255, hint: "An address, a number, a user name…" }
      ],
      load: function () { return K.allPages(base + "/contactfields"); },
      empty: "No email, phone or other contact information",
      show: function (body, fields, actions) {
        fields.sort(function (a, b) { return a.id - b.id; });
        body.appendChild(el("ul", { className: "field-list", id: "contact-field-list" }, fields.map(function (field) {
          return el("li", { className: "field-item", "data-id": field.id }, [
            el("span", { className: "field-label", text: fieldTypeName(field) }), fieldValue(field), actions(field)
          ]);
        })));
      },
      prefill: function (field) {
        return field ? { contact_field_type_id: field.contact_field_type && field.contact_field_type.id, data: field.content }
          : {};
      },
      path: itemPath("/api/contactfields"),
      save: function (values, field, options) {
        return send("/api/contactfields", field, {
          contact_id: contact.id, contact_field_type_id: values.contact_field_type_id ? Number(values.contact_field_type_id) : null,
          data: values.data
        }, options);
      },
      remove: removal("/api/contactfields"),
      describe: function (field) { return "the " + fieldTypeName(field) + " " + quoted(field.content); }
    });

    // The value's keyboard follows its type: on a phone, an email brings up the keyboard with @
    // and a phone number the number pad (Monica's types say which: "email", "phone").
    function keyboardForType(event) {
      var form = event.target.closest && event.target.closest("#contact-info-form");
      if (!form) return;
      var select = form.querySelector("#contact-info-field-contact_field_type_id");
      var value = form.querySelector("#contact-info-field-data");
      if (!select || !value) return;
      once("fieldTypes", function () { return K.allPages("/api/contactfieldtypes"); }).then(function (types) {
        var chosen = types.find(function (type) { return String(type.id) === select.value; });
        var kind = chosen && chosen.type;
        value.type = kind === "email" ? "email" : kind === "phone" ? "tel" : "text";
      }, function () { /* the type list could not be read: a plain keyboard */ });
    }
    document.addEventListener("change", keyboardForType);
    document.addEventListener("focusin", keyboardForType);

    // ---- Relationships -------------------------------------------------------------------------

    // Monica's 27 default relationship types are keys; what the other contact is to this one.
    var RELATIONSHIP_NAMES = {
      partner: "Partner", spouse: "Spouse", date: "Date", lover: "Lover", inlovewith: "In love with",
      lovedby: "Loved by", ex: "Ex", ex_husband: "Ex-husband", parent: "Parent", child: "Child",
      sibling: "Sibling", grandparent: "Grandparent", grandchild: "Grandchild", uncle: "Uncle or aunt",
      nephew: "Nephew or niece", cousin: "Cousin", godfather: "Godparent", godson: "Godchild",
      stepparent: "Stepparent", stepchild: "Stepchild", friend: "Friend", bestfriend: "Best friend",
      colleague: "Colleague", boss: "Boss", subordinate: "Subordinate", mentor: "Mentor", protege: "Protégé"
    };
    var GROUP_NAMES = { love: "Love", family: "Family", friend: "Friends", work: "Work" };

    function relationshipName(type) {
      var key = (type && type.name) || "related";
      if (RELATIONSHIP_NAMES[key]) return RELATIONSHIP_NAMES[key];
      var words = key.replace(/_/g, " ");
      return words.charAt(0).toUpperCase() + words.slice(1);
    }

    common({
      name: "relationships", noun: "relationship",
      fields: [
        { name: "of_contact", apiName: "of contact", label: "Who", type: "contact", lockedWhenEditing: true },
        { name: "relationship_type_id", apiName: "relationship type id", label: "Is " + name + "'s", type: "select",
          options: function () {
            return once("relationshipTypes", function () {
              return Promise.all([K.allPages("/api/relationshiptypes"), K.allPages("/api/relationshiptypegroups")]);
            }).then(function (answers) {
              var groups = {};
              answers[1].forEach(function (group) { groups[group.id] = GROUP_NAMES[group.name] || group.name; });
              return answers[0].map(function (type) {
                return { value: type.id, label: relationshipName(type), group: groups[type.relationship_type_group_id] };
              });
            });
          } }
      ],
      load: function () {
        return K.api("GET", base + "/relationships").then(function (answer) {
          return (answer.data || []).filter(function (relationship) { return relationship.of_contact; });
        });
      },
      empty: "No relationships",
      show: function (body, relationships, actions) {
        var groups = [];
        var byName = {};
        relationships.forEach(function (relationship) {
          var title = relationshipName(relationship.relationship_type);
          if (!byName[title]) {
            byName[title] = [];
            groups.push(title);
          }
          byName[title].push(relationship);
        });
        body.appendChild(el("dl", { className: "relationship-list" }, groups.map(function (title) {
          return el("div", { className: "relationship-group" }, [
            el("dt", { text: title }),
            el("dd", {}, [el("ul", { className: "relationship-people" }, byName[title].map(function (relationship) {
              return el("li", { className: "relationship", "data-id": relationship.id }, [
                contactLink(relationship.of_contact), actions(relationship)
              ]);
            }))])
          ]);
        })));
      },
      prefill: function (relationship) {
        return relationship ? {
          of_contact: relationship.of_contact,
          relationship_type_id: relationship.relationship_type && relationship.relationship_type.id
        } : {};
      },
      path: itemPath("/api/relationships"),
      save: function (values, relationship, options) {
        if (relationship) {
          return K.api("PUT", "/api/relationships/" + relationship.id, {
            relationship_type_id: Number(values.relationship_type_id)
          }, options);
        }
        return K.api("POST", "/api/relationships", {
          contact_is: contact.id, of_contact: values.of_contact, relationship_type_id: Number(values.relationship_type_id)
        });
      },
      remove: removal("/api/relationships"),
      describe: function (relationship) {
        return "the relationship with " + K.sentenceName(relationship.of_contact);
      },
      consequence: function (relationship) {
        return "Neither " + name + " nor " + K.sentenceName(relationship.of_contact) + " is deleted, only how they are related.";
      }
    });

    // ---- Tags ----------------------------------------------------------------------------------

    var suggestions = el("datalist", { id: "tag-suggestions" });
    document.getElementById("tags").appendChild(suggestions);
    function suggest() {
      K.allPages("/api/tags").then(function (tags) {
        K.clear(suggestions);
        tags.forEach(function (tag) { suggestions.appendChild(el("option", { value: tag.name })); });
      }, function () { /* typing a new tag still works */ });
    }

    common({
      name: "tags", noun: "tag", editable: false, removeLabel: "Remove", removedWord: "Removed",
      fields: [
        { name: "tags", label: "Tag", maxlength: 255, list: "tag-suggestions",
          hint: "Choose one you use already, or type a new one." }
      ],
      load: function () {
        suggest();
        return K.api("GET", base).then(function (answer) { return answer.data.tags || []; });
      },
      empty: "No tags",
      show: function (body, tags, actions) {
        tags.sort(function (a, b) { return a.name.localeCompare(b.name); });
        body.appendChild(el("ul", { className: "tag-list" }, tags.map(function (tag) {
          return el("li", { className: "tag-item" }, [
            el("span", { className: "badge tag " + K.hueClass(tag.name), text: tag.name }), actions(tag)
          ]);
        })));
      },
      prefill: function () { return {}; },
      save: function (values) {
        return K.api("POST", base + "/setTags", { tags: values.tags ? [values.tags] : [] }).then(function () {
          return { data: { name: values.tags } };
        });
      },
      remove: function (tag) { return K.api("POST", base + "/unsetTag", { tags: [tag.id] }); },
      describe: function (tag) { return "the tag " + quoted(tag.name); },
      consequence: function () { return "The tag stays for your other contacts."; }
    });

    // ---- Activities ----------------------------------------------------------------------------

    function activityItem(activity, actions) {
      var others = ((activity.attendees && activity.attendees.contacts) || []).filter(function (other) {
        return other.id !== contact.id;
      });
      var meta = [];
      if (activity.activity_type && activity.activity_type.name) meta.push(activity.activity_type.name);
      var metaLine = el("p", { className: "item-meta" }, meta.length ? [meta.join(" · ")] : []);
      if (others.length) {
        if (meta.length) metaLine.appendChild(document.createTextNode(" · "));
        metaLine.appendChild(document.createTextNode("with "));
        others.forEach(function (other, index) {
          if (index) metaLine.appendChild(document.createTextNode(", "));
          metaLine.appendChild(contactLink(other));
        });
      }
      return el("li", { className: "item activity", "data-id": activity.id }, [
        el("div", { className: "item-head" }, [
          el("span", { className: "item-title", text: activity.summary || "Activity" }),
          K.timeElement(activity.happened_at, "day"), actions(activity)
        ]),
        meta.length || others.length ? metaLine : null,
        activity.description ? el("p", { className: "item-text", text: activity.description }) : null
      ]);
    }

    common({
      name: "activities", noun: "activity",
      fields: [
        { name: "summary", label: "What you did", maxlength: 255, wide: true },
        { name: "happened_at", apiName: "happened at", label: "When", type: "date" },
        { name: "activity_type_id", apiName: "activity type id", label: "Kind", type: "select", optional: true,
          options: function () {
            return once("activityTypes", function () { return K.allPages("/api/activitytypes"); }).then(function (types) {
              return [{ value: "", label: "—" }].concat(types.map(function (type) {
                return { value: type.id, label: type.name,
                  group: type.activity_type_category && type.activity_type_category.name };
              }));
            });
          } },
        { name: "description", label: "Notes", type: "textarea", optional: true, wide: true }
      ],
      // Monica sorts lists by creation or update only: the page reads them all and shows the
      // newest by date first, ten at a time.
      load: function () { return K.allPages(base + "/activities"); },
      empty: "No activities",
      show: function (body, activities, actions) {
        activities.sort(byNewest("happened_at"));
        var list = el("ul", { className: "item-list", id: "activity-list" });
        var more = el("button", { type: "button", className: "btn btn-secondary btn-small load-more", id: "activities-more",
          text: "Load more" });
        var shown = 0;
        function showMore() {
          activities.slice(shown, shown + ACTIVITIES_AT_ONCE).forEach(function (activity) {
            list.appendChild(activityItem(activity, actions));
          });
          shown = Math.min(activities.length, shown + ACTIVITIES_AT_ONCE);
          more.hidden = shown >= activities.length;
          more.textContent = "Load more (" + (activities.length - shown) + " more)";
        }
        more.addEventListener("click", showMore);
        body.appendChild(list);
        body.appendChild(more);
        showMore();
      },
      prefill: function (activity) {
        if (!activity) return { happened_at: K.isoDay(new Date()), activity_type_id: "" };
        return { summary: activity.summary, happened_at: (activity.happened_at || "").slice(0, 10),
          activity_type_id: activity.activity_type ? activity.activity_type.id : "", description: activity.description };
      },
      path: itemPath("/api/activities"),
      save: function (values, activity, options) {
        // Who was there stays as it was; a new activity is with this contact.
        var attendees = activity ? ((activity.attendees && activity.attendees.contacts) || []).map(function (other) {
          return other.id;
        }) : [contact.id];
        return send("/api/activities", activity, {
          summary: values.summary, happened_at: values.happened_at, description: nullable(values.description),
          activity_type_id: values.activity_type_id ? Number(values.activity_type_id) : null, contacts: attendees
        }, options);
      },
      remove: removal("/api/activities"),
      describe: function (activity) { return "the activity " + quoted(activity.summary); },
      consequence: function (activity) {
        var count = ((activity.attendees && activity.attendees.contacts) || []).length;
        return count > 1 ? "It is deleted for everyone who was there, on every device." : "It will be removed on every device.";
      }
    });

    // ---- Notes ---------------------------------------------------------------------------------

    common({
      name: "notes", noun: "note",
      fields: [
        { name: "body", label: "Note", type: "textarea", rows: 4, wide: true },
        { name: "is_favorited", label: "Favorite: keep it at the top", type: "checkbox", wide: true }
      ],
      load: function () { return K.allPages(base + "/notes"); },
      empty: "No notes",
      show: function (body, notes, actions) {
        notes.sort(function (a, b) {
          if (!!a.is_favorited !== !!b.is_favorited) return a.is_favorited ? -1 : 1;
          return byNewest("created_at")(a, b);
        });
        body.appendChild(el("ul", { className: "item-list", id: "note-list" }, notes.map(function (note) {
          return el("li", { className: "item note" + (note.is_favorited ? " is-favorite" : ""), "data-id": note.id }, [
            el("div", { className: "item-head" }, [
              note.is_favorited ? el("span", { className: "favorite", title: "Favorite" }, [
                el("span", { "aria-hidden": "true", text: "★ " }), el("span", { text: "Favorite" })
              ]) : null,
              K.timeElement(note.created_at), actions(note)
            ]),
            el("p", { className: "item-text note-body", text: note.body || "" })
          ]);
        })));
      },
      prefill: function (note) { return note ? { body: note.body, is_favorited: note.is_favorited } : {}; },
      path: itemPath("/api/notes"),
      save: function (values, note, options) {
        return send("/api/notes", note, { contact_id: contact.id, body: values.body, is_favorited: values.is_favorited },
          options);
      },
      remove: removal("/api/notes"),
      describe: function (note) { return "the note " + quoted(note.body); }
    });

    // ---- Tasks ---------------------------------------------------------------------------------

    function taskBody(values) {
      return { contact_id: contact.id, title: values.title, description: nullable(values.description),
        completed: !!values.completed };
    }

    // Mark done and Reopen change only whether the task is done, on the task as it is now: a
    // title changed elsewhere meanwhile is kept.
    function toggleTask(task) {
      var path = "/api/tasks/" + task.id;
      function current() {
        return K.api("GET", path).then(function (answer) {
          return { values: { completed: !!answer.data.completed }, etag: answer.etag, latest: answer.data };
        });
      }
      return current().then(function (loaded) {
        return K.saveOnTop({
          base: loaded.values, etag: loaded.etag, latest: loaded.latest, mine: { completed: !task.completed },
          reload: current,
          send: function (values, etag, latest) {
            return K.api("PUT", path, taskBody({ title: latest.title, description: latest.description || "",
              completed: values.completed }), { ifMatch: etag });
          }
        });
      });
    }

    var tasks = common({
      name: "tasks", noun: "task",
      fields: [
        { name: "title", label: "Task", maxlength: 255, wide: true },
        { name: "description", label: "Details", type: "textarea", optional: true, wide: true },
        { name: "completed", label: "Done", type: "checkbox", onlyWhenEditing: true }
      ],
      load: function () { return K.allPages(base + "/tasks"); },
      empty: "No tasks",
      show: function (body, list, actions) {
        var open = list.filter(function (task) { return !task.completed; }).sort(byNewest("created_at"));
        var done = list.filter(function (task) { return task.completed; }).sort(byNewest("completed_at"));
        body.appendChild(el("ul", { className: "item-list", id: "task-list" }, open.concat(done).map(function (task) {
          var when = task.completed
            ? el("span", { className: "item-when" }, ["Done ", K.timeElement(task.completed_at || task.updated_at)])
            : el("span", { className: "item-when" }, ["Added ", K.timeElement(task.created_at)]);
          var toggle = el("button", { type: "button", className: "btn btn-secondary btn-small task-toggle",
            text: task.completed ? "Reopen" : "Mark done",
            "aria-label": (task.completed ? "Reopen the task " : "Mark done the task ") + quoted(task.title) });
          toggle.addEventListener("click", function () {
            toggle.disabled = true;
            toggleTask(task).then(function () {
              K.notify(tasks.notice, (task.completed ? "Reopened" : "Done:") + " the task " + quoted(task.title) + ".");
              tasks.reload();
            }, function (error) {
              toggle.disabled = false;
              K.notify(tasks.notice, error.message);
            });
          });
          var buttons = actions(task) || el("span", { className: "item-actions" });
          buttons.insertBefore(toggle, buttons.firstChild);
          return el("li", { className: "item task" + (task.completed ? " is-done" : ""), "data-id": task.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "task-state", text: task.completed ? "Done" : "Open" }),
              el("span", { className: "item-title", text: task.title || "Task" }),
              when, buttons
            ]),
            task.description ? el("p", { className: "item-text", text: task.description }) : null
          ]);
        })));
      },
      prefill: function (task) {
        return task ? { title: task.title, description: task.description, completed: task.completed } : {};
      },
      path: itemPath("/api/tasks"),
      save: function (values, task, options) { return send("/api/tasks", task, taskBody(values), options); },
      remove: removal("/api/tasks"),
      describe: function (task) { return "the task " + quoted(task.title); }
    });

    // ---- Gifts ---------------------------------------------------------------------------------

    var GIFT_STATUS = { idea: "Idea", offered: "Offered", received: "Received" };

    common({
      name: "gifts", noun: "gift",
      fields: [
        { name: "name", label: "Gift", maxlength: 255, wide: true },
        { name: "status", label: "Status", type: "select", options: [
          { value: "idea", label: "Idea" }, { value: "offered", label: "Offered" }, { value: "received", label: "Received" }
        ] },
        { name: "amount", label: "Value", spoken: "value", type: "number", step: "0.01", min: "0", optional: true,
          hint: "In the account's currency" },
        { name: "date", label: "Date", type: "date", optional: true },
        { name: "url", label: "Link", spoken: "link", type: "url", optional: true, placeholder: "https://" },
        { name: "comment", label: "Comment", type: "textarea", optional: true, wide: true }
      ],
      load: function () { return K.allPages(base + "/gifts"); },
      empty: "No gifts",
      show: function (body, gifts, actions) {
        gifts.sort(byNewest("created_at"));
        body.appendChild(el("ul", { className: "item-list", id: "gift-list" }, gifts.map(function (gift) {
          var title = /^https?:\/\//i.test(gift.url || "")
            ? el("a", { href: gift.url, rel: "noopener noreferrer", className: "item-title", text: gift.name })
            : el("span", { className: "item-title", text: gift.name });
          return el("li", { className: "item gift", "data-id": gift.id }, [
            el("div", { className: "item-head" }, [
              title,
              el("span", { className: "badge gift-status gift-" + gift.status, text: GIFT_STATUS[gift.status] || gift.status }),
              gift.amount_with_currency ? el("span", { className: "gift-value", text: gift.amount_with_currency }) : null,
              gift.date ? K.timeElement(gift.date, "day") : null,
              actions(gift)
            ]),
            gift.comment ? el("p", { className: "item-text", text: gift.comment }) : null
          ]);
        })));
      },
      prefill: function (gift) {
        if (!gift) return { status: "idea" };
        return { name: gift.name, status: gift.status, amount: gift.amount, date: (gift.date || "").slice(0, 10),
          url: gift.url, comment: gift.comment };
      },
      path: itemPath("/api/gifts"),
      save: function (values, gift, options) {
        return send("/api/gifts", gift, {
          contact_id: contact.id, name: values.name, status: values.status, amount: nullable(values.amount),
          date: nullable(values.date), url: nullable(values.url), comment: nullable(values.comment)
        }, options);
      },
      remove: removal("/api/gifts"),
      describe: function (gift) { return "the gift " + quoted(gift.name); }
    });
    // The value is in the account's currency (Monica's user has one): the form says which.
    once("me", function () { return K.api("GET", "/api/me"); }).then(function (answer) {
      var currency = answer.data && answer.data.currency;
      var hint = document.getElementById("gifts-field-amount-hint");
      if (currency && currency.iso && hint) {
        hint.textContent = "In " + currency.iso + (currency.symbol ? " (" + currency.symbol + ")" : "");
      }
    }, function () { /* the generic hint stays */ });

    // ---- Reminders -----------------------------------------------------------------------------

    function addToDay(day, unit, count) {
      if (unit === "week") return K.makeDay(day.getFullYear(), day.getMonth(), day.getDate() + 7 * count);
      var months = unit === "year" ? 12 * count : count;
      var first = K.makeDay(day.getFullYear(), day.getMonth() + months, 1);
      // The 31st falls on shorter months' last day, as the server's upcoming reminders do.
      var last = K.makeDay(first.getFullYear(), first.getMonth() + 1, 0).getDate();
      return K.makeDay(first.getFullYear(), first.getMonth(), Math.min(day.getDate(), last));
    }

    // The reminder's next day from today on; null for a one-time reminder already past.
    function nextReminderDay(reminder) {
      var startDay = K.parseDay(reminder.initial_date);
      if (!startDay) return null;
      var today = K.startOfToday();
      if (["week", "month", "year"].indexOf(reminder.frequency_type) === -1) return startDay >= today ? startDay : null;
      var every = Math.max(1, reminder.frequency_number || 1);
      for (var step = 0; step < 100000; step += 1) {
        var day = addToDay(startDay, reminder.frequency_type, step * every);
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

    common({
      name: "reminders", noun: "reminder",
      fields: [
        { name: "title", label: "Remind me to", maxlength: 1000, wide: true },
        { name: "initial_date", apiName: "initial date", label: "On", type: "date" },
        { name: "frequency_type", apiName: "frequency type", label: "Repeat", type: "select", options: [
          { value: "one_time", label: "Once" }, { value: "week", label: "Weekly" }, { value: "month", label: "Monthly" },
          { value: "year", label: "Yearly" }
        ] },
        { name: "frequency_number", apiName: "frequency number", label: "Every", type: "number", min: "1", max: "1000",
          step: "1", hint: "1: every week, month or year; 2: every other one…" },
        { name: "description", label: "Details", type: "textarea", optional: true, wide: true }
      ],
      load: function () { return K.allPages(base + "/reminders"); },
      empty: "No reminders",
      show: function (body, reminders, actions) {
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
          return el("li", { className: "item reminder", "data-id": reminder.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "item-title", text: reminder.title || "Reminder" }), when, actions(reminder)
            ]),
            el("p", { className: "item-meta" }, [
              frequencyText(reminder) + " · from ", K.timeElement(reminder.initial_date, "day") || "",
              reminder.delible === false ? " · from the contact's dates: edit the contact to change it" : ""
            ]),
            reminder.description ? el("p", { className: "item-text", text: reminder.description }) : null
          ]);
        })));
      },
      prefill: function (reminder) {
        if (!reminder) return { initial_date: K.isoDay(new Date()), frequency_type: "one_time", frequency_number: 1 };
        return { title: reminder.title, initial_date: (reminder.initial_date || "").slice(0, 10),
          frequency_type: reminder.frequency_type, frequency_number: reminder.frequency_number || 1,
          description: reminder.description };
      },
      path: itemPath("/api/reminders"),
      save: function (values, reminder, options) {
        return send("/api/reminders", reminder, {
          contact_id: contact.id, title: values.title, description: nullable(values.description),
          initial_date: values.initial_date, frequency_type: values.frequency_type,
          frequency_number: values.frequency_number === "" ? null : values.frequency_number
        }, options);
      },
      remove: removal("/api/reminders"),
      describe: function (reminder) { return "the reminder " + quoted(reminder.title); },
      // Birthday and death anniversary reminders follow the contact's dates (Monica keeps them).
      canChange: function (reminder) { return reminder.delible !== false; }
    });
  }

  window.KithSections = { start: start };
})();
