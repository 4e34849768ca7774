import Foundation

/// The Outreach app's synced entities (docs/outreach.md): the per-field limits both server
/// and devices check. Rules that span records (unique year names, the last year can't be deleted)
/// are `OutreachRules`.
public enum OutreachEntities {
    public static let year = EntityDeclaration(
        name: "outreach.year", scope: .user,
        fields: [
            FieldDeclaration("name", .string(maxLength: 20)),
            FieldDeclaration("createdAt", .timestamp),
        ])

    public static let contact = EntityDeclaration(
        name: "outreach.contact", scope: .user,
        fields: [
            FieldDeclaration("yearId", .uuid),
            FieldDeclaration("firstName", .string(maxLength: 50)),
            FieldDeclaration("lastName", .string(maxLength: 50)),
            FieldDeclaration("enterpriseName", .string(maxLength: 100)),
            FieldDeclaration("comments", .string(maxLength: 500, allowEmpty: true), optional: true),
            FieldDeclaration("delivered", .bool, optional: true),
            FieldDeclaration("deliveredAt", .timestamp, optional: true),
        ])

    /// One record per user: the year the user last looked at, so the next device opens it too.
    public static let preferences = EntityDeclaration(
        name: "outreach.preferences", scope: .user,
        fields: [FieldDeclaration("lastViewedYearId", .uuid, optional: true)])

    public static let all = [year, contact, preferences]
}
