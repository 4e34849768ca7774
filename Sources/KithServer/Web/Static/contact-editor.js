// Adding, editing and deleting what hangs off a contact (contact fields, notes, tasks, tags,
// reminders, gifts, activities, relationships, calls, conversations and their messages, debts,
// pets, life events, photos) through /api, the same way for every section: an "Add" button in
// the section's head, Edit and Delete beside each item, one form built from a list of fields,
// the API's refusals next to the fields they name, a confirm step before a delete, and a line
// saying what happened. Every rule is the API's: the form only sends.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;

  // ---- Asking before a delete -------------------------------------------------------------------

  var dialog = document.getElementById("confirm-dialog");
  var confirmTitle = document.getElementById("confirm-title");
  var confirmText = document.getElementById("confirm-text");
  var confirmError = document.getElementById("confirm-error");
  var confirmButton = document.getElementById("confirm-delete");
  var pending = null;

  // confirm({title, text, button, action, changed}): the dialog; `action` returns a promise, and
  // the dialog closes when it resolves or shows why it failed. When what it deletes was changed
  // elsewhere since it was read (412), `changed()` reads it again (a promise of the dialog's new
  // {title, text}) and the person decides again, on what it is now.
  function confirm(options) {
    pending = options;
    confirmTitle.textContent = options.title;
    confirmText.textContent = options.text;
    confirmButton.textContent = options.button || "Delete";
    confirmError.hidden = true;
    confirmButton.disabled = false;
    dialog.showModal();
    document.getElementById("confirm-cancel").focus();
  }

  if (dialog) {
    document.getElementById("confirm-cancel").addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("close", function () { pending = null; });
    confirmButton.addEventListener("click", function () {
      var asked = pending;
      if (!asked) return;
      confirmButton.disabled = true;
      asked.action().then(function () {
        if (pending === asked) dialog.close();
      }, function (error) {
        if (error.kind === "changed" && asked.changed) {
          return asked.changed().then(function (now) {
            confirmTitle.textContent = now.title;
            confirmText.textContent = now.text;
            return "It was changed elsewhere after you opened this; above is how it is now. Delete it anyway?";
          });
        }
        return error.message;
      }).then(function (problem) {
        if (!problem) return;
        confirmButton.disabled = false;
        confirmError.textContent = problem;
        confirmError.hidden = false;
      }, function (error) {
        confirmButton.disabled = false;
        confirmError.textContent = error.message;
        confirmError.hidden = false;
      });
    });
  }

  // Asks before deleting something as it was read ({latest, etag}, options.state): the deletion
  // names that version (remove(item, {ifMatch})), and when it was changed elsewhere meanwhile,
  // read() gives it as it is now and the dialog asks again about that. title(item) and
  // text(item) say what goes; removed(item) follows the deletion.
  function confirmRemoval(options) {
    var state = options.state;
    confirm({
      title: options.title(state.latest),
      text: options.text(state.latest),
      button: options.button,
      action: function () {
        return options.remove(state.latest, { ifMatch: state.etag }).then(function () {
          options.removed(state.latest);
        });
      },
      changed: function () {
        return options.read().then(function (now) {
          state = now;
          return { title: options.title(now.latest), text: options.text(now.latest) };
        });
      }
    });
  }

  // ---- Forms built from a list of fields ----------------------------------------------------------

  // A field: {name, label, type: text|textarea|number|date|time|select|checkbox|contact|file,
  // required, optional (says so in the label), maxlength, hint, placeholder, wide, options:
  // [{value, label, group}] or a function returning a promise of them, step, min, max, accept (a
  // file's types), spoken}. A file field's value is the File chosen (or null).
  // Laravel names a field in its message by its name with spaces ("The happened at field…"):
  // that is how a refusal finds its field; `spoken` is how the message then names it.
  function attributeWords(field) {
    return (field.apiName || field.name).replace(/_/g, " ").toLowerCase();
  }

  function selectOptions(select, options, chosen) {
    K.clear(select);
    var groups = {};
    options.forEach(function (option) {
      var parent = select;
      if (option.group) {
        if (!groups[option.group]) {
          groups[option.group] = el("optgroup", { label: option.group });
          select.appendChild(groups[option.group]);
        }
        parent = groups[option.group];
      }
      parent.appendChild(el("option", { value: option.value, text: option.label }));
    });
    if (chosen !== undefined && chosen !== null) select.value = String(chosen);
  }

  // A contact picker: type part of a name, choose from the server's search (another contact).
  function contactPicker(id, field, exclude) {
    var input = el("input", { type: "search", id: id, autocomplete: "off", spellcheck: "false",
      placeholder: "Type a name", role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
      "aria-controls": id + "-options" });
    var list = el("ul", { id: id + "-options", className: "combobox-options", role: "listbox", hidden: true });
    var chosen = null;
    var timer = null;
    var latest = 0;
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
    }
    function choose(contact) {
      chosen = contact ? contact.id : null;
      input.value = contact ? K.contactName(contact) : "";
      input.dataset.chosen = contact ? String(contact.id) : "";
      close();
    }
    function search() {
      var request = ++latest;
      var text = input.value.trim();
      if (!text) { close(); return; }
      K.api("GET", "/api/contacts?" + new URLSearchParams({ query: text, limit: "8" })).then(function (answer) {
        if (request !== latest) return;
        K.clear(list);
        var found = (answer.data || []).filter(function (contact) { return String(contact.id) !== String(exclude); });
        found.forEach(function (contact) {
          var option = el("li", { className: "combobox-option", role: "option", "data-contact": contact.id,
            "aria-selected": "false" }, [el("span", { text: K.contactName(contact) })]);
          option.addEventListener("mousedown", function (event) {
            event.preventDefault();
            choose(contact);
          });
          list.appendChild(option);
        });
        if (!found.length) list.appendChild(el("li", { className: "combobox-empty", text: "Nobody matches “" + text + "”" }));
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
      }, function () { close(); });
    }
    input.addEventListener("input", function () {
      chosen = null;
      input.dataset.chosen = "";
      window.clearTimeout(timer);
      timer = window.setTimeout(search, 250);
    });
    input.addEventListener("keydown", function (event) {
      var options = list.querySelectorAll("[data-contact]");
      if (event.key === "Enter" && !list.hidden && options.length) {
        event.preventDefault();
        var first = options[0];
        choose({ id: Number(first.dataset.contact), complete_name: first.textContent });
      } else if (event.key === "Escape" && !list.hidden) {
        event.preventDefault();
        close();
      }
    });
    input.addEventListener("blur", close);
    var box = el("div", { className: "combobox" }, [input, list]);
    return {
      element: box,
      input: input,
      value: function () { return chosen; },
      set: function (contact) { choose(contact); }
    };
  }

  // Builds a form: {element, open(values), close(), values(), showErrors(error)}.
  function buildForm(config, onSubmit, onCancel) {
    var prefix = config.name + "-field-";
    var title = el("h3", { className: "item-form-title" });
    var errorBox = el("div", { className: "alert alert-error", role: "alert", tabindex: "-1", hidden: true });
    var grid = el("div", { className: "form-grid" });
    var save = el("button", { type: "submit", className: "btn btn-primary item-save", text: "Save" });
    var cancel = el("button", { type: "button", className: "btn btn-secondary item-cancel", text: "Cancel" });
    var form = el("form", { className: "form item-form", id: config.name + "-form", novalidate: true }, [
      title, errorBox, grid, el("div", { className: "form-actions" }, [save, cancel])
    ]);
    var controls = {};
    var errors = {};

    config.fields.forEach(function (field) {
      var id = prefix + field.name;
      var control;
      if (field.type === "textarea") {
        control = el("textarea", { id: id, rows: field.rows || 3, maxlength: field.maxlength });
      } else if (field.type === "select") {
        control = el("select", { id: id });
      } else if (field.type === "checkbox") {
        control = el("input", { type: "checkbox", id: id });
      } else if (field.type === "contact") {
        control = contactPicker(id, field, config.contactID && config.contactID());
      } else if (field.type === "file") {
        control = el("input", { type: "file", id: id, accept: field.accept });
      } else {
        control = el("input", { type: field.type || "text", id: id, maxlength: field.maxlength, autocomplete: "off",
          placeholder: field.placeholder, step: field.step, min: field.min, max: field.max,
          inputmode: field.type === "number" ? "decimal" : undefined, list: field.list });
      }
      var error = el("p", { className: "field-error", id: id + "-error", hidden: true });
      var hint = field.hint ? el("p", { className: "hint", id: id + "-hint", text: field.hint }) : null;
      var input = control.input || control;
      if (hint) input.setAttribute("aria-describedby", hint.id);
      var labelText = [field.label];
      if (field.optional) labelText.push(" ", el("span", { className: "muted", text: "(optional)" }));
      var box;
      if (field.type === "checkbox") {
        box = el("div", { className: "field check" + (field.wide ? " field-wide" : "") }, [
          input, el("label", { for: id }, labelText), error
        ]);
      } else {
        box = el("div", { className: "field" + (field.wide ? " field-wide" : "") }, [
          el("label", { for: id }, labelText), control.element || control, hint, error
        ]);
      }
      grid.appendChild(box);
      controls[field.name] = control;
      errors[field.name] = error;
    });

    function clearErrors() {
      errorBox.hidden = true;
      config.fields.forEach(function (field) {
        errors[field.name].hidden = true;
        var input = controls[field.name].input || controls[field.name];
        input.removeAttribute("aria-invalid");
        var hint = document.getElementById(prefix + field.name + "-hint");
        if (hint) input.setAttribute("aria-describedby", hint.id);
        else input.removeAttribute("aria-describedby");
      });
    }

    // The API's messages next to the fields they name; the others above the form.
    function showErrors(error) {
      clearErrors();
      if (!error.messages) {
        // Not an answer of the API: a fault of this page; say so rather than nothing.
        if (window.console) window.console.error(error);
        error = { kind: "page", messages: ["Something went wrong on this page. Reload it and try again."] };
      }
      var general = [];
      var first = null;
      error.messages.forEach(function (message) {
        var lower = message.toLowerCase();
        var field = config.fields.filter(function (candidate) {
          return lower.indexOf("the " + attributeWords(candidate) + " ") === 0;
        })[0];
        if (!field || error.kind !== "invalid") {
          general.push(message);
          return;
        }
        // Said in the label's words where the API's name is not what the form shows ("The
        // data must be…" next to a field labelled Value reads "The value must be…").
        if (field.spoken) message = "The " + field.spoken + message.slice(("the " + attributeWords(field)).length);
        var box = errors[field.name];
        box.textContent = box.hidden ? message : box.textContent + " " + message;
        box.hidden = false;
        var input = controls[field.name].input || controls[field.name];
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", box.id);
        first = first || input;
      });
      if (general.length) {
        K.clear(errorBox);
        errorBox.appendChild(general.length === 1 ? el("p", { text: general[0] })
          : el("ul", {}, general.map(function (text) { return el("li", { text: text }); })));
        errorBox.hidden = false;
        errorBox.focus();
      } else if (first) {
        first.focus();
      }
    }

    function values() {
      var result = {};
      config.fields.forEach(function (field) {
        var control = controls[field.name];
        if (field.type === "checkbox") result[field.name] = control.checked;
        else if (field.type === "contact") result[field.name] = control.value();
        else if (field.type === "file") result[field.name] = control.files[0] || null;
        else result[field.name] = control.value.trim();
      });
      return result;
    }

    // Puts one value in its field.
    function set(field, value) {
      var control = controls[field.name];
      if (field.type === "checkbox") control.checked = !!value;
      else if (field.type === "contact") control.set(value || null);
      // A file field can only be emptied: a page cannot choose a file for the person.
      else if (field.type === "file") control.value = "";
      else control.value = value === undefined || value === null ? "" : String(value);
    }

    // A value in plain words, as its field shows it.
    function describe(field, value) {
      if (field.type === "checkbox") return value ? "Yes" : "No";
      if (field.type === "contact") return value ? K.contactName(value) : "(nobody)";
      if (field.type === "select") {
        var option = Array.prototype.filter.call(controls[field.name].options, function (candidate) {
          return candidate.value === String(value === null || value === undefined ? "" : value);
        })[0];
        return option ? option.textContent : K.quotedValue(value);
      }
      return K.quotedValue(value);
    }

    function fieldNamed(name) {
      return config.fields.filter(function (field) { return field.name === name; })[0];
    }

    var conflict = null;

    function dropConflict() {
      if (conflict) conflict.element.remove();
      conflict = null;
    }

    // Someone changed the item while the person edited it: `values` (theirs, with the person's
    // changes on top) go in the form, and for each of `names`, changed by both, the person
    // chooses between `mine` and `theirs`.
    function showConflict(names, values, mine, theirs) {
      dropConflict();
      clearErrors();
      config.fields.forEach(function (field) { set(field, values[field.name]); });
      conflict = K.conflictPanel(names.map(function (name) {
        var field = fieldNamed(name);
        return { name: name, label: field.label, mine: describe(field, mine[name]), theirs: describe(field, theirs[name]) };
      }), function (name, which) { set(fieldNamed(name), which === "mine" ? mine[name] : theirs[name]); });
      grid.parentNode.insertBefore(conflict.element, grid.nextSibling);
      conflict.focus();
    }

    // Fills the form (select options are loaded first) and shows it. `editing`: fields marked
    // lockedWhenEditing are shown but not changed (a relationship's other contact), fields
    // marked onlyWhenEditing appear (a task's Done), fields marked onlyWhenAdding go (a life
    // event's yearly reminder, which only its creation sets).
    function open(heading, prefill, saveText, editing) {
      title.textContent = heading;
      save.textContent = saveText || "Save";
      clearErrors();
      dropConflict();
      form.hidden = false;
      config.fields.forEach(function (field) {
        var input = controls[field.name].input || controls[field.name];
        input.disabled = !!(editing && field.lockedWhenEditing);
        errors[field.name].parentNode.hidden = !!(field.onlyWhenEditing && !editing) || !!(field.onlyWhenAdding && editing);
      });
      var loads = config.fields.filter(function (field) { return field.type === "select"; }).map(function (field) {
        var options = typeof field.options === "function" ? field.options() : Promise.resolve(field.options);
        return options.then(function (list) { selectOptions(controls[field.name], list, prefill[field.name]); });
      });
      config.fields.forEach(function (field) {
        if (field.type !== "select") set(field, prefill[field.name]);
      });
      save.disabled = true;
      return Promise.all(loads).then(function () {
        save.disabled = false;
        var first = grid.querySelector("input:not(:disabled), select:not(:disabled), textarea");
        if (first) first.focus();
      }, function (error) {
        showErrors(error);
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (conflict && !conflict.ready()) return;
      save.disabled = true;
      onSubmit(values()).then(function () {
        save.disabled = false;
      }, function (error) {
        save.disabled = false;
        showErrors(error);
      });
    });
    cancel.addEventListener("click", onCancel);
    form.hidden = true;
    return { element: form, open: open, showErrors: showErrors, showConflict: showConflict };
  }

  // ---- Adding, editing and deleting one kind of item ----------------------------------------------

  // itemEditor(config, place) gives one kind of item its form, Edit and Delete, wherever the
  // items are shown: a section's list, or a conversation's messages. config is a section's
  // (below); place says where:
  //   notice          the line that says what happened
  //   reload()        shows the items again (a promise)
  //   opened(form, item, parent)  puts the form where the item (or, adding, the new item of
  //                   `parent`) is edited; false when that is no longer on the page
  //   closed(parent)  the form was put away
  //   saved(parent, item)  after a save, once the items are shown again (where the focus goes)
  // config.current(item), when given, reads the item as it is now ({values, etag, latest})
  // instead of GET config.path(item); config.save(values, item, options, parent) and
  // config.prefill(item, parent) are given what a new item is added to.
  // An edit sends what the person changed on top of the item as it is now (K.saveOnTop): what
  // someone else changed meanwhile is kept, and where both changed the same value the form asks.
  function itemEditor(config, place) {
    // The item being edited as it was read: {values, etag, latest}; null when adding.
    var editing = null;
    // What a new item is added to (a message's conversation); null for a section's own items.
    var parent = null;
    var isOpen = false;
    var form = buildForm(config, submit, close);
    var labels = {};
    config.fields.forEach(function (field) { labels[field.name] = field.label; });

    function describe(item) {
      return config.describe ? config.describe(item) : "the " + config.noun;
    }

    // Values as the form gives them back: text for fields and choices, true or false for boxes.
    // What the API gave is read so, so that a value the person left alone never counts as one
    // they changed (the number 3 is the "3" its select gives back, a null the "" of its empty field).
    function asForm(values) {
      var result = {};
      Object.keys(values).forEach(function (name) { result[name] = values[name]; });
      config.fields.forEach(function (field) {
        var value = values[field.name];
        if (field.type === "checkbox") result[field.name] = !!value;
        else if (field.type !== "contact" && field.type !== "file") {
          result[field.name] = value === undefined || value === null ? "" : String(value);
        }
      });
      return result;
    }

    // The item as it is now, with its version.
    function current(item) {
      var reading = config.current ? config.current(item) : K.api("GET", config.path(item)).then(function (answer) {
        return { values: config.prefill(answer.data), etag: answer.etag, latest: answer.data };
      });
      return reading.then(function (state) {
        return { values: asForm(state.values), etag: state.etag, latest: state.latest };
      });
    }

    // Reads the item before acting on it; gone meanwhile, the notice says so and shows what is left.
    function withCurrent(item, button, act) {
      K.readFirst(button, function () { return current(item); }, act, function () {
        K.notify(place.notice, K.sentenceCase(describe(item)) + " was deleted elsewhere.");
        place.reload();
      }, function (error) { K.notify(place.notice, error.message); });
    }

    function close() {
      var was = parent;
      editing = null;
      parent = null;
      isOpen = false;
      form.element.hidden = true;
      if (place.closed) place.closed(was);
    }

    function open(state, to) {
      editing = state;
      parent = to || null;
      isOpen = true;
      var item = state && state.latest;
      if (place.opened(form.element, item, parent) === false) {
        close();
        return;
      }
      var heading = item ? "Edit " + describe(item) : "Add " + (/^[aeiou]/i.test(config.noun) ? "an " : "a ") + config.noun;
      form.open(heading, state ? state.values : config.prefill(null, parent),
        item ? "Save changes" : config.saveLabel || "Save " + config.noun, !!item);
      form.element.scrollIntoView({ block: "nearest" });
    }

    // After the items were drawn again: the open form goes back where it was, or away when
    // what it was about is gone.
    function placeAgain() {
      if (!isOpen) return;
      if (place.opened(form.element, editing && editing.latest, parent) === false) close();
    }

    function submit(values) {
      var edit = editing;
      var to = parent;
      var saving = !edit ? config.save(values, null, {}, to).then(function (answer) {
        return { answer: answer, elsewhere: [] };
      }) : K.saveOnTop({
        base: edit.values, etag: edit.etag, latest: edit.latest, mine: values,
        reload: function () { return current(edit.latest); },
        send: function (changed, etag, latest) { return config.save(changed, latest, { ifMatch: etag }); }
      });
      return saving.then(function (result) {
        close();
        var answer = result.answer;
        K.notify(place.notice, (edit ? "Saved " : "Added ") + describe((answer && answer.data) || edit.latest) + "." +
          K.keptElsewhere(result.elsewhere, labels));
        if (config.changed) config.changed();
        var saved = (answer && answer.data) || edit.latest;
        return place.reload().then(function () { if (place.saved) place.saved(to, saved); });
      }, function (error) {
        if (error.kind !== "conflict") throw error;
        editing = error.fresh;
        form.showConflict(error.names, error.merged, values, error.fresh.values);
      });
    }

    // Delete (or Remove) asks first, about the item as it is now (state: as read, {latest,
    // etag}; for tags, removed by name, the listed item and no version).
    function askToRemove(item, state) {
      var removeWord = config.removeLabel || "Delete";
      confirmRemoval({
        state: state, button: removeWord,
        title: function (shown) { return removeWord + " " + describe(shown) + "?"; },
        text: function (shown) {
          return config.consequence ? config.consequence(shown) : "It will be removed on every device.";
        },
        remove: config.remove,
        removed: function (shown) {
          if (editing && editing.latest.id === item.id) close();
          K.notify(place.notice, (config.removedWord || "Deleted") + " " + describe(shown) + ".");
          if (config.changed) config.changed();
          place.reload();
        },
        read: function () {
          place.reload();
          return current(item);
        }
      });
    }

    // An item's Edit and Delete (null for an item the API keeps).
    function actions(item) {
      if (config.canChange && !config.canChange(item)) return null;
      var edit = null;
      if (config.editable !== false) {
        edit = el("button", { type: "button", className: "btn btn-secondary btn-small edit-item", text: "Edit",
          "aria-label": "Edit " + describe(item) });
        edit.addEventListener("click", function () { withCurrent(item, edit, open); });
      }
      var removeWord = config.removeLabel || "Delete";
      var remove = el("button", { type: "button", className: "btn btn-danger-outline btn-small delete-item",
        text: removeWord, "aria-label": removeWord + " " + describe(item) });
      remove.addEventListener("click", function () {
        if (!config.path && !config.current) askToRemove(item, { latest: item, etag: null });
        else withCurrent(item, remove, function (state) { askToRemove(item, state); });
      });
      return el("span", { className: "item-actions" }, [edit, remove]);
    }

    form.element.hidden = true;
    return {
      form: form.element, actions: actions, placeAgain: placeAgain, describe: describe,
      add: function (to) { open(null, to); }
    };
  }

  // ---- A section with its items -----------------------------------------------------------------

  // section(config) loads and shows one section, with Add, Edit and Delete:
  //   name         the section's id ("notes": #notes-body, #notes-notice, #notes-add, #notes-form)
  //   noun         "note": "Add note", "Edit the note", "Delete the note?"
  //   fields       the form's fields (above)
  //   load()       a promise of the items
  //   empty        what the section says when it has nothing ("No notes")
  //   show(body, items, actions)  draws the items (some); actions(item) gives its Edit and Delete
  //   path(item)   the item's address in /api ("/api/notes/12"): Edit and Delete read it there
  //                first, for the item as it is now and its version
  //   prefill(item)        the form's values for an item (new: prefill(null))
  //   save(values, item, options)   a promise of the API call (item null: a new one; options
  //                        carry the version the change is made against, for K.api)
  //   remove(item, options)         a promise of the deletion (options: the same)
  //   describe(item)       "the note “Loves poetical…”", for the confirmation and the notices
  //   canChange(item)      false for items the API keeps (a birthday's reminder)
  //   contactID()          the contact shown (a contact picker leaves it out)
  //   editable: false      only Delete (a tag is removed, not edited); removeLabel, removedWord
  //                        name that action ("Remove", "Removed")
  //   addLabel, saveLabel  the Add button's and a new item's Save button's words
  //   changed()            after every save and delete: what else on the page follows them
  function section(config) {
    var body = document.getElementById(config.name + "-body");
    var notice = document.getElementById(config.name + "-notice");
    var head = document.querySelector("#" + config.name + " .section-head");
    var addButton = el("button", { type: "button", className: "btn btn-secondary btn-small add-item",
      id: config.name + "-add", text: config.addLabel || "Add " + config.noun });
    head.appendChild(addButton);
    var editor = itemEditor(config, {
      notice: notice,
      reload: reload,
      opened: function () { addButton.hidden = true; },
      closed: function () { addButton.hidden = false; },
      // Back to Add, unless what was drawn took the focus (a new conversation's message form).
      saved: function () { if (!body.contains(document.activeElement)) addButton.focus(); }
    });
    body.parentNode.insertBefore(editor.form, body);

    // The first load shows "Loading…"; a reload keeps what is shown until the new list is
    // there (marked busy for screen readers), so the section does not blink empty and jump.
    function reload() {
      if (!body.firstChild) body.appendChild(K.loading());
      body.setAttribute("aria-busy", "true");
      return config.load().then(function (items) {
        K.clear(body);
        body.removeAttribute("aria-busy");
        if (items.length) config.show(body, items, editor.actions);
        else body.appendChild(el("p", { className: "empty-note", text: config.empty }));
      }, function (error) {
        K.clear(body);
        body.removeAttribute("aria-busy");
        body.appendChild(K.errorBox(error, reload));
      });
    }

    addButton.addEventListener("click", function () { editor.add(null); });
    reload();
    return { reload: reload, notice: notice, describe: editor.describe };
  }

  window.KithEditor = { confirm: confirm, confirmRemoval: confirmRemoval, section: section, itemEditor: itemEditor,
    buildForm: buildForm, selectOptions: selectOptions, contactPicker: contactPicker };
})();
