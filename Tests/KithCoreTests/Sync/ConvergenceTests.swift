import Foundation
import KithCore
import Testing

/// Property test of the merge rule (docs/sync.md): many replicas receive the same set of mutations in
/// different orders, with duplicates and delays, made by devices whose clocks are skewed, and must
/// end identical; and no delete that any replica applied is ever undone.
@Suite("Convergence")
struct ConvergenceTests {
    @Test(arguments: 0..<40)
    func replicasConvergeWhateverTheOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let mutations = Self.history(&random)

        var replicas: [[UUID: SyncRecord]] = []
        var deletedSomewhere: Set<UUID> = []
        for _ in 0..<5 {
            // Each replica sees every mutation at least once, some twice, in its own order.
            var delivery = mutations
            for _ in 0..<(mutations.count / 3) { delivery.append(mutations[Int(random.next() % UInt64(mutations.count))]) }
            delivery.shuffle(using: &random)
            var records: [UUID: SyncRecord] = [:]
            for mutation in delivery {
                var record = records[mutation.id] ?? SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)
                let wasDeleted = record.isDeleted
                record.merge(mutation)
                #expect(!wasDeleted || record.isDeleted, "a delete was undone (seed \(seed))")
                if record.isDeleted { deletedSomewhere.insert(record.id) }
                records[mutation.id] = record
            }
            replicas.append(records)
        }
        for replica in replicas.dropFirst() {
            #expect(replica == replicas[0], "replicas diverged (seed \(seed))")
        }
        for id in deletedSomewhere {
            #expect(replicas.allSatisfy { $0[id]?.isDeleted == true })
        }
    }

    /// A device merges pulled server state into records that also carry its own unpushed edits:
    /// whatever split of the history each side saw, the merged state equals applying everything.
    @Test(arguments: 0..<40)
    func mergingStatesEqualsApplyingEveryMutation(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let mutations = Self.history(&random)
        func apply(_ mutations: [Mutation]) -> [UUID: SyncRecord] {
            var records: [UUID: SyncRecord] = [:]
            for mutation in mutations {
                records[mutation.id, default: SyncRecord(entity: mutation.entity, id: mutation.id, scope: mutation.scope)]
                    .merge(mutation)
            }
            return records
        }
        let everything = apply(mutations)
        // The device saw some mutations; the server saw the rest and some of the device's too.
        var sawOnDevice: [Mutation] = []
        var sawOnServer: [Mutation] = []
        for mutation in mutations {
            if random.next() % 2 == 0 {
                sawOnDevice.append(mutation)
                if random.next() % 2 == 0 { sawOnServer.append(mutation) }
            } else {
                sawOnServer.append(mutation)
            }
        }
        var device = apply(sawOnDevice)
        let server = apply(sawOnServer)
        for (id, record) in server {
            device[id, default: SyncRecord(entity: record.entity, id: id, scope: record.scope)].merge(record)
        }
        #expect(device == everything, "device + server state differs from the whole history (seed \(seed))")
        var again = device
        for (id, record) in server { again[id]!.merge(record) }
        #expect(again == device, "merging the same state twice changed something (seed \(seed))")
    }

    /// Mutations from four devices over a few records. Device clocks are skewed by up to ±2 s and
    /// devices sometimes hear each other's stamps (as after a pull), as in real use.
    static func history(_ random: inout SplitMix64) -> [Mutation] {
        let records = (0..<4).map { _ in UUID(uuidString: Self.uuid(&random))! }
        var clocks = ["a", "b", "c", "d"].map { HybridLogicalClock(node: $0) }
        let skew = clocks.map { _ in Int64(random.next() % 4001) - 2000 }
        var wall: Int64 = 1_763_740_800_000
        var made: [Mutation] = []
        let fieldNames = ["title", "done", "comment"]
        for _ in 0..<(20 + Int(random.next() % 40)) {
            wall += Int64(random.next() % 50)
            let device = Int(random.next() % 4)
            if random.next() % 5 == 0, let heard = made.randomElement(using: &random) {
                clocks[device].receive(heard.hlc, now: wall + skew[device])
            }
            let stamp = clocks[device].tick(now: wall + skew[device])
            let record = records[Int(random.next() % UInt64(records.count))]
            let isDelete = random.next() % 10 == 0
            var fields: [String: JSONTree] = [:]
            if !isDelete {
                for name in fieldNames where random.next() % 2 == 0 {
                    fields[name] = .string("\(name)-\(random.next() % 100)")
                }
                if fields.isEmpty { fields["title"] = .string("t-\(random.next() % 100)") }
            }
            made.append(
                Mutation(
                    mutationId: UUID(uuidString: Self.uuid(&random))!, entity: "test.note", id: record, scope: "user:u",
                    op: isDelete ? .delete : .upsert, fields: fields, hlc: stamp))
        }
        return made
    }

    static func uuid(_ random: inout SplitMix64) -> String {
        let hex = String(format: "%016llx%016llx", random.next(), random.next())
        let chars = Array(hex)
        return "\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-8\(String(chars[17..<20]))-\(String(chars[20..<32]))"
    }
}

/// A small seeded generator so a failing case can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
