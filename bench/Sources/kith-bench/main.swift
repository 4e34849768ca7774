import Foundation

// Tools for the benchmarks in bench/ (not shipped):
//   kith-bench fill <stores directory> <user id> <count> [<per transaction>]   (bench/run-sync)
//   kith-bench contacts-search <count>                                        (bench/run-contacts-search)
//   kith-bench nutrition-fill <stores directory> <user id> <days> <per day>   (bench/run-nutrition)

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "fill": try fill(arguments)
case "contacts-search": try await contactsSearch(arguments)
case "nutrition-fill": try nutritionFill(arguments)
default:
    FileHandle.standardError.write(Data("usage: kith-bench fill … | contacts-search <count> | nutrition-fill …\n".utf8))
    exit(2)
}
