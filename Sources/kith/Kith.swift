import Foundation
import KithCLI

@main
enum Kith {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        KithCLI.prepareProcess(for: arguments, environment: ProcessInfo.processInfo.environment)
        exit(await KithCLI.run(arguments, console: .process))
    }
}
