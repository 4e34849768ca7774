/// A test could not set up or find what it needed (a database, a child process, a mail). Thrown, not
/// recorded, so the test stops there with this message instead of failing later for a vaguer reason.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
