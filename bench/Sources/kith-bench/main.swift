import Foundation

// Tools for the benchmarks in bench/ (not shipped):
//   kith-bench fill <stores directory> <user id> <count> [<per transaction>]   (bench/run-sync)
//   kith-bench contacts-search <count>                                        (bench/run-contacts-search)

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "fill": try fill(arguments)
case "contacts-search": try await contactsSearch(arguments)
default:
    FileHandle.standardError.write(Data("usage: kith-bench fill … | contacts-search <count>\n".utf8))
    exit(2)
}
