// A contact's sections below its summary: photos; email, phone and more;
// relationships; tags; activities; calls; conversations and their messages; notes; tasks; gifts;
// debts; reminders; life events; pets. Each shows what /api has and is added to, edited and
// deleted through /api with KithEditor (contact-editor.js), which gives every section the same
// buttons, forms, refusals, confirmation and notices.
(function () {
  "use strict";

  var K = window.KithContacts;
  var Editor = window.KithEditor;
  var el = K.el;
  var AT_ONCE = 10;

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

  function byOldest(key) {
    var newest = byNewest(key);
    return function (a, b) { return newest(b, a); };
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

  // Changes only `mine` ({name: value}) of the item at `path`, on the item as it is now (Mark
  // done, Mark settled): what someone else changed meanwhile is kept. valuesOf(item) gives the
  // values compared, bodyOf(values, item) the PUT's body.
  function changeOnTop(path, valuesOf, mine, bodyOf) {
    function current() {
      return K.api("GET", path).then(function (answer) {
        return { values: valuesOf(answer.data), etag: answer.etag, latest: answer.data };
      });
    }
    return current().then(function (loaded) {
      return K.saveOnTop({
        base: loaded.values, etag: loaded.etag, latest: loaded.latest, mine: mine, reload: current,
        send: function (values, etag, latest) { return K.api("PUT", path, bodyOf(values, latest), { ifMatch: etag }); }
      });
    });
  }

  // A long list (activities, calls) `AT_ONCE` items at a time, with "Load more (N more)".
  function inPages(body, listID, moreID, items, draw) {
    var list = el("ul", { className: "item-list", id: listID });
    var more = el("button", { type: "button", className: "btn btn-secondary btn-small load-more", id: moreID,
      text: "Load more" });
    var shown = 0;
    function showMore() {
      items.slice(shown, shown + AT_ONCE).forEach(function (item) { list.appendChild(draw(item)); });
      shown = Math.min(items.length, shown + AT_ONCE);
      more.hidden = shown >= items.length;
      more.textContent = "Load more (" + (items.length - shown) + " more)";
    }
    more.addEventListener("click", showMore);
    body.appendChild(list);
    body.appendChild(more);
    showMore();
  }

  // ---- A day, with a time of day or without ------------------------------------------------------

  // Calls, conversations and messages happen on a day, at a time when the person gives one. A
  // day alone is sent as it is ("2025-03-12"), which the API keeps as that day's midnight UTC,
  // as Monica's own pages do, and such a moment is shown as the day (K.isDayAlone); with a
  // time, the moment in the reader's time zone is sent in UTC. Nothing given is null, which the
  // API refuses.
  function momentOf(day, time) {
    if (!day) return null;
    var date = K.parseDay(day);
    var clock = /^(\d{2}):(\d{2})/.exec(time || "");
    if (!clock || !date) return day;
    date.setHours(Number(clock[1]), Number(clock[2]), 0, 0);
    return date.toISOString();
  }

  function padded(number) {
    return (number < 10 ? "0" : "") + number;
  }

  // A moment the API gave, as the form's two fields show it: {day, time} ("" for a day alone).
  function dayAndTime(text) {
    if (K.isDayAlone(text)) return { day: text.slice(0, 10), time: "" };
    var date = K.parseTime(text);
    if (!date) return { day: "", time: "" };
    return { day: K.isoDay(date), time: padded(date.getHours()) + ":" + padded(date.getMinutes()) };
  }

  // "12 Mar 2025", or "12 Mar 2025, 14:05": a moment in a sentence.
  function momentWords(text) {
    if (K.isDayAlone(text)) return K.dayFormat.format(K.parseDay(text));
    var date = K.parseTime(text);
    return date ? window.KithTime.moment(date) : "";
  }

  // summary: the page's summary (contact.js): show(answer) a contact an answer carried,
  // refresh() reads it again, current() the contact shown.
  function start(contact, summary) {
    var base = "/api/contacts/" + contact.id;
    var name = K.sentenceName(contact);
    // "You owe Ada", "Ada called you": the first name, as one speaks of a person one knows.
    var firstName = contact.first_name || name;
    function common(config) {
      config.contactID = function () { return contact.id; };
      return Editor.section(config);
    }

    // ---- Photos --------------------------------------------------------------------------------

    // The photo the contact's avatar shows, by its file's address (the avatar names no photo id).
    function isProfilePhoto(photo) {
      var avatar = (summary.current().information || {}).avatar || {};
      return avatar.source === "photo" && !!avatar.url && K.samePagePath(avatar.url) === K.samePagePath(photo.link);
    }

    // "Use as profile photo" and "Stop using as profile photo": the avatar names no version (it
    // changes only what the header shows, nothing a person typed), as tags do.
    function setAvatar(photo, button, use) {
      button.disabled = true;
      var choice = use ? { source: "photo", photo_id: photo.id } : { source: "default" };
      K.api("PUT", base + "/avatar", choice).then(function (answer) {
        summary.show(answer);
        K.notify(photos.notice, use
          ? K.sentenceCase(photos.describe(photo)) + " is now " + name + "'s profile photo."
          : "Stopped using " + photos.describe(photo) + " as " + name + "'s profile photo: the initials show instead.");
        return photos.reload();
      }, function (error) {
        button.disabled = false;
        if (error.kind === "notFound") {
          K.notify(photos.notice, K.sentenceCase(photos.describe(photo)) + " was deleted elsewhere.");
          photos.reload();
        } else {
          K.notify(photos.notice, error.message);
        }
      });
    }

    var photos = common({
      name: "photos", noun: "photo", addLabel: "Add photo", saveLabel: "Upload photo", editable: false,
      fields: [
        { name: "photo", label: "Photo", type: "file", accept: "image/*", wide: true,
          hint: "A JPEG, PNG, GIF, WebP, AVIF or BMP picture, up to 10 MB." }
      ],
      load: function () { return K.allPages(base + "/photos"); },
      empty: "No photos",
      show: function (body, list, actions) {
        list.sort(byNewest("created_at"));
        body.appendChild(el("ul", { className: "photo-grid", id: "photo-list" }, list.map(function (photo) {
          var path = K.samePagePath(photo.link);
          var profile = isProfilePhoto(photo);
          var use = el("button", { type: "button", className: "btn btn-secondary btn-small photo-avatar",
            text: profile ? "Use initials instead" : "Use as profile photo",
            "aria-label": profile ? "Use the initials instead of " + photos.describe(photo)
              : "Use " + photos.describe(photo) + " as profile photo" });
          use.addEventListener("click", function () { setAvatar(photo, use, !profile); });
          var buttons = actions(photo);
          buttons.insertBefore(use, buttons.firstChild);
          return el("li", { className: "photo" + (profile ? " is-profile" : ""), "data-id": photo.id }, [
            el("a", { href: path, className: "photo-link", title: "Open " + (photo.original_filename || "the photo") }, [
              el("img", { src: path, className: "photo-thumb", loading: "lazy",
                alt: "Photo of " + name + (photo.original_filename ? " (" + photo.original_filename + ")" : "") })
            ]),
            profile ? el("span", { className: "badge photo-badge", text: "Profile photo" }) : null,
            buttons
          ]);
        })));
      },
      prefill: function () { return {}; },
      path: itemPath("/api/photos"),
      // Sent as a form with the file (multipart/form-data), as Monica takes it; the server says
      // what is not a picture, by its bytes, whatever its name.
      save: function (values) {
        var form = new FormData();
        form.append("contact_id", String(contact.id));
        if (values.photo) form.append("photo", values.photo);
        return K.api("POST", "/api/photos", form, { timeout: 60000 });
      },
      remove: removal("/api/photos"),
      describe: function (photo) { return "the photo " + quoted(photo.original_filename || "photo"); },
      consequence: function (photo) {
        return isProfilePhoto(photo)
          ? "It is " + name + "'s profile photo: the initials show instead. It will be removed on every device."
          : "It will be removed on every device.";
      },
      // Deleting the profile photo brings the initials back.
      changed: function () { summary.refresh(); }
    });

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
        inPages(body, "activity-list", "activities-more", activities, function (activity) {
          return activityItem(activity, actions);
        });
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
      return changeOnTop("/api/tasks/" + task.id, function (latest) { return { completed: !!latest.completed }; },
        { completed: !task.completed }, function (values, latest) {
          return taskBody({ title: latest.title, description: latest.description || "", completed: values.completed });
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
    // A gift's value and a debt's amount are in the account's currency (Monica's user has one):
    // the forms say which.
    once("me", function () { return K.api("GET", "/api/me"); }).then(function (answer) {
      var currency = answer.data && answer.data.currency;
      ["gifts-field-amount-hint", "debts-field-amount-hint"].forEach(function (id) {
        var hint = document.getElementById(id);
        if (currency && currency.iso && hint) {
          hint.textContent = "In " + currency.iso + (currency.symbol ? " (" + currency.symbol + ")" : "");
        }
      });
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

    var reminders = common({
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

    // ---- Calls ---------------------------------------------------------------------------------

    common({
      name: "calls", noun: "call", addLabel: "Log a call", saveLabel: "Log call",
      fields: [
        { name: "called_day", apiName: "called at", spoken: "day", label: "Day", type: "date" },
        { name: "called_time", label: "Time", type: "time", optional: true },
        { name: "contact_called", label: "Who called", type: "select", options: [
          { value: "no", label: "You called " + firstName }, { value: "yes", label: firstName + " called you" }
        ] },
        { name: "content", label: "What was said", type: "textarea", optional: true, wide: true }
      ],
      // Read whole and shown newest first by when the call was, ten at a time (as activities).
      load: function () { return K.allPages(base + "/calls"); },
      empty: "No calls",
      show: function (body, calls, actions) {
        calls.sort(byNewest("called_at"));
        inPages(body, "call-list", "calls-more", calls, function (call) {
          return el("li", { className: "item call", "data-id": call.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "item-title", text: call.contact_called ? "They called" : "You called" }),
              K.momentElement(call.called_at), actions(call)
            ]),
            call.content ? el("p", { className: "item-text", text: call.content }) : null
          ]);
        });
      },
      prefill: function (call) {
        if (!call) return { called_day: K.isoDay(new Date()), called_time: "", contact_called: "no" };
        var when = dayAndTime(call.called_at);
        return { called_day: when.day, called_time: when.time, contact_called: call.contact_called ? "yes" : "no",
          content: call.content };
      },
      path: itemPath("/api/calls"),
      save: function (values, call, options) {
        return send("/api/calls", call, {
          contact_id: contact.id, called_at: momentOf(values.called_day, values.called_time),
          contact_called: values.contact_called === "yes", content: nullable(values.content)
        }, options);
      },
      remove: removal("/api/calls"),
      describe: function (call) { return "the call of " + momentWords(call.called_at); },
      // A call moves the summary's "Last called".
      changed: function () { summary.refresh(); }
    });

    // ---- Conversations and their messages ------------------------------------------------------

    function mediumOf(conversation) {
      return (conversation.contact_field_type && conversation.contact_field_type.name) || "Conversation";
    }

    var conversationsBody = document.getElementById("conversations-body");
    // The conversation just added: its message form opens once it is shown.
    var justAdded = null;

    // A message as the conversation holds it now; deleted meanwhile, a 404 as the API's.
    function messageNow(message) {
      return K.api("GET", "/api/conversations/" + message.conversation.id).then(function (answer) {
        var found = (answer.data.messages || []).filter(function (each) { return each.id === message.id; })[0];
        if (!found) throw K.errorOf(404);
        return found;
      });
    }

    function sameMessage(a, b) {
      return a.content === b.content && a.written_at === b.written_at && !!a.written_by_me === !!b.written_by_me &&
        a.updated_at === b.updated_at;
    }

    // The message routes give a page no version to send back (their answers are the whole
    // conversation, without the message's ETag, and a message has no route of its own), so the
    // message is read again just before it is changed or deleted, and one that is no longer as it
    // was read is treated as the API treats a stale version (412): asked again, never
    // overwritten unseen.
    function unchangedSince(message) {
      return messageNow(message).then(function (now) {
        if (!sameMessage(now, message)) {
          throw K.errorOf(412, { error: { message: "Someone changed this message after you loaded it. Load it again to see their change." } });
        }
      });
    }

    function messagePath(message) {
      return "/api/conversations/" + message.conversation.id + "/messages/" + message.id;
    }

    function messageValues(message) {
      var when = dayAndTime(message.written_at);
      return { written_by_me: message.written_by_me ? "yes" : "no", written_day: when.day, written_time: when.time,
        content: message.content };
    }

    // One form for every conversation's messages, put where it is used: in place of the message
    // it edits, or above a conversation's "Add message".
    var messages = Editor.itemEditor({
      name: "messages", noun: "message",
      fields: [
        { name: "written_by_me", label: "Who wrote", type: "select", options: [
          { value: "yes", label: "You" }, { value: "no", label: firstName }
        ] },
        { name: "written_day", apiName: "written at", spoken: "day", label: "Day", type: "date" },
        { name: "written_time", label: "Time", type: "time", optional: true },
        { name: "content", label: "Message", spoken: "message", type: "textarea", wide: true }
      ],
      current: function (message) {
        return messageNow(message).then(function (now) { return { values: messageValues(now), etag: null, latest: now }; });
      },
      // A new message: the other person's turn after yours, on the conversation's day.
      prefill: function (message, conversation) {
        if (message) return messageValues(message);
        var said = (conversation.messages || []).slice().sort(byOldest("written_at"));
        var last = said[said.length - 1];
        return { written_by_me: last && last.written_by_me ? "no" : "yes",
          written_day: dayAndTime(conversation.happened_at).day || K.isoDay(new Date()), written_time: "" };
      },
      // Each message route answers the whole conversation; the notice speaks of the message.
      save: function (values, message, options, conversation) {
        var body = { content: values.content, written_at: momentOf(values.written_day, values.written_time),
          written_by_me: values.written_by_me === "yes" };
        if (!message) {
          return K.api("POST", "/api/conversations/" + conversation.id + "/messages", body).then(function (answer) {
            var newest = (answer.data.messages || []).reduce(function (found, each) {
              return !found || each.id > found.id ? each : found;
            }, null);
            return { data: newest };
          });
        }
        return unchangedSince(message).then(function () {
          return K.api("PUT", messagePath(message), body);
        }).then(function (answer) {
          var saved = (answer.data.messages || []).filter(function (each) { return each.id === message.id; })[0];
          return { data: saved || message };
        });
      },
      remove: function (message) {
        return unchangedSince(message).then(function () { return K.api("DELETE", messagePath(message)); });
      },
      describe: function (message) { return "the message " + quoted(message.content); }
    }, {
      notice: document.getElementById("conversations-notice"),
      reload: function () { return conversations.reload(); },
      opened: function (form, message, conversation) {
        putBack();
        if (message) {
          var shown = conversationsBody.querySelector('.message[data-message-id="' + message.id + '"]');
          if (!shown) return false;
          shown.classList.add("is-editing");
          shown.appendChild(form);
          return true;
        }
        var item = conversationsBody.querySelector('.conversation[data-id="' + conversation.id + '"]');
        if (!item) return false;
        var adding = item.querySelector(".message-add");
        adding.hidden = true;
        item.insertBefore(form, adding);
        return true;
      },
      closed: putBack,
      saved: function (conversation, message) {
        var target = message && conversationsBody.querySelector('.message[data-message-id="' + message.id + '"] .edit-item');
        if (!target && conversation) {
          target = conversationsBody.querySelector('.conversation[data-id="' + conversation.id + '"] .add-message');
        }
        if (target) target.focus();
      }
    });

    // Every message shown again, every "Add message" back.
    function putBack() {
      Array.prototype.forEach.call(conversationsBody.querySelectorAll(".message.is-editing"), function (shown) {
        shown.classList.remove("is-editing");
      });
      Array.prototype.forEach.call(conversationsBody.querySelectorAll(".message-add"), function (adding) {
        adding.hidden = false;
      });
    }

    function messageItem(message) {
      var mine = !!message.written_by_me;
      return el("li", { className: "message " + (mine ? "from-me" : "from-them"), "data-message-id": message.id }, [
        el("div", { className: "message-head" }, [
          el("span", { className: "message-author", text: mine ? "You" : firstName }),
          K.momentElement(message.written_at), messages.actions(message)
        ]),
        el("p", { className: "message-text", text: message.content })
      ]);
    }

    var conversations = common({
      name: "conversations", noun: "conversation",
      fields: [
        { name: "happened_day", apiName: "happened at", spoken: "day", label: "Day", type: "date" },
        { name: "happened_time", label: "Time", type: "time", optional: true },
        { name: "contact_field_type_id", apiName: "contact field type id", spoken: "medium", label: "Medium",
          type: "select", hint: "Where you talked: email, phone, a messaging app…",
          options: function () {
            return once("fieldTypes", function () { return K.allPages("/api/contactfieldtypes"); }).then(function (types) {
              return types.map(function (type) { return { value: type.id, label: type.name }; });
            });
          } }
      ],
      load: function () { return K.allPages(base + "/conversations"); },
      empty: "No conversations",
      // Newest conversation first; inside each, its messages in the order they were written.
      show: function (body, list, actions) {
        list.sort(byNewest("happened_at"));
        body.appendChild(el("ul", { className: "item-list", id: "conversation-list" }, list.map(function (conversation) {
          var said = (conversation.messages || []).slice().sort(byOldest("written_at"));
          var add = el("button", { type: "button", className: "btn btn-secondary btn-small add-message", text: "Add message",
            "aria-label": "Add a message to " + conversations.describe(conversation) });
          add.addEventListener("click", function () { messages.add(conversation); });
          return el("li", { className: "item conversation", "data-id": conversation.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "item-title", text: mediumOf(conversation) }),
              K.momentElement(conversation.happened_at), actions(conversation)
            ]),
            said.length ? el("ol", { className: "message-list" }, said.map(messageItem))
              : el("p", { className: "item-meta no-messages", text: "No messages yet" }),
            el("div", { className: "message-add" }, [add])
          ]);
        })));
        messages.placeAgain();
        var added = justAdded && list.filter(function (conversation) { return conversation.id === justAdded; })[0];
        justAdded = null;
        if (added && !(added.messages || []).length) messages.add(added);
      },
      prefill: function (conversation) {
        if (!conversation) return { happened_day: K.isoDay(new Date()), happened_time: "" };
        var when = dayAndTime(conversation.happened_at);
        return { happened_day: when.day, happened_time: when.time,
          contact_field_type_id: conversation.contact_field_type && conversation.contact_field_type.id };
      },
      path: itemPath("/api/conversations"),
      save: function (values, conversation, options) {
        return send("/api/conversations", conversation, {
          contact_id: contact.id, happened_at: momentOf(values.happened_day, values.happened_time),
          contact_field_type_id: values.contact_field_type_id ? Number(values.contact_field_type_id) : null
        }, options).then(function (answer) {
          if (!conversation) justAdded = answer.data.id;
          return answer;
        });
      },
      remove: removal("/api/conversations"),
      describe: function (conversation) {
        return "the " + mediumOf(conversation) + " conversation of " + momentWords(conversation.happened_at);
      },
      consequence: function (conversation) {
        var count = (conversation.messages || []).length;
        return count ? "Its " + (count === 1 ? "message goes" : count + " messages go") + " with it, on every device."
          : "It will be removed on every device.";
      }
    });

    // ---- Debts ---------------------------------------------------------------------------------

    // "You owe Ada $12.00", "Ada owes you $12.00".
    function debtWords(debt) {
      var amount = debt.amount_with_currency || "nothing";
      return debt.in_debt === "yes" ? "You owe " + firstName + " " + amount : firstName + " owes you " + amount;
    }

    function debtBody(values) {
      return { contact_id: contact.id, in_debt: values.in_debt, status: values.settled ? "completed" : "inprogress",
        amount: nullable(values.amount), reason: nullable(values.reason) };
    }

    // Mark settled and Reopen change only whether the debt is settled, on the debt as it is now.
    function settle(debt, settled) {
      return changeOnTop("/api/debts/" + debt.id, function (latest) { return { settled: latest.status === "completed" }; },
        { settled: settled }, function (values, latest) {
          return debtBody({ in_debt: latest.in_debt, amount: latest.amount === null ? 0 : latest.amount,
            reason: latest.reason, settled: values.settled });
        });
    }

    var debts = common({
      name: "debts", noun: "debt",
      fields: [
        { name: "in_debt", apiName: "in debt", label: "Who owes whom", type: "select", options: [
          { value: "no", label: firstName + " owes you" }, { value: "yes", label: "You owe " + firstName }
        ] },
        { name: "amount", label: "Amount", type: "number", step: "0.01", min: "0", hint: "In the account's currency" },
        { name: "reason", label: "What for", spoken: "reason", optional: true, wide: true },
        { name: "settled", label: "Settled", type: "checkbox", onlyWhenEditing: true }
      ],
      load: function () { return K.allPages(base + "/debts"); },
      empty: "No debts",
      // Open ones first, newest first; then the settled ones.
      show: function (body, list, actions) {
        var open = list.filter(function (debt) { return debt.status !== "completed"; }).sort(byNewest("created_at"));
        var settled = list.filter(function (debt) { return debt.status === "completed"; }).sort(byNewest("updated_at"));
        body.appendChild(el("ul", { className: "item-list", id: "debt-list" }, open.concat(settled).map(function (debt) {
          var isSettled = debt.status === "completed";
          var toggle = el("button", { type: "button", className: "btn btn-secondary btn-small debt-toggle",
            text: isSettled ? "Reopen" : "Mark settled",
            "aria-label": (isSettled ? "Reopen the debt " : "Mark settled the debt ") + quoted(debtWords(debt)) });
          toggle.addEventListener("click", function () {
            toggle.disabled = true;
            settle(debt, !isSettled).then(function () {
              K.notify(debts.notice, (isSettled ? "Reopened" : "Settled:") + " the debt " + quoted(debtWords(debt)) + ".");
              debts.reload();
            }, function (error) {
              toggle.disabled = false;
              K.notify(debts.notice, error.message);
            });
          });
          var buttons = actions(debt);
          buttons.insertBefore(toggle, buttons.firstChild);
          return el("li", { className: "item debt" + (isSettled ? " is-settled" : ""), "data-id": debt.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "task-state debt-state", text: isSettled ? "Settled" : "Open" }),
              el("span", { className: "item-title", text: debtWords(debt) }),
              el("span", { className: "item-when" }, ["Added ", K.timeElement(debt.created_at)]),
              buttons
            ]),
            debt.reason ? el("p", { className: "item-text", text: debt.reason }) : null
          ]);
        })));
      },
      prefill: function (debt) {
        if (!debt) return { in_debt: "no" };
        return { in_debt: debt.in_debt, amount: debt.amount, reason: debt.reason, settled: debt.status === "completed" };
      },
      path: itemPath("/api/debts"),
      save: function (values, debt, options) { return send("/api/debts", debt, debtBody(values), options); },
      remove: removal("/api/debts"),
      describe: function (debt) { return "the debt " + quoted(debtWords(debt)); }
    });

    // ---- Life events ---------------------------------------------------------------------------

    function lifeEventType(event) {
      return (event.life_event_type && event.life_event_type.name) || "Life event";
    }

    // The day as it is known: "12 Mar 2019", "Mar 2019" (day unknown), "2019" (month unknown).
    function lifeEventDay(event) {
      var day = K.parseDay(event.happened_at);
      if (!day) return null;
      var text = event.happened_at_month_unknown ? String(day.getFullYear())
        : event.happened_at_day_unknown ? window.KithTime.months[day.getMonth()] + " " + day.getFullYear()
          : K.dayFormat.format(day);
      return el("time", { datetime: K.isoDay(day), title: K.relativeDay(day), text: text });
    }

    common({
      name: "life-events", noun: "life event",
      fields: [
        { name: "life_event_type_id", apiName: "life event type id", spoken: "kind", label: "What happened",
          type: "select",
          options: function () {
            return once("lifeEventTypes", function () { return K.allPages("/api/lifeeventtypes"); }).then(function (types) {
              return [{ value: "", label: "Choose…" }].concat(types.map(function (type) {
                return { value: type.id, label: type.name,
                  group: type.life_event_category && type.life_event_category.name };
              }));
            });
          } },
        { name: "happened_at", apiName: "happened at", spoken: "day", label: "Day", type: "date" },
        { name: "name", label: "Title", optional: true, maxlength: 255, placeholder: "Moved to Lisbon" },
        { name: "note", label: "Note", type: "textarea", optional: true, wide: true },
        { name: "has_reminder", label: "Remind me of it every year", type: "checkbox", wide: true, onlyWhenAdding: true }
      ],
      load: function () { return K.allPages(base + "/lifeevents"); },
      empty: "No life events",
      show: function (body, events, actions) {
        events.sort(byNewest("happened_at"));
        body.appendChild(el("ul", { className: "item-list", id: "life-event-list" }, events.map(function (event) {
          var kind = lifeEventType(event);
          var category = event.life_event_type && event.life_event_type.life_event_category;
          var meta = (event.name ? [kind] : []).concat(category && category.name ? [category.name] : []);
          return el("li", { className: "item life-event", "data-id": event.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "item-title", text: event.name || kind }), lifeEventDay(event), actions(event)
            ]),
            meta.length ? el("p", { className: "item-meta", text: meta.join(" · ") }) : null,
            event.note ? el("p", { className: "item-text", text: event.note }) : null
          ]);
        })));
      },
      prefill: function (event) {
        if (!event) return { life_event_type_id: "", happened_at: K.isoDay(new Date()), has_reminder: false };
        return { life_event_type_id: event.life_event_type ? event.life_event_type.id : "",
          happened_at: (event.happened_at || "").slice(0, 10), name: event.name, note: event.note, has_reminder: false };
      },
      path: itemPath("/api/lifeevents"),
      // The contact, the yearly reminder and the unknown parts of the day come with a creation
      // only (Monica's update takes the type, the day, the name and the note).
      save: function (values, event, options) {
        var body = { life_event_type_id: values.life_event_type_id ? Number(values.life_event_type_id) : null,
          happened_at: nullable(values.happened_at), name: nullable(values.name), note: nullable(values.note) };
        if (!event) {
          body.contact_id = contact.id;
          body.has_reminder = !!values.has_reminder;
          body.happened_at_month_unknown = false;
          body.happened_at_day_unknown = false;
        }
        return send("/api/lifeevents", event, body, options);
      },
      remove: removal("/api/lifeevents"),
      describe: function (event) { return "the life event " + quoted(event.name || lifeEventType(event)); },
      consequence: function () { return "It will be removed on every device, with its yearly reminder if it has one."; },
      // Its yearly reminder is made, moved and deleted with it.
      changed: function () { reminders.reload(); }
    });

    // ---- Pets ----------------------------------------------------------------------------------

    // Monica's category names are keys ("small_animal"); the common kinds first, as its apps offer them.
    function petKind(category) {
      var key = (category && category.name) || "other";
      var words = key.replace(/_/g, " ");
      return words.charAt(0).toUpperCase() + words.slice(1);
    }

    common({
      name: "pets", noun: "pet",
      fields: [
        { name: "pet_category_id", apiName: "pet category id", spoken: "kind", label: "Kind", type: "select",
          options: function () {
            return once("petCategories", function () {
              return K.api("GET", "/api/petcategories").then(function (answer) { return answer.data || []; });
            }).then(function (categories) {
              var usual = categories.filter(function (category) { return category.is_common; });
              var others = categories.filter(function (category) { return !category.is_common; });
              return [{ value: "", label: "Choose…" }].concat(usual.concat(others).map(function (category) {
                return { value: category.id, label: petKind(category) };
              }));
            });
          } },
        { name: "name", label: "Name", optional: true, maxlength: 255 }
      ],
      load: function () { return K.allPages(base + "/pets"); },
      empty: "No pets",
      show: function (body, pets, actions) {
        pets.sort(function (a, b) { return a.id - b.id; });
        body.appendChild(el("ul", { className: "item-list", id: "pet-list" }, pets.map(function (pet) {
          var kind = petKind(pet.pet_category);
          return el("li", { className: "item pet", "data-id": pet.id }, [
            el("div", { className: "item-head" }, [
              el("span", { className: "item-title", text: pet.name || kind }),
              el("span", { className: "badge pet-kind", text: kind }),
              actions(pet)
            ])
          ]);
        })));
      },
      prefill: function (pet) {
        if (!pet) return { pet_category_id: "" };
        return { pet_category_id: pet.pet_category ? pet.pet_category.id : "", name: pet.name };
      },
      path: itemPath("/api/pets"),
      save: function (values, pet, options) {
        return send("/api/pets", pet, { contact_id: contact.id, name: nullable(values.name),
          pet_category_id: values.pet_category_id ? Number(values.pet_category_id) : null }, options);
      },
      remove: removal("/api/pets"),
      describe: function (pet) {
        var kind = petKind(pet.pet_category).toLowerCase();
        return pet.name ? "the " + kind + " " + quoted(pet.name) : "the " + kind;
      }
    });
  }

  window.KithSections = { start: start };
})();
