import ArgumentParser

/// The `kith` command line.
public enum KithCLI {
    /// Runs the command the process's arguments name.
    public static func main() async {
        await KithCommand.main()
    }
}
