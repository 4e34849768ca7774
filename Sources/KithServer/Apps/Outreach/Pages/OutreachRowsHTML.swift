import Foundation
import KithCore

/// The rows of the Outreach people table, written here rather than by a Mustache section: at 5,000
/// people, the template engine's per-row lookups were most of the page's server time, and the page
/// must load and render in under a second (bench/run-outreach-page).
enum OutreachRowsHTML {
    static func render(_ people: [OutreachContact], zone: TimeZone?) -> String {
        var html = ""
        html.reserveCapacity(people.count * 900)
        for person in people { append(person, zone: zone, to: &html) }
        return html
    }

    private static let commentIcon =
        #"<svg class="comment-icon" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14"><path d="M2 3h12v8H6l-3 3v-3H2z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/></svg>"#

    private static func append(_ person: OutreachContact, zone: TimeZone?, to html: inout String) {
        let id = person.id.lowercased
        let delivered = person.delivered
        html += #"<tr id="person-\#(id)" class="person\#(delivered ? " is-delivered" : "")" role="row">"#
        // Ticked to change many people at once (the bar above the table); shown while selecting.
        html +=
            #"<td role="cell" class="pick-cell"><label class="pick-target"><input type="checkbox" name="pick" value="\#(id)" class="pick-box" aria-label="Select \#(escaped(person.fullName))"></label></td>"#
        // The label around the box is the finger's target (44 px on a phone; the box itself is small).
        html +=
            #"<td role="cell" class="deliver-cell"><label class="deliver-target"><input type="checkbox" class="deliver-box" data-person="\#(id)" aria-label="Delivered to \#(escaped(person.fullName))"\#(delivered ? " checked" : "")></label>"#
        html +=
            #"<button type="submit" name="set" value="\#(id):\#(delivered ? "false" : "true")" class="btn btn-secondary btn-small js-hidden">\#(delivered ? "Undo" : "Delivered")</button></td>"#
        html +=
            #"<td role="cell" class="person-name"><a href="/outreach/people/\#(id)">\#(escaped(person.lastName)), \#(escaped(person.firstName))</a></td>"#
        html += #"<td role="cell" class="person-enterprise">\#(escaped(person.enterpriseName))</td>"#
        html += #"<td role="cell" class="delivered-at">"#
        if let time = person.deliveredAt {
            html +=
                #"<time datetime="\#(WireCoding.formatTimestamp(time))" data-local>\#(WebTime.text(time, in: zone))</time>"#
        }
        html += #"</td><td role="cell" class="person-comments">"#
        if !person.comments.isEmpty {
            // The cell shows what fits, ending in "…"; the whole comment is the link's tooltip, and on
            // the person's page.
            let preview = escaped(preview(person.comments))
            html +=
                #"<a class="comment-indicator" href="/outreach/people/\#(id)" title="\#(escaped(person.comments))">\#(commentIcon) <span class="comment-preview">\#(preview)</span></a>"#
        }
        html += "</td></tr>\n"
    }

    /// How much of a comment the list shows; the person's page shows all of it.
    static let previewLength = 60

    /// The first line of a comment, cut at a word near `previewLength` characters.
    static func preview(_ comments: String) -> String {
        let firstLine = comments.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let hasMore = firstLine.count < comments.trimmedWhitespace.count
        guard firstLine.count > previewLength else { return hasMore ? firstLine + " …" : firstLine }
        var cut = String(firstLine.prefix(previewLength))
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > previewLength / 2 {
            cut = String(cut[..<space])
        }
        return cut + " …"
    }

    /// Text made safe inside HTML elements and quoted attributes.
    static func escaped(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
