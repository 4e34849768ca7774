// An address as lines of text, in its country's conventional order. The order, separators and
// labels come from KithCore's AddressFormat (GET /contacts/address-formats.json), the same
// rules the iOS app formats with; this file only applies them.
(function () {
  "use strict";

  // AddressFormat's parts, and the /api address fields that hold them.
  var FIELDS = { street: "street", city: "city", province: "province", postalCode: "postal_code" };

  function formatFor(formats, countryCode) {
    var code = (countryCode || "").toUpperCase();
    return (code && formats.countries[code]) || formats.standard;
  }

  function valueOf(address, part) {
    if (part === "country") return (address.country && address.country.name) || "";
    return String(address[FIELDS[part]] || "").trim();
  }

  // As AddressFormat.lines does: a piece's separator is written only after something on the same
  // line, an empty line is dropped, and a street written on several lines keeps them.
  function lines(address, formats) {
    var format = formatFor(formats, address.country && address.country.iso);
    var result = [];
    format.lines.forEach(function (line) {
      var text = line.reduce(function (written, piece) {
        var value = valueOf(address, piece.part);
        if (!value) return written;
        return written ? written + piece.separator + value : value;
      }, "");
      text.split("\n").forEach(function (part) { if (part !== "") result.push(part); });
    });
    return result;
  }

  window.KithAddressLines = { formatFor: formatFor, lines: lines };
})();
