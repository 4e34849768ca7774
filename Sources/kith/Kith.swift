import KithCLI

@main
enum Kith {
    static func main() async {
        await KithCLI.main()
    }
}
