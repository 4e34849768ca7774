import Foundation
import KithCore
import KithKit

/// `kith-bench fill <stores directory> <user id> <count> [<per transaction> [<hold after>]]`: fills a
/// `kith` profile's local store with Outreach contacts, queued for upload, as an app on that device
/// would. bench/sync.py then times `kith sync` pushing them and another profile pulling them. With
/// `<hold after>` transactions committed, it writes half of the next one, says "holding a
/// transaction open" and waits inside it: a crash test kills it there, mid-write.
func fill(_ arguments: [String]) throws {
    guard (5...7).contains(arguments.count), arguments[1] == "fill", let user = UUID(uuidString: arguments[3]),
        let count = Int(arguments[4]), count > 0,
        let perTransaction = Int(arguments.count >= 6 ? arguments[5] : "5000"),
        perTransaction > 0
    else {
        FileHandle.standardError.write(
            Data("usage: kith-bench fill <stores directory> <user id> <count> [<per transaction> [<hold after>]]\n".utf8))
        exit(2)
    }
    let holdAfter = arguments.count == 7 ? Int(arguments[6]) : nil

    let directory = LocalStoreDirectory(url: URL(fileURLWithPath: arguments[2]))
    let store = try directory.store(forUser: user)
    let started = Date()
    let year = try store.save(
        "outreach.year",
        fields: [
            "name": .string("Y\(Int.random(in: 0..<1_000_000))"),
            "createdAt": .string(WireCoding.formatTimestamp(Date())),
        ])
    var written = 0
    var committed = 0
    // Transactions of a few thousand keep each one short, as an import in an app would.
    while written < count {
        let batch = min(perTransaction, count - written)
        let holding = committed == holdAfter
        try store.write { transaction in
            for index in written..<(written + batch) {
                if holding && index == written + batch / 2 {
                    FileHandle.standardOutput.write(Data("holding a transaction open after \(written) contacts\n".utf8))
                    while true { sleep(3600) }
                }
                try transaction.save(
                    "outreach.contact",
                    fields: [
                        "yearId": .string(year.uuidString.lowercased()), "firstName": .string("Person"),
                        "lastName": .string("Number \(index)"), "enterpriseName": .string("Enterprise \(index % 97)"),
                        "comments": .string("Met at the fair; send the brochure."),
                    ])
            }
        }
        written += batch
        committed += 1
    }
    print(String(format: "filled %d records in %.2f s", count + 1, Date().timeIntervalSince(started)))
}
