import Foundation
import KithCore

/// What a live socket reads to turn an inbox nudge into `notice` messages: the notices delivered
/// to its user since the last one it sent.
struct NoticeFeed: Sendable {
    let database: KithDatabase

    func latestSeq(of userID: String) async throws -> Int64 {
        try await database.read { try await NoticeTables(sql: $0).latestSeq(of: userID) }
    }

    func delivered(to userID: String, after seq: Int64) async throws -> [NoticeDTO] {
        // The socket does not know the reader's zone: UTC, saying so, with the words for the
        // reader's device or page to write on its own clock (`NoticeDTO.rendered(in:)`, family.js).
        try await database.read { try await NoticeTables(sql: $0).delivered(to: userID, after: seq) }.map { $0.dto(in: nil) }
    }
}
