import Foundation
import KithCLI

@main
enum Kith {
    static func main() async {
        exit(await KithCLI.run(Array(CommandLine.arguments.dropFirst()), console: .process))
    }
}
