import ArgumentParser
import KithCore

/// A number option as a person types it: a plain decimal (`DecimalText`). ArgumentParser reads a
/// `Double` option with `Double(String)`, which also takes "0x10" as 16 and "1e3" as 1000.
struct TypedNumber: ExpressibleByArgument, Sendable {
    let value: Double

    init?(argument: String) {
        guard let value = DecimalText.parse(argument) else { return nil }
        self.value = value
    }
}
